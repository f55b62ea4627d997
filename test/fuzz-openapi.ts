/**
 * The fuzz test's view of an OpenAPI document: its operations (path × method, parameters,
 * request bodies, security) and a fast-check arbitrary that builds a value from a request
 * schema — the "valid-looking" starting point that test/fuzz-values.ts then mutates.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';

export type Json = Record<string, any>;

/** The committed document (test/openapi.test.ts keeps it equal to what the code generates). */
export const COMMITTED_OPENAPI = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../docs/openapi.json');

export interface Param {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required: boolean;
  schema: Json;
}

export interface Operation {
  /** "GET /v1/memory/{memory_id}" */
  label: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  params: Param[];
  /** The documented request bodies by content type (empty when the operation takes none). */
  bodies: { type: string; schema: Json }[];
  /** Whose credential the operation wants: a tenant's, nobody's, or the operator's. */
  security: 'tenant' | 'public' | 'admin';
  /**
   * 5xx statuses the operation documents as an answer of its own (a 501 for what is not
   * supported), not as a failure: the fuzz accepts them, with the error envelope. 500 never.
   */
  documented5xx: number[];
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

export function readDocument(file = COMMITTED_OPENAPI): Json {
  return JSON.parse(fs.readFileSync(file, 'utf8')) as Json;
}

/** Every operation of the document, in document order. */
export function operationsOf(doc: Json): Operation[] {
  const ops: Operation[] = [];
  for (const [p, item] of Object.entries<Json>(doc.paths ?? {})) {
    for (const m of METHODS) {
      const op = item[m] as Json | undefined;
      if (!op) continue;
      const security = (op.security ?? doc.security ?? []) as Json[];
      const names = security.flatMap((s) => Object.keys(s));
      ops.push({
        label: `${m.toUpperCase()} ${p}`,
        method: m.toUpperCase() as Operation['method'],
        path: p,
        params: [...(item.parameters ?? []), ...(op.parameters ?? [])].map((x: Json) => ({
          name: x.name,
          in: x.in,
          required: !!x.required,
          schema: x.schema ?? {},
        })),
        bodies: Object.entries<Json>(op.requestBody?.content ?? {}).map(([type, c]) => ({
          type,
          schema: c.schema ?? {},
        })),
        security: names.includes('adminKey') ? 'admin' : names.length === 0 ? 'public' : 'tenant',
        documented5xx: Object.keys(op.responses ?? {})
          .map(Number)
          .filter((code) => code > 500 && code < 600),
      });
    }
  }
  return ops;
}

/** Deeper than this, objects are left empty and arrays short: the mutations go deeper on purpose. */
const MAX_DEPTH = 5;
/** Optional strings stay short so one body does not cost a second of embedding. */
const SHORT = 24;

function stringFor(s: Json): fc.Arbitrary<string> {
  const minLength = Math.min(s.minLength ?? 0, 64);
  const maxLength = Math.max(minLength, Math.min(s.maxLength ?? SHORT, minLength + SHORT));
  if (typeof s.pattern === 'string') {
    try {
      return fc
        .stringMatching(new RegExp(s.pattern), { size: 'xsmall' })
        .filter((v) => v.length >= minLength && v.length <= (s.maxLength ?? Infinity));
    } catch {
      // A pattern JavaScript cannot read: fall through to a plain string.
    }
  }
  if (s.format === 'uri') return fc.webUrl();
  if (s.format === 'email') return fc.emailAddress();
  const plain = fc.string({ minLength, maxLength });
  if (typeof s.maxLength !== 'number' || s.maxLength > 20_000) return plain;
  // At the documented limit, in characters of 1, 2 and 4 UTF-8 bytes (2 UTF-16 units for the
  // emoji): where a length counted in characters meets a column or limit counted in bytes.
  const limit = s.maxLength as number;
  const atLimit = fc.constantFrom('a'.repeat(limit), 'é'.repeat(limit), '😀'.repeat(Math.floor(limit / 2)));
  return fc.oneof({ weight: 6, arbitrary: plain }, { weight: 1, arbitrary: atLimit });
}

function numberFor(s: Json, integer: boolean): fc.Arbitrary<number> {
  const min = typeof s.minimum === 'number' ? s.minimum : undefined;
  const max = typeof s.maximum === 'number' ? s.maximum : undefined;
  const inside = integer
    ? fc.integer({ min: Math.max(min ?? -1e6, -(2 ** 31)), max: Math.min(max ?? 1e6, 2 ** 31 - 1) })
    : fc.double({ min: min ?? -1e6, max: max ?? 1e6, noNaN: true, noDefaultInfinity: true });
  // The documented bounds themselves (often 2^53 - 1: where SQL integers overflow).
  const bounds = [min, max].filter((b): b is number => b !== undefined);
  return bounds.length ? fc.oneof({ weight: 4, arbitrary: inside }, fc.constantFrom(...bounds)) : inside;
}

const ABSENT = Symbol('absent');

function objectFor(s: Json, hints: Hints, depth: number): fc.Arbitrary<unknown> {
  const props = Object.entries<Json>(s.properties ?? {});
  const required: string[] = Array.isArray(s.required) ? s.required : [];
  if (depth >= MAX_DEPTH) return fc.constant({});
  if (props.length === 0 && s.additionalProperties && typeof s.additionalProperties === 'object') {
    const key = s.propertyNames?.pattern ? stringFor(s.propertyNames) : fc.string({ minLength: 1, maxLength: 12 });
    return fc.dictionary(key, arbitraryFor(s.additionalProperties, hints, depth + 1), { maxKeys: 2 });
  }
  const values: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [name, sub] of props)
    values[name] = hints[name] ? fc.constantFrom(...hints[name]) : arbitraryFor(sub, hints, depth + 1);
  const mandatory = props.map(([name]) => name).filter((n) => required.includes(n));
  const optional = props.map(([name]) => name).filter((n) => !required.includes(n));
  const only = (names: string[]) => fc.record(Object.fromEntries(names.map((n) => [n, values[n]])));
  // Every optional property sent is one more way to be refused (and a deprecated alias sent
  // with its successor conflicts): mostly the required ones and one or two others, sometimes
  // about a third of them, to reach the nested shapes too.
  const minimal = fc
    .subarray(optional, { maxLength: Math.min(2, optional.length) })
    .chain((some) => only([...mandatory, ...some]));
  const rich = fc.record(
    Object.fromEntries(
      props.map(([name]) => [
        name,
        required.includes(name)
          ? values[name]
          : fc.oneof({ weight: 2, arbitrary: fc.constant(ABSENT) }, { weight: 1, arbitrary: values[name] }),
      ]),
    ),
  );
  return fc.oneof(
    { weight: 3, arbitrary: minimal },
    {
      weight: 1,
      arbitrary: rich.map((o) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== ABSENT))),
    },
  );
}

