/**
 * Requests for one OpenAPI operation: path ids (real ones of both tenants, and junk), query
 * parameters (documented, wrong-typed, repeated, unknown), credentials (mostly the seeded key),
 * content types, and bodies built from the operation's request schema and then mutated.
 * Secrets appear as `$name` placeholders so a counterexample prints without them.
 */
import fc from 'fast-check';
import { arbitraryFor, type Hints, type Operation, type Param } from './fuzz-openapi.ts';
import { bodyFor } from './fuzz-bodies.ts';
import { encodeComponent, headerString, nastyString } from './fuzz-values.ts';

export type IdKind = 'memory' | 'batch' | 'namespace' | 'key' | 'user' | 'schema';
/** Real ids the fuzz may name: the fuzzing tenant's own objects and another tenant's. */
export interface IdPools {
  own: Record<IdKind, string[]>;
  foreign: Record<IdKind, string[]>;
  /** Property and parameter names → the fuzzing tenant's real values, for well-formed requests. */
  hints: Hints;
}

export interface FuzzRequest {
  path: string;
  query: string;
  /** Values `$org`, `$ns`, `$foreign`, `$revoked`, `$session`, `$admin` name the seeded credentials. */
  headers: Record<string, string>;
  contentType?: string;
  payload?: unknown;
  /** How many identical copies are sent at once (races on unique names, update/delete). */
  copies: number;
}

/** The id kind a path or query parameter names. */
const KIND_OF: Record<string, IdKind> = {
  memory_id: 'memory',
  batch_id: 'batch',
  namespace_id: 'namespace',
  key_id: 'key',
  user_id: 'user',
  schema_id: 'schema',
  frequency_schema_id: 'schema',
};

/** Path segments sent as they are (already encoded, or deliberately not). */
const RAW_SEGMENTS = [
  '',
  '.',
  '..',
  '%2e%2e',
  '..%2F..%2Fhealth',
  'a%2Fb',
  '%',
  '%zz',
  '%00',
  '%ED%A0%80',
  '%C0%AE',
  '%252e',
  '%F0%9F%98%80',
  'all',
  'status',
  ';',
  '+',
  `${'x'.repeat(1_001)}`,
  `${'7'.repeat(5_000)}`,
];

/** Query text appended as it is. */
const RAW_QUERIES = [
  '&',
  '%',
  '%zz=1',
  '=',
  '&&&=&',
  'a[b]=1',
  '__proto__[x]=1',
  'constructor[prototype][x]=1',
  'x=%ED%A0%80',
  '%ED%A0%80=1',
  'x=%00',
  `q=${'a'.repeat(20_000)}`,
];

const all = (p: IdPools) => [...Object.values(p.own).flat(), ...Object.values(p.foreign).flat()];
const pick = (xs: string[]) => (xs.length ? fc.constantFrom(...xs) : fc.constant('none-seeded'));

/** A path parameter: the right kind of real id; or, hostile, any real id, a hostile string or a raw segment. */
function segmentFor(name: string, pools: IdPools, hostile: boolean): fc.Arbitrary<string> {
  const kind = KIND_OF[name];
  const own = pick(kind ? pools.own[kind] : []);
  if (!hostile) return own;
  return fc.oneof(
    { weight: 2, arbitrary: own },
    { weight: 1, arbitrary: pick(kind ? pools.foreign[kind] : []) },
    { weight: 1, arbitrary: pick(all(pools)) },
    { weight: 3, arbitrary: nastyString.map(encodeComponent) },
    { weight: 2, arbitrary: fc.constantFrom(...RAW_SEGMENTS) },
  );
}

const asQueryText = (v: unknown): string => (typeof v === 'string' ? v : (JSON.stringify(v) ?? ''));

/** A value the parameter's schema allows (a string parameter is often a boolean or an id in disguise). */
function tameValueFor(param: Param, pools: IdPools): fc.Arbitrary<string> {
  if (pools.hints[param.name]) return pick(pools.hints[param.name]);
  const documented = arbitraryFor(param.schema, pools.hints).map(asQueryText);
  if (param.schema.type !== 'string' || param.schema.enum) return documented;
  return fc.oneof({ weight: 3, arbitrary: fc.constantFrom('true', 'false') }, { weight: 1, arbitrary: documented });
}

/** One query parameter's values (several: the parameter repeated), or none. */
function queryValuesFor(param: Param, pools: IdPools, hostile: boolean): fc.Arbitrary<string[]> {
  const tame = tameValueFor(param, pools).map((v) => [v]);
  if (!hostile) return fc.oneof(fc.constant<string[]>([]), tame);
  return fc.oneof(
    { weight: 2, arbitrary: fc.constant<string[]>([]) },
    { weight: 2, arbitrary: tame },
    { weight: 3, arbitrary: nastyString.map((v) => [v]) },
    { weight: 1, arbitrary: pick(all(pools)).map((v) => [v]) },
    { weight: 1, arbitrary: fc.array(nastyString, { minLength: 2, maxLength: 3 }) },
  );
}

function queryFor(op: Operation, pools: IdPools, hostile: boolean): fc.Arbitrary<string> {
  const params = op.params.filter((p) => p.in === 'query');
  const documented = fc.tuple(...params.map((p) => queryValuesFor(p, pools, hostile)));
  const none = fc.constant<[string, string][]>([]);
  const extra = hostile
    ? fc.oneof(
        { weight: 3, arbitrary: none },
        { weight: 1, arbitrary: fc.array(fc.tuple(nastyString, nastyString), { minLength: 1, maxLength: 2 }) },
      )
    : none;
  const raw = hostile
    ? fc.oneof({ weight: 4, arbitrary: fc.constant('') }, { weight: 1, arbitrary: fc.constantFrom(...RAW_QUERIES) })
    : fc.constant('');
  return fc.tuple(documented, extra, raw).map(([values, more, tail]) => {
    const pairs = params.flatMap((p, i) => values[i].map((v) => [p.name, v] as const));
    const text = [...pairs, ...more].map(([k, v]) => `${encodeComponent(k)}=${encodeComponent(v)}`);
    if (tail) text.push(tail);
    return text.length ? `?${text.join('&')}` : '';
  });
}

