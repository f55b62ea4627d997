import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { generateOpenApi, OPENAPI_PATH } from '../scripts/openapi.ts';

type Json = Record<string, any>;

const FIX = 'run `npm run openapi` and commit docs/openapi.json';

/** JSON paths where `a` (generated) and `b` (committed) differ, at most `max`, for a readable failure. */
function differences(a: unknown, b: unknown, at = '$', out: string[] = [], max = 20): string[] {
  if (out.length >= max) return out;
  const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null;
  if (!isObj(a) || !isObj(b) || Array.isArray(a) !== Array.isArray(b)) {
    if (JSON.stringify(a) !== JSON.stringify(b)) out.push(at);
    return out;
  }
  for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) {
    if (!(k in a)) out.push(`${at}.${k} (only in docs/openapi.json)`);
    else if (!(k in b)) out.push(`${at}.${k} (only in the code)`);
    else differences(a[k], b[k], `${at}.${k}`, out, max);
    if (out.length >= max) break;
  }
  return out;
}

/** Routes whose every request and response field must be described. */
const DESCRIBED = (path: string) =>
  path.startsWith('/v1/memory') ||
  path.startsWith('/v1/namespace') ||
  ['/login', '/callback', '/token', '/logout'].includes(path);

/** Every property (at any depth, through $refs, arrays, unions and maps) without a description. */
function undescribed(doc: Json): string[] {
  const missing: string[] = [];
  const resolve = (s: Json): Json => {
    if (typeof s?.$ref !== 'string') return s;
    const target = s.$ref
      .replace(/^#\//, '')
      .split('/')
      .reduce((o: Json | undefined, k: string) => o?.[k.replace(/~1/g, '/').replace(/~0/g, '~')], doc);
    assert.ok(target, `unresolvable $ref ${s.$ref}`);
    return { ...target, ...s, $ref: undefined };
  };
  const described = (s: Json) => typeof resolve(s)?.description === 'string' && resolve(s).description.trim() !== '';
  const walk = (schema: Json | undefined, where: string, seen: Set<string>) => {
    if (!schema || typeof schema !== 'object') return;
    if (typeof schema.$ref === 'string') {
      if (seen.has(schema.$ref)) return;
      seen = new Set(seen).add(schema.$ref);
    }
    const s = resolve(schema);
    for (const [name, prop] of Object.entries<Json>(s.properties ?? {})) {
      if (!described(prop)) missing.push(`${where}.${name}`);
      walk(prop, `${where}.${name}`, seen);
    }
    if (s.items) walk(s.items, `${where}[]`, seen);
    for (const [i, item] of (s.prefixItems ?? []).entries()) walk(item, `${where}[${i}]`, seen);
    for (const k of ['anyOf', 'oneOf', 'allOf'] as const) for (const sub of s[k] ?? []) walk(sub, where, seen);
    if (s.additionalProperties && typeof s.additionalProperties === 'object')
      walk(s.additionalProperties, `${where}{}`, seen);
  };
  for (const [path, ops] of Object.entries<Json>(doc.paths ?? {})) {
    if (!DESCRIBED(path)) continue;
    for (const [method, op] of Object.entries<Json>(ops)) {
      if (!op || typeof op !== 'object' || !('responses' in op)) continue;
      const route = `${method.toUpperCase()} ${path}`;
      for (const p of op.parameters ?? []) {
        const param = resolve(p);
        const where = `${route} ${param.in} ${param.name}`;
        if (!param.description?.trim() && !described(param.schema ?? {})) missing.push(where);
        walk(param.schema, where, new Set());
      }
      for (const [type, c] of Object.entries<Json>(resolve(op.requestBody ?? {}).content ?? {}))
        walk(c.schema, `${route} body (${type})`, new Set());
      for (const [status, r] of Object.entries<Json>(op.responses ?? {}))
        for (const [type, c] of Object.entries<Json>(resolve(r).content ?? {}))
          walk(c.schema, `${route} ${status} (${type})`, new Set());
    }
  }
  return [...new Set(missing)];
}

describe('OpenAPI document (docs/openapi.json)', () => {
  let doc: Json;
  before(async () => {
    doc = await generateOpenApi();
  });

  it('the committed document is the one the code generates', () => {
    assert.ok(fs.existsSync(OPENAPI_PATH), `docs/openapi.json is missing: ${FIX}`);
    let committed: unknown;
    try {
      committed = JSON.parse(fs.readFileSync(OPENAPI_PATH, 'utf8'));
    } catch (err) {
      assert.fail(`docs/openapi.json is not valid JSON (${(err as Error).message}): ${FIX}`);
    }
    const diff = differences(doc, committed);
    assert.ok(
      diff.length === 0,
      `docs/openapi.json differs from the document the code generates; ${FIX}. ` +
        `First differences:\n  ${diff.join('\n  ')}`,
    );
  });

  it('documents the memory, search, namespace, API key and OAuth routes', () => {
    const paths = Object.keys(doc.paths);
    for (const p of [
      '/v1/memory',
      '/v1/memory/batch',
      '/v1/memory/all',
      '/v1/memory/{memory_id}',
      '/v1/memory/search',
      '/v1/memory/status/{memory_id}',
      '/v1/memory/batch/status/{batch_id}',
      '/v1/namespace',
      '/v1/namespace/{namespace_id}',
      '/v1/namespace/{namespace_id}/api-keys',
      '/v1/namespace/{namespace_id}/api-keys/{key_id}',
      '/login',
      '/callback',
      '/token',
      '/logout',
    ])
      assert.ok(paths.includes(p), `${p} is not in the document`);
    assert.ok(doc.paths['/login'].get.parameters?.length, 'GET /login has no documented parameters');
    assert.ok(doc.paths['/token'].post.requestBody, 'POST /token has no documented body');
  });

  it('every request and response field of those routes has a description', () => {
    const missing = undescribed(doc);
    assert.deepEqual(
      missing,
      [],
      `fields without a description (add .describe(...) to their zod schemas):\n  ${missing.join('\n  ')}`,
    );
  });
});
