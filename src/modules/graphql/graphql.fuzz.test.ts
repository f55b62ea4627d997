/**
 * Random GraphQL documents over the schema's own fields (test/fuzz.test.ts walks the OpenAPI
 * operations, which cannot produce these): odd argument values (wrong types, out of bounds,
 * huge, empty, JSON literals) in queries and mutations. Every answer is HTTP 200 or a 4xx, and
 * no error in it is a 500. FUZZ_SEED and FUZZ_RUNS as in the main fuzz.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { startApp, testStores, type TestApp } from '../../../test/harness.ts';
import { addMemory } from '../../../test/memory-helpers.ts';

const SEED = Number(process.env.FUZZ_SEED ?? 1717);
const RUNS = Number(process.env.FUZZ_RUNS ?? 12) * 5;

const text = fc.oneof(fc.string({ maxLength: 30 }), fc.constantFrom('ana', '', ' ', '"', '\\\\', 'a'.repeat(600)));
const int = fc.oneof(fc.integer({ min: -5, max: 300 }), fc.constantFrom(2147483647, -2147483648));
const value = fc.oneof(
  text.map((s) => JSON.stringify(s)),
  int.map(String),
  fc.constantFrom('null', 'true', '[]', '{}', '1.5', '{a: 1, b: [null]}', 'text'),
);
/** `(name: value, …)` with some of `names`, each at most once. */
const args = (...names: string[]) =>
  fc
    .uniqueArray(fc.tuple(fc.constantFrom(...names), value), { maxLength: 4, selector: ([n]) => n })
    .map((xs) => (xs.length ? `(${xs.map(([n, v]) => `${n}: ${v}`).join(', ')})` : ''));
const memory =
  '{ id content type userId externalUserId metadata acl createdAt status relevanceScore context { role } }';
const query = fc.oneof(
  args('id').map((a) => `memory${a} ${memory}`),
  args('externalUserId', 'namespaceId', 'first', 'after').map((a) => `memories${a} { items ${memory} nextCursor }`),
  args('query', 'externalUserId', 'namespaceId', 'maxMemories', 'maxNodes', 'enableAgenticGraph').map(
    (a) => `search${a} { searchId memories ${memory} nodes { id label name properties } }`,
  ),
  args('externalUserId', 'namespaceId', 'maxNodes', 'maxRelationships').map(
    (a) => `graph${a} { memoriesRead nodes { id name } relationships { type source { id } target { id } } }`,
  ),
  args('externalId', 'email', 'first', 'page').map(
    (a) => `users${a} { total items { id memories(first: 2) { hasMore } } }`,
  ),
  args('id').map((a) => `user${a} { id email }`),
  args('first', 'skip').map((a) => `namespaces${a} { total items { id storageCount } }`),
  args('id').map((a) => `namespace${a} { id }`),
);
const mutation = fc.oneof(
  fc
    .tuple(value, value, value, value)
    .map(
      ([c, m, p, e]) => `addMemory(input: {content: ${c}, metadata: ${m}, policy: ${p}, externalUserId: ${e}}) { id }`,
    ),
  fc.tuple(value, value).map(([id, c]) => `updateMemory(id: ${id}, input: {content: ${c}}) { id memory { content } }`),
  value.map((id) => `deleteMemory(id: ${id}) { id deleted }`),
);
const documents = fc.oneof(
  fc.array(query, { minLength: 1, maxLength: 3 }).map((fs) => `{ ${fs.map((f, i) => `f${i}: ${f}`).join(' ')} }`),
  fc
    .array(mutation, { minLength: 1, maxLength: 2 })
    .map((fs) => `mutation { ${fs.map((f, i) => `m${i}: ${f}`).join(' ')} }`),
);

for (const store of testStores) {
  describe(`graphql documents fuzz [${store.name}] (seed ${SEED})`, () => {
    let t: TestApp;
    before(async () => {
      t = await startApp(store);
      await addMemory(t, { content: 'Ana likes green tea.', external_user_id: 'ana' });
    });
    after(() => t.close());

    it(`${RUNS} random documents: 200 or 4xx, never a 500 in the errors`, async () => {
      const headers = { 'x-api-key': t.key };
      await fc.assert(
        fc.asyncProperty(documents, async (doc) => {
          const res = await t.app.inject({ method: 'POST', url: '/v1/graphql', headers, payload: { query: doc } });
          assert.ok(res.statusCode < 500, `${res.statusCode} for ${doc}: ${res.body}`);
          for (const e of res.json().errors ?? [])
            assert.ok(e.extensions?.code >= 400 && e.extensions.code < 500, `${doc}\n${res.body}`);
        }),
        { seed: SEED, numRuns: RUNS },
      );
    });
  });
}