const TENANT_CREDENTIALS: fc.Arbitrary<Record<string, string>> = fc.oneof(
  { weight: 20, arbitrary: fc.constant({ 'x-api-key': '$org' }) },
  { weight: 1, arbitrary: fc.constant({}) },
  { weight: 1, arbitrary: headerString.map((v) => ({ 'x-api-key': v })) },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom(
        'Bearer',
        'Bearer x',
        'Basic dXNlcjpwYXNz',
        'Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.',
        'Bearer $org',
      )
      .map((v) => ({ authorization: v })),
  },
  { weight: 1, arbitrary: fc.constant({ 'x-api-key': '$ns' }) },
  { weight: 1, arbitrary: fc.constant({ 'x-api-key': '$foreign' }) },
  { weight: 1, arbitrary: fc.constant({ 'x-api-key': '$revoked' }) },
  { weight: 1, arbitrary: fc.constant({ 'x-session-token': '$session' }) },
  { weight: 1, arbitrary: fc.constant({ 'x-api-key': '$org', 'x-session-token': '$session' }) },
  { weight: 1, arbitrary: headerString.map((v) => ({ 'x-api-key': '$org', 'x-session-token': v })) },
  { weight: 1, arbitrary: headerString.map((v) => ({ 'x-api-key': '$org', authorization: `Bearer ${v}` })) },
);

const ADMIN_CREDENTIALS: fc.Arbitrary<Record<string, string>> = fc.oneof(
  { weight: 12, arbitrary: fc.constant({ 'x-admin-key': '$admin' }) },
  { weight: 1, arbitrary: fc.constant({}) },
  { weight: 1, arbitrary: headerString.map((v) => ({ 'x-admin-key': v })) },
  { weight: 1, arbitrary: fc.constant({ 'x-api-key': '$org' }) },
  { weight: 1, arbitrary: fc.constant({ 'x-admin-key': '$admin', 'x-api-key': '$org' }) },
  { weight: 1, arbitrary: fc.constant({ authorization: 'Bearer $admin' }) },
);

/** Headers besides credentials: encodings the body is not in, formats, a caller's request id. */
const OTHER_HEADERS: fc.Arbitrary<Record<string, string>> = fc.oneof(
  { weight: 6, arbitrary: fc.constant<Record<string, string>>({}) },
  {
    weight: 3,
    arbitrary: fc.constantFrom<Record<string, string>>(
      { 'content-encoding': 'gzip' },
      { 'content-encoding': 'br' },
      { 'content-encoding': 'deflate' },
      { 'content-encoding': 'zstd' },
      { 'content-encoding': 'gzip, identity' },
      { accept: 'application/toon' },
      { accept: 'text/html' },
      { 'accept-encoding': 'br' },
      { 'accept-encoding': 'gzip;q=0, *;q=0' },
    ),
  },
  { weight: 1, arbitrary: headerString.map((v) => ({ 'x-request-id': v })) },
);

function headersFor(op: Operation, hostile: boolean): fc.Arbitrary<Record<string, string>> {
  const own: Record<string, string> = op.security === 'admin' ? { 'x-admin-key': '$admin' } : { 'x-api-key': '$org' };
  if (!hostile) return fc.constant(own);
  return fc
    .tuple(op.security === 'admin' ? ADMIN_CREDENTIALS : TENANT_CREDENTIALS, OTHER_HEADERS)
    .map(([creds, other]) => ({ ...creds, ...other }));
}

type Part = 'path' | 'query' | 'headers' | 'body';

/**
 * Requests for `op`: most have one hostile part (path ids, query, credentials or body) and the
 * rest well-formed, so the hostile part reaches the code behind the others; some are hostile
 * throughout, some valid-looking throughout.
 */
export function requestsFor(op: Operation, pools: IdPools): fc.Arbitrary<FuzzRequest> {
  const names = op.params.filter((p) => p.in === 'path').map((p) => p.name);
  const request = (hostile: Set<Part>) =>
    fc
      .record({
        segs: fc.tuple(...names.map((n) => segmentFor(n, pools, hostile.has('path')))),
        query: queryFor(op, pools, hostile.has('query')),
        headers: headersFor(op, hostile.has('headers')),
        body: bodyFor(op, pools.hints, hostile.has('body')),
        copies: fc.oneof({ weight: 9, arbitrary: fc.constant(1) }, { weight: 1, arbitrary: fc.constantFrom(2, 3) }),
      })
      .map(({ segs, body, ...r }) => ({
        path: names.reduce((p, n, i) => p.replace(`{${n}}`, segs[i]), op.path),
        ...r,
        ...body,
      }));
  const focus = (parts: Part[], weight: number) => ({ weight, arbitrary: request(new Set(parts)) });
  return fc.oneof(
    focus([], 2),
    focus(['path', 'query', 'headers', 'body'], 2),
    focus(['headers'], 1),
    ...(names.length ? [focus(['path'], 3)] : []),
    ...(op.params.some((p) => p.in === 'query') ? [focus(['query'], 3)] : []),
    ...(op.bodies.length ? [focus(['body'], 6)] : []),
  );
}
