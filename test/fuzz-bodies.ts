/**
 * Request bodies for the fuzz: the operation's documented body, as is or mutated (one field
 * replaced or tainted with a hostile value, removed, wrapped, stringified, nested 70 deep, an
 * extra field), replaced whole by a hostile value, absent, or not JSON; and the content type.
 */
import fc from 'fast-check';
import { arbitraryFor, type Hints, type Operation } from './fuzz-openapi.ts';
import { RAW_BODIES, Raw, nastyString, nastyValue } from './fuzz-values.ts';

const CONTENT_TYPES = [
  undefined,
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data',
  'multipart/form-data; boundary=fuzz',
  'application/json; charset=utf-16',
  'application/json; charset=iso-8859-1',
  'APPLICATION/JSON ; Charset=UTF-8',
  'application/merge-patch+json',
  'application/xml',
  'application/octet-stream',
  'application/json, text/plain',
  '*/*',
];

type Step = string | number;
type Mutation = { at: number; kind: (typeof KINDS)[number]; value: unknown; key: string };
const KINDS = ['replace', 'taint', 'delete', 'extra', 'wrap', 'null', 'stringify', 'deepen'] as const;

/** Every node's path in a JSON value (bounded), the root first. */
function pathsOf(v: unknown, at: Step[] = [], out: Step[][] = []): Step[][] {
  out.push(at);
  if (out.length > 300 || at.length > 12 || v instanceof Raw) return out;
  if (Array.isArray(v)) v.forEach((x, i) => pathsOf(x, [...at, i], out));
  else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) pathsOf(x, [...at, k], out);
  return out;
}

const GONE = Symbol('gone');
/** `v` with the node at `path` replaced by `fn(node)` (GONE removes it), copying along the path. */
function update(v: unknown, path: Step[], fn: (node: unknown) => unknown): unknown {
  if (path.length === 0) return fn(v);
  const [head, ...rest] = path;
  const copy: any = Array.isArray(v) ? [...v] : { ...(v as object) };
  const next = update(copy[head], rest, fn);
  if (next !== GONE) copy[head] = next;
  else if (Array.isArray(copy)) copy.splice(Number(head), 1);
  else delete copy[head];
  return copy;
}

function mutate(v: unknown, m: Mutation): unknown {
  const paths = pathsOf(v);
  const path = paths[m.at % paths.length];
  return update(v, path, (node) => {
    switch (m.kind) {
      case 'replace':
        return m.value;
      case 'taint':
        // The field stays as it was, plus something hostile: it gets past every other check.
        return typeof node === 'string' && typeof m.value === 'string' ? `${node}${m.value}` : m.value;
      case 'delete':
        return path.length === 0 ? {} : GONE;
      case 'extra':
        if (Array.isArray(node)) return [...node, m.value];
        return node && typeof node === 'object' && !(node instanceof Raw) ? { ...node, [m.key]: m.value } : m.value;
      case 'wrap':
        return [node];
      case 'null':
        return null;
      case 'stringify':
        return typeof node === 'string' ? node : (JSON.stringify(node) ?? 'undefined');
      case 'deepen':
        return Array.from({ length: 70 }).reduce<unknown>((inner) => ({ a: inner }), node);
    }
  });
}

const mutation: fc.Arbitrary<Mutation> = fc.record({
  at: fc.nat(),
  kind: fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom<Mutation['kind']>('replace', 'taint') },
    { weight: 3, arbitrary: fc.constantFrom(...KINDS) },
  ),
  value: nastyValue,
  key: fc.oneof(nastyString, fc.constantFrom('acl', 'metadata', 'namespace_id', 'user_id', 'organization_id', 'id')),
});

/** A documented body as is, mutated, replaced whole by a hostile value, absent, or not JSON. */
function payloadFor(schema: object | undefined, hints: Hints): fc.Arbitrary<unknown> {
  const base = arbitraryFor(schema, hints);
  return fc.oneof(
    { weight: 2, arbitrary: base },
    {
      weight: 7,
      arbitrary: fc
        .tuple(
          base,
          fc.oneof(
            { weight: 4, arbitrary: fc.array(mutation, { minLength: 1, maxLength: 1 }) },
            { weight: 1, arbitrary: fc.array(mutation, { minLength: 2, maxLength: 3 }) },
          ),
        )
        .map(([v, ms]) => ms.reduce(mutate, v)),
    },
    { weight: 2, arbitrary: nastyValue },
    { weight: 1, arbitrary: fc.constant(undefined) },
    { weight: 1, arbitrary: fc.constantFrom(...RAW_BODIES) },
  );
}

type Body = { contentType?: string; payload?: unknown };

/** The body of a request to `op`: documented and valid-looking, or (hostile) any of the above. */
export function bodyFor(op: Operation, hints: Hints, hostile: boolean): fc.Arbitrary<Body> {
  if (op.bodies.length === 0) {
    if (!hostile) return fc.constant({});
    return fc.oneof(
      { weight: 2, arbitrary: fc.constant({}) },
      {
        weight: 1,
        arbitrary: fc.record({
          contentType: fc.constantFrom('application/json', ...CONTENT_TYPES),
          payload: nastyValue,
        }),
      },
    );
  }
  if (!hostile)
    return fc.oneof(
      ...op.bodies.map((b) => arbitraryFor(b.schema, hints).map((payload) => ({ contentType: b.type, payload }))),
    );
  return fc.oneof(
    ...op.bodies.map((b) => ({
      weight: 6,
      arbitrary: payloadFor(b.schema, hints).map((payload) => ({ contentType: b.type, payload })),
    })),
    {
      weight: 1,
      arbitrary: fc.record({
        contentType: fc.constantFrom(...CONTENT_TYPES),
        payload: payloadFor(op.bodies[0].schema, hints),
      }),
    },
  );
}