/** Real values for properties and parameters of these names (ids of the seeded objects). */
export type Hints = Record<string, string[]>;

/**
 * A value that follows `schema` closely enough to get past most validation (types, enums,
 * required properties, lengths, patterns; `hints` for ids): the documented shape the fuzz
 * starts from.
 */
export function arbitraryFor(schema: Json | undefined, hints: Hints = {}, depth = 0): fc.Arbitrary<unknown> {
  if (!schema || typeof schema !== 'object') return fc.jsonValue({ maxDepth: 1 });
  return build(schema, hints, depth);
}

function build(s: Json, hints: Hints, depth: number): fc.Arbitrary<unknown> {
  if ('const' in s) return fc.constant(s.const);
  if (Array.isArray(s.enum) && s.enum.length > 0) return fc.constantFrom(...(s.enum as unknown[]));
  const union = (s.anyOf ?? s.oneOf) as Json[] | undefined;
  if (Array.isArray(union) && union.length > 0) return fc.oneof(...union.map((u) => arbitraryFor(u, hints, depth)));
  if (Array.isArray(s.allOf) && s.allOf.length > 0) {
    const merged: Json = { type: 'object', properties: {}, required: [] };
    for (const part of s.allOf as Json[]) {
      Object.assign(merged.properties, part.properties ?? {});
      merged.required.push(...(part.required ?? []));
    }
    return objectFor(merged, hints, depth);
  }
  if (Array.isArray(s.type))
    return fc.oneof(...s.type.map((t: string) => arbitraryFor({ ...s, type: t }, hints, depth)));
  switch (s.type) {
    case 'string':
      return stringFor(s);
    case 'integer':
      return numberFor(s, true);
    case 'number':
      return numberFor(s, false);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      const minLength = Math.min(s.minItems ?? 0, 3);
      const maxLength = depth >= MAX_DEPTH ? minLength : Math.max(minLength, Math.min(s.maxItems ?? 2, 2));
      return fc.array(arbitraryFor(s.items, hints, depth + 1), { minLength, maxLength });
    }
    case 'object':
      return objectFor(s, hints, depth);
    default:
      // `{}` (anything): a small JSON value.
      return s.properties ? objectFor(s, hints, depth) : fc.jsonValue({ maxDepth: 1 });
  }
}
