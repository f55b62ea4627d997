/**
 * BM25's precomputed postings and per-scope statistics (migration 0016) stay exactly what the
 * chunk rows say through every kind of write: batch and single adds, content and namespace
 * updates, deletes of a memory, of a user's memories and of a namespace (deleted or detached),
 * a re-embedding's update, and concurrent writers on the same users. After each step the
 * tables are compared with what memory_chunks derives, and BM25 from them with BM25 over the
 * chunk rows.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, testStores, type TestApp } from '../../../test/harness.ts';
import { makeNamespace } from '../../../test/factories.ts';
import { addMemory, post } from '../../../test/memory-helpers.ts';
import { queryTerms } from '../../platform/text-analyzer.ts';
import { bm25 } from './search.store.ts';

const WORDS = 'climbing routes grades garden tomatoes basil dinner recipe travel lisbon train tickets report'.split(
  ' ',
);
/** A deterministic text of `n` words from WORDS (repeats give term frequencies above 1). */
const text = (seed: number, n: number) =>
  Array.from({ length: n }, (_, i) => WORDS[(seed * 7 + i * i + i * seed) % WORDS.length]).join(' ') + '.';

/** Rows of `sql` as sorted JSON lines, for a set comparison with a readable diff. */
async function rowsOf(t: TestApp, sql: string): Promise<string[]> {
  return (await t.db.query(sql)).map((r) => JSON.stringify(r)).sort();
}

/** The postings and statistics equal what the chunk rows derive, and BM25 agrees both ways. */
async function assertConsistent(t: TestApp, label: string, namespaceId: string | null = null) {
  const derivedPostings = await rowsOf(
    t,
    `SELECT c.organization_id, c.user_id, x.lexeme, c.id AS chunk_id, c.memory_id, c.namespace_id,
            coalesce(array_length(x.positions, 1), 1) AS tf, c.doc_len
     FROM memory_chunks c, unnest(c.terms) AS x`,
  );
  const postings = await rowsOf(
    t,
    `SELECT organization_id, user_id, lexeme, chunk_id, memory_id, namespace_id, tf, doc_len FROM memory_chunk_terms`,
  );
  assert.ok(derivedPostings.length > 0, `${label}: the store holds chunks`);
  assert.deepEqual(postings, derivedPostings, `${label}: postings`);
  const derivedStats = await rowsOf(
    t,
    `SELECT organization_id, user_id, coalesce(namespace_id, '') AS namespace_key,
            count(*)::int AS chunks, sum(doc_len)::int AS total_len
     FROM memory_chunks GROUP BY 1, 2, 3`,
  );
  // A scope whose chunks all went keeps its row at zero (no delete racing a concurrent insert).
  const stats = await rowsOf(
    t,
    `SELECT organization_id, user_id, namespace_key, chunks::int, total_len::int FROM memory_term_stats
     WHERE chunks <> 0 OR total_len <> 0`,
  );
  assert.deepEqual(stats, derivedStats, `${label}: statistics`);
  const users = await t.db.query<{ user_id: string }>('SELECT DISTINCT user_id FROM memory_chunks');
  const p = { k1: 0.9, b: 0.4 };
  const terms = queryTerms('climbing garden dinner in lisbon with tickets');
  for (const { user_id } of users) {
    const scope = { organizationId: t.orgId, namespaceId, userId: user_id, sharedIds: [], metadata: null };
    const fromPostings = await bm25(t.db, scope, terms, 100, p);
    const fromChunks = await bm25(t.db, scope, terms, 100, p, { postings: false });
    assert.deepEqual([...fromPostings.keys()].sort(), [...fromChunks.keys()].sort(), `${label}: BM25 hits`);
    for (const [id, s] of fromChunks) assert.ok(Math.abs(fromPostings.get(id)! - s) < 1e-9, `${label}: score ${id}`);
  }
}

