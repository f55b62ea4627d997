import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, testStores, type TestApp } from '../../../test/harness.ts';
import { post } from '../../../test/memory-helpers.ts';

/** Duplicates folded, near duplicates linked, older facts superseded (docs/truth.md). */
for (const store of testStores) {
  describe(`memories that stay true: writes [${store.name}]`, () => {
    let t: TestApp;
    before(async () => {
      t = await startApp(store);
    });
    after(() => t.close());

    const add = async (body: Record<string, unknown>, query = '?skip_background_processing=true') => {
      const res = await post(t, `/v1/memory${query}`, body);
      assert.equal(res.statusCode, 200, res.body);
      return res.json().data[0] as {
        memoryId: string;
        duplicate?: boolean;
        duplicate_of?: string;
        supersedes?: string[];
        memoryChunkIds: string[];
      };
    };
    const get = async (id: string) => {
      const res = await t.app.inject({ method: 'GET', url: `/v1/memory/${id}`, headers: { 'x-api-key': t.key } });
      assert.equal(res.statusCode, 200, res.body);
      return res.json().data.memories[0];
    };
    const count = async (user: string) =>
      Number(
        (
          await t.db.query<{ n: string }>(
            'SELECT count(*) AS n FROM memories m JOIN users u ON u.id = m.user_id WHERE u.external_id = $1',
            [user],
          )
        )[0].n,
      );

    it('an exact duplicate (case, spacing, end punctuation) is not stored again: the existing id', async () => {
      const first = await add({ content: 'My usual coffee order is an oat milk cortado.', external_user_id: 'dup-1' });
      const again = await add({
        content: '  my usual coffee order is an OAT milk   cortado ',
        external_user_id: 'dup-1',
      });
      assert.equal(again.memoryId, first.memoryId);
      assert.equal(again.duplicate, true);
      assert.deepEqual(again.memoryChunkIds, first.memoryChunkIds);
      assert.equal(await count('dup-1'), 1);
      // Another user, or dedupe off: stored.
      const other = await add({ content: 'My usual coffee order is an oat milk cortado.', external_user_id: 'dup-2' });
      assert.notEqual(other.memoryId, first.memoryId);
      const forced = await add({
        content: 'My usual coffee order is an oat milk cortado.',
        external_user_id: 'dup-1',
        dedupe: 'off',
      });
      assert.notEqual(forced.memoryId, first.memoryId);
      assert.equal(await count('dup-1'), 2);
    });

    it('a batch folds repeats of stored memories and of its own items', async () => {
      const res = await post(t, '/v1/memory/batch?skip_background_processing=true', {
        external_user_id: 'dup-3',
        memories: [{ content: 'Tea at four.' }, { content: 'tea at four' }, { content: 'Biscuits with it.' }],
      });
      assert.equal(res.statusCode, 200, res.body);
      const items = res.json().successful.map((s: { data: unknown[] }) => s.data[0]) as {
        memoryId: string;
        duplicate?: boolean;
      }[];
      assert.equal(items[1].memoryId, items[0].memoryId);
      assert.equal(items[1].duplicate, true);
      assert.equal(await count('dup-3'), 2);
    });

    it('a new value of a single-valued fact supersedes the older memory (valid_to, superseded_by)', async () => {
      const user = 'maya-truth';
      const old = await add({
        content: 'I am a vegetarian.',
        external_user_id: user,
        metadata: { createdAt: '2023-01-10T00:00:00Z' },
      });
      const unrelated = await add({
        content: 'My sister Ana lives in Oslo.',
        external_user_id: user,
        metadata: { createdAt: '2023-02-10T00:00:00Z' },
      });
      const now = await add({
        content: 'I stopped being vegetarian last month.',
        external_user_id: user,
        metadata: { createdAt: '2024-05-01T00:00:00Z' },
      });
      assert.deepEqual(now.supersedes, [old.memoryId]);
      const stale = await get(old.memoryId);
      assert.equal(stale.superseded_by, now.memoryId);
      assert.equal(stale.valid_to, '2024-05-01T00:00:00.000Z');
      assert.equal((await get(unrelated.memoryId)).superseded_by, null);
      assert.deepEqual((await get(now.memoryId)).supersedes, [old.memoryId]);
    });

    it('a memory only the mixed similarity reads is kept as a loose statement: it retires nothing', async () => {
      const user = 'loose-truth';
      const lisbon = await add({
        content: 'I live in Lisbon.',
        external_user_id: user,
        metadata: { createdAt: '2023-01-10T00:00:00Z' },
      });
      // No rule reads it and USE lite alone calls it no residence; with GloVe it is near one.
      const seattle = await add({
        content: 'Sorted out my new address in Seattle with the bank today.',
        external_user_id: user,
        metadata: { createdAt: '2024-05-01T00:00:00Z' },
      });
      const facts = await t.db.query<{ memory_id: string; slot: string; loose: boolean }>(
        'SELECT memory_id, slot, loose FROM memory_facts WHERE memory_id = ANY($1::text[]) ORDER BY at',
        [[lisbon.memoryId, seattle.memoryId]],
      );
      assert.deepEqual(
        facts.map((f) => [f.memory_id, f.slot, f.loose]),
        [
          [lisbon.memoryId, 'residence', false],
          [seattle.memoryId, 'residence', true],
        ],
      );
      assert.deepEqual(seattle.supersedes ?? [], [], 'a loose statement retires nothing');
      assert.equal((await get(lisbon.memoryId)).superseded_by, null);
      // And nothing retires it: a later statement of another city leaves it as it was.
      const porto = await add({
        content: 'I live in Porto.',
        external_user_id: user,
        metadata: { createdAt: '2025-01-10T00:00:00Z' },
      });
      assert.deepEqual(porto.supersedes, [lisbon.memoryId]);
      assert.equal((await get(seattle.memoryId)).superseded_by, null);
    });

    it('an older fact written later is itself the superseded one; supersede: off and explicit supersedes', async () => {
      const user = 'lee-truth';
      const current = await add({
        content: 'I live in Porto.',
        external_user_id: user,
        metadata: { createdAt: '2024-03-01T00:00:00Z' },
      });
      const backfilled = await add({
        content: 'I live in Lisbon.',
        external_user_id: user,
        metadata: { createdAt: '2021-03-01T00:00:00Z' },
      });
      assert.equal(backfilled.supersedes, undefined);
      assert.equal((await get(backfilled.memoryId)).superseded_by, current.memoryId);
      const off = await add({ content: 'I live in Braga.', external_user_id: user, supersede: 'off' });
      assert.equal(off.supersedes, undefined);
      assert.equal((await get(current.memoryId)).superseded_by, null);
      const explicit = await add({
        content: 'Porto it is, after all.',
        external_user_id: user,
        supersedes: [off.memoryId],
      });
      assert.deepEqual(explicit.supersedes, [off.memoryId]);
      const foreign = await post(t, '/v1/memory', {
        content: 'Not yours.',
        external_user_id: 'someone-else',
        supersedes: [current.memoryId],
      });
      assert.equal(foreign.statusCode, 422, foreign.body);
      assert.equal(foreign.json().code, 422);
    });

    it('search: current facts first, include_superseded: false leaves the old out, as_of for then', async () => {
      const user = 'maya-search';
      const at = (d: string) => ({ createdAt: `${d}T00:00:00Z` });
      const lisbon = await add({ content: 'I live in Lisbon.', external_user_id: user, metadata: at('2021-01-01') });
      const porto = await add({ content: 'Moved to Porto!', external_user_id: user, metadata: at('2022-06-01') });
      const berlin = await add({
        content: 'These days I am based in Berlin.',
        external_user_id: user,
        metadata: at('2024-02-01'),
      });
      await add({ content: 'My brother lives in Madrid.', external_user_id: user, metadata: at('2023-01-01') });
      const search = async (body: Record<string, unknown>) => {
        const res = await post(t, '/v1/memory/search?max_memories=10', {
          query: 'Where does Maya live?',
          external_user_id: user,
          ...body,
        });
        assert.equal(res.statusCode, 200, res.body);
        return res.json().data.memories as { id: string; superseded_by?: string | null; relevance_score: number }[];
      };
      const now = await search({});
      const ids = now.map((m) => m.id);
      assert.ok(ids.indexOf(berlin.memoryId) < ids.indexOf(lisbon.memoryId), 'the current fact first');
      assert.ok(ids.indexOf(berlin.memoryId) < ids.indexOf(porto.memoryId));
      assert.ok(ids.includes(lisbon.memoryId), 'kept by default, one place lower');
      const scores = now.map((m) => m.relevance_score);
      assert.deepEqual(
        scores,
        [...scores].sort((a, b) => b - a),
        'scores stay in rank order',
      );
      assert.equal(now.find((m) => m.id === lisbon.memoryId)!.superseded_by, porto.memoryId);
      const current = (await search({ include_superseded: false })).map((m) => m.id);
      assert.ok(current.includes(berlin.memoryId));
      assert.ok(!current.includes(lisbon.memoryId) && !current.includes(porto.memoryId));
      const then = (await search({ as_of: '2023-03-01' })).map((m) => m.id);
      assert.ok(!then.includes(berlin.memoryId), 'nothing from after as_of');
      assert.equal(then[0], porto.memoryId, 'what was true then comes first');
      const early = (await search({ as_of: '2021-06-01T00:00:00Z', include_superseded: false })).map((m) => m.id);
      assert.equal(early[0], lisbon.memoryId);
      const bad = await post(t, '/v1/memory/search', { query: 'x', as_of: 'last tuesday' });
      assert.equal(bad.statusCode, 422);
    });

    it('near duplicates linked, search shows one; deleting the newer fact makes the older current', async () => {
      const user = 'near-dup';
      const a = await add({ content: 'My usual coffee order is an oat milk cortado.', external_user_id: user });
      const b = await add({ content: 'My usual coffee order is an oat-milk cortado!!', external_user_id: user });
      assert.equal(b.duplicate, undefined);
      assert.equal(b.duplicate_of, a.memoryId);
      const res = await post(t, '/v1/memory/search', { query: 'coffee order', external_user_id: user });
      const ids = res.json().data.memories.map((m: { id: string }) => m.id);
      assert.equal(ids.filter((id: string) => id === a.memoryId || id === b.memoryId).length, 1);
      // Supersession undone by deleting the newer memory.
      const old = await add({
        content: 'I work at Initech.',
        external_user_id: user,
        metadata: { createdAt: '2020-01-01T00:00:00Z' },
      });
      const fresh = await add({ content: 'I work at Globex now.', external_user_id: user });
      assert.equal((await get(old.memoryId)).superseded_by, fresh.memoryId);
      const del = await t.app.inject({
        method: 'DELETE',
        url: `/v1/memory/${fresh.memoryId}`,
        headers: { 'x-api-key': t.key },
      });
      assert.equal(del.statusCode, 200, del.body);
      assert.equal((await get(old.memoryId)).superseded_by, null);
    });

    it('history: PUT keeps earlier versions; supersession links, newest first', async () => {
      const user = 'history-user';
      const first = await add({
        content: 'I work at Initech.',
        external_user_id: user,
        metadata: { createdAt: '2020-01-01T00:00:00Z' },
      });
      for (const content of ['I work at Initech as a tester.', 'I work at Initech as a lead tester.']) {
        const put = await t.app.inject({
          method: 'PUT',
          url: `/v1/memory/${first.memoryId}`,
          headers: { 'x-api-key': t.key },
          payload: { content },
        });
        assert.equal(put.statusCode, 200, put.body);
      }
      const later = await add({ content: 'I joined Globex in May.', external_user_id: user });
      const res = await t.app.inject({
        method: 'GET',
        url: `/v1/memory/${first.memoryId}/history`,
        headers: { 'x-api-key': t.key },
      });
      assert.equal(res.statusCode, 200, res.body);
      const h = res.json().data;
      assert.deepEqual(
        h.versions.map((v: { version: number; content: string; current: boolean }) => [
          v.version,
          v.current,
          v.content,
        ]),
        [
          [3, true, 'I work at Initech as a lead tester.'],
          [2, false, 'I work at Initech as a tester.'],
          [1, false, 'I work at Initech.'],
        ],
      );
      assert.equal(h.superseded_by, later.memoryId);
      assert.deepEqual(
        h.links.map((l: { relation: string; memory_id: string; reason: string }) => [
          l.relation,
          l.memory_id,
          l.reason,
        ]),
        [['superseded_by', later.memoryId, 'fact:employer']],
      );
      const missing = await t.app.inject({
        method: 'GET',
        url: '/v1/memory/nope/history',
        headers: { 'x-api-key': t.key },
      });
      assert.equal(missing.statusCode, 404);
      const anonymous = await t.app.inject({ method: 'GET', url: `/v1/memory/${first.memoryId}/history` });
      assert.equal(anonymous.statusCode, 401);
    });
  });
}