for (const store of testStores) {
  describe(`BM25 postings and statistics [${store.name}]`, () => {
    let t: TestApp;
    let ns: string;
    before(async () => {
      t = await startApp(store);
      ns = await makeNamespace(t.db, t.orgId);
    });
    after(() => t.close());

    it('follow adds, updates and deletes', async () => {
      const batch = await post(t, '/v1/memory/batch', {
        memories: [
          ...Array.from({ length: 6 }, (_, i) => ({ content: text(i, 12), external_user_id: 'ana' })),
          ...Array.from({ length: 4 }, (_, i) => ({ content: text(i + 10, 9), external_user_id: 'ben' })),
          // Long enough for several chunks.
          { content: Array.from({ length: 40 }, (_, i) => text(i, 8)).join(' '), external_user_id: 'ana' },
        ],
      });
      assert.equal(batch.statusCode, 200, batch.body);
      const inNs = await addMemory(t, { content: text(3, 10), external_user_id: 'ana', namespace_id: ns });
      const single = await addMemory(t, { content: text(4, 10), external_user_id: 'ben' });
      await assertConsistent(t, 'after adds');
      await assertConsistent(t, 'after adds, namespace scope', ns);
      const [{ n: multi }] = await t.db.query<{ n: number }>(
        'SELECT max(chunk_index)::int AS n FROM memory_chunks GROUP BY memory_id ORDER BY 1 DESC LIMIT 1',
      );
      assert.ok(multi > 0, 'a memory of several chunks is covered');

      const put = (id: string, body: unknown) =>
        t.app.inject({ method: 'PUT', url: `/v1/memory/${id}`, headers: { 'x-api-key': t.key }, payload: body as any });
      assert.equal((await put(single, { content: text(7, 20) })).statusCode, 200);
      await assertConsistent(t, 'after a content update');
      assert.equal((await put(single, { namespace_id: ns })).statusCode, 200);
      await assertConsistent(t, 'after a namespace move');
      await assertConsistent(t, 'after a namespace move, namespace scope', ns);
      assert.equal((await put(single, { metadata: { topic: 'x' } })).statusCode, 200);
      await assertConsistent(t, 'after a metadata update (chunks untouched)');

      // A re-embedding rewrites vectors only: the postings stay as they are.
      await t.db.query(`UPDATE memory_chunks SET embedding2_model = embedding2_model`);
      await assertConsistent(t, 'after a vector-only update');

      const del = await t.app.inject({ method: 'DELETE', url: `/v1/memory/${inNs}`, headers: { 'x-api-key': t.key } });
      assert.equal(del.statusCode, 200, del.body);
      await assertConsistent(t, 'after a delete');

      const all = await t.app.inject({
        method: 'DELETE',
        url: '/v1/memory/all?external_user_id=ben',
        headers: { 'x-api-key': t.key },
      });
      assert.equal(all.statusCode, 200, all.body);
      const [{ n: benChunks }] = await t.db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM memory_chunks c JOIN users u ON u.id = c.user_id WHERE u.external_id = 'ben'`,
      );
      assert.equal(benChunks, 0);
      await assertConsistent(t, 'after deleting a user’s memories');
    });

    it('follow a namespace detached and one deleted with its memories', async () => {
      const ns2 = await makeNamespace(t.db, t.orgId);
      for (const [i, n] of [ns, ns2].entries())
        await addMemory(t, { content: text(20 + i, 11), external_user_id: 'cleo', namespace_id: n });
      await assertConsistent(t, 'before', ns2);
      const detach = await t.app.inject({
        method: 'DELETE',
        url: `/v1/namespace/${ns}?delete_memories=false`,
        headers: { 'x-api-key': t.key },
      });
      assert.equal(detach.statusCode, 200, detach.body);
      await assertConsistent(t, 'after a detach');
      const drop = await t.app.inject({
        method: 'DELETE',
        url: `/v1/namespace/${ns2}`,
        headers: { 'x-api-key': t.key },
      });
      assert.equal(drop.statusCode, 200, drop.body);
      await assertConsistent(t, 'after a namespace deleted with its memories');
    });

    it('follow concurrent writers on the same users without deadlocks', async () => {
      const users = ['dora', 'eli', 'fay'];
      const ids = await Promise.all(
        users.map((u, i) => addMemory(t, { content: text(30 + i, 10), external_user_id: u })),
      );
      const writes = [
        // Batches touching every user in different orders, side by side.
        ...Array.from({ length: 6 }, (_, b) =>
          post(t, '/v1/memory/batch', {
            memories: Array.from({ length: 9 }, (_, i) => ({
              content: text(b * 9 + i, 10),
              external_user_id: users[(b + i) % users.length],
            })),
          }),
        ),
        t.app.inject({ method: 'DELETE', url: `/v1/memory/${ids[0]}`, headers: { 'x-api-key': t.key } }),
        t.app.inject({
          method: 'PUT',
          url: `/v1/memory/${ids[1]}`,
          headers: { 'x-api-key': t.key },
          payload: { content: text(99, 15) },
        }),
      ];
      for (const res of await Promise.all(writes)) assert.equal(res.statusCode, 200, res.body);
      await assertConsistent(t, 'after concurrent writes');
    });
  });
}
