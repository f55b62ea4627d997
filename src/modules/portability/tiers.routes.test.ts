import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, testStores, type TestApp } from '../../../test/harness.ts';
import { assertEnvelope, authKitFor } from '../../../test/auth-kit.ts';
import { makeKey, makeNamespace, makeOrg, makeSession } from '../../../test/factories.ts';
import { waitFor } from '../../../test/wait.ts';

for (const store of testStores) {
  describe(`sync tiers [${store.name}]`, () => {
    let t: TestApp;
    before(async () => {
      t = await startApp(store);
    });
    after(async () => t.close());
    const call = (
      method: string,
      url: string,
      payload?: unknown,
      headers: Record<string, string> = { 'x-api-key': t.key },
    ) => t.app.inject({ method: method as any, url, headers, payload: payload as any });
    const add = async (body: Record<string, unknown>) => {
      const res = await call('POST', '/v1/memory?skip_background_processing=true', body);
      assert.equal(res.statusCode, 200, res.body);
      return res.json().data[0].memoryId as string;
    };
    const tiers = async (body: Record<string, unknown>, headers?: Record<string, string>) => {
      const res = await call('POST', '/v1/sync/tiers', body, headers);
      assert.equal(res.statusCode, 200, res.body);
      return res.json();
    };
    const age = (id: string, days: number) =>
      t.db.query(`UPDATE memories SET updated_at = now() - make_interval(days => $2) WHERE id = $1`, [id, days]);

    let m: Record<'retrieved' | 'fresh' | 'goal' | 'old1' | 'old2', string>;
    before(async () => {
      m = {
        retrieved: await add({ content: 'The wifi password of the lake house is pinecone42.', external_user_id: 'tu' }),
        fresh: await add({ content: 'Lunch with Marta on Friday at noon.', external_user_id: 'tu' }),
        goal: await add({
          content: 'Run a half marathon this year.',
          external_user_id: 'tu',
          metadata: { category: 'goal' },
        }),
        old1: await add({ content: 'The plumber came in March.', external_user_id: 'tu' }),
        old2: await add({ content: 'Bought a blue umbrella.', external_user_id: 'tu' }),
      };
      for (const id of [m.retrieved, m.goal, m.old1, m.old2]) await age(id, 60);
      // Three searches that return the wifi memory (their result ids are in the query log).
      for (let i = 0; i < 3; i++) {
        const res = await call('POST', '/v1/memory/search', {
          query: 'lake house wifi password',
          external_user_id: 'tu',
          limit: 1,
        });
        assert.equal(res.json().data.memories[0].id, m.retrieved);
      }
      await waitFor(async () => {
        const [{ n }] = await t.db.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM query_log WHERE $1 = ANY(result_ids)`,
          [m.retrieved],
        );
        return n === 3;
      });
    });

    it('tier 0 is the best scored (retrieved often, recent), tier 1 the next (goals above the rest)', async () => {
      const body = await tiers({ external_user_id: 'tu', max_tier0: 2, max_tier1: 2 });
      assert.equal(body.code, 200);
      assert.equal(body.status, 'success');
      assert.deepEqual(
        body.tier0.map((x: any) => x.id),
        [m.retrieved, m.fresh],
      );
      assert.equal(body.tier1[0].id, m.goal);
      assert.equal(body.tier1.length, 2);
      assert.equal(body.has_more, true);
      assert.deepEqual(body.transitions, []);
      const top = body.tier0[0];
      assert.equal(top.popularity_score, 1);
      assert.ok(top.recency_score > 0 && top.recency_score < 0.1, 'sixty days old');
      assert.ok(body.tier0[1].recency_score > 0.99);
      assert.ok(top.relevance_score >= body.tier0[1].relevance_score);
      const all = await tiers({ external_user_id: 'tu', max_tier0: 10, max_tier1: 10 });
      assert.equal(all.tier0.length, 5);
      assert.equal(all.has_more, false);
    });

    it('next_cursor follows the snapshot: the delta holds what changed after it, nothing else new', async () => {
      const snap = await tiers({ external_user_id: 'tu', max_tier0: 1, max_tier1: 1 });
      const later = await add({ content: 'A note written after the snapshot.', external_user_id: 'tu' });
      assert.equal((await call('DELETE', `/v1/memory/${m.old2}`)).statusCode, 200);
      const seen = { upserts: new Set<string>(), deletes: new Set<string>() };
      let cursor = snap.next_cursor;
      await waitFor(async () => {
        const page = (await call('GET', `/v1/sync/delta?external_user_id=tu&cursor=${cursor}`)).json();
        page.upserts.forEach((u: any) => seen.upserts.add(u.id));
        page.deletes.forEach((d: any) => seen.deletes.add(d.id));
        cursor = page.next_cursor;
        return seen.upserts.has(later) && seen.deletes.has(m.old2);
      });
      // What changed after it, and possibly again what the snapshot held: the cursor stands before
      // the oldest transaction running anywhere on the server at the time (docs/sync.md), and
      // with other test files' transactions running beside it on the same PostgreSQL cluster
      // that can be before the setup's own writes. Delivery is at least once, never lost.
      assert.ok(seen.upserts.has(later));
      const held = new Set(Object.values(m).filter((id) => id !== m.old2));
      for (const id of seen.upserts) assert.ok(id === later || held.has(id), `unexpected upsert ${id}`);
      assert.deepEqual([...seen.deletes], [m.old2]);
    });

    it('embeddings: tier 0 float32, tier 1 embedding_format (default int8), embed_limit per tier', async () => {
      const body = await tiers({
        external_user_id: 'tu',
        max_tier0: 2,
        max_tier1: 2,
        include_embeddings: true,
        embed_limit: 1,
      });
      assert.ok(Array.isArray(body.tier0[0].embedding) && body.tier0[0].embedding.length > 10);
      assert.equal(body.tier0[1].embedding, undefined, 'beyond embed_limit');
      assert.ok(Array.isArray(body.tier1[0].embedding_int8) && typeof body.tier1[0].embedding_scale === 'number');
      assert.equal(body.tier1[0].embedding, undefined);
      const f = await tiers({
        external_user_id: 'tu',
        max_tier0: 0,
        max_tier1: 1,
        include_embeddings: true,
        embedding_format: 'float32',
      });
      assert.ok(Array.isArray(f.tier1[0].embedding));
      const none = await tiers({ external_user_id: 'tu', max_tier0: 1, max_tier1: 0 });
      assert.equal(none.tier0[0].embedding, undefined);
    });

    it('rated up: feedback on a search lifts the memory it cites (feedback through the RatedUp port)', async () => {
      // Two memories of their own, equally old; one search returns each (equal retrieval counts),
      // and only one gets a thumbs up.
      // The liked one is written second: no tie-break by age or id can put it first.
      const other = await add({ content: 'Kept the receipts in a green folder.', external_user_id: 'tr' });
      const liked = await add({ content: 'The piano tuner visits every October.', external_user_id: 'tr' });
      await t.db.query(`UPDATE memories SET updated_at = now() - interval '30 days' WHERE id = ANY($1)`, [
        [liked, other],
      ]);
      const searched = async (query: string, id: string) => {
        const res = await call('POST', '/v1/memory/search', { query, external_user_id: 'tr', limit: 1 });
        assert.equal(res.json().data.memories[0].id, id);
        return res.json().search_id as string;
      };
      await searched('receipts green folder', other);
      const searchId = await searched('piano tuner October', liked);
      const fb = await call('POST', '/v1/feedback', {
        search_id: searchId,
        external_user_id: 'tr',
        feedbackData: { feedbackType: 'thumbs_up', feedbackSource: 'inline', citedMemoryIds: [liked] },
      });
      assert.equal(fb.statusCode, 200, fb.body);
      const body = await tiers({ external_user_id: 'tr', max_tier0: 2, max_tier1: 0 });
      assert.deepEqual(
        body.tier0.map((x: { id: string }) => x.id),
        [liked, other],
      );
      assert.ok(body.tier0[0].relevance_score > body.tier0[1].relevance_score);
    });

    it('bad input is a 4xx; no body takes the defaults; scope as the delta', async () => {
      for (const bad of [
        { max_tier0: 1001 },
        { max_tier1: -1 },
        { embedding_format: 'fp16' },
        { include_embeddings: 'yes' },
        { organization_id: 'another-org' },
      ])
        assertEnvelope(await call('POST', '/v1/sync/tiers', bad), 422);
      const bare = await t.app.inject({ method: 'POST', url: '/v1/sync/tiers', headers: { 'x-api-key': t.key } });
      assert.equal(bare.statusCode, 200, bare.body);
      assert.ok(bare.json().tier0.length > 0, 'the organization-wide tiers');
      const me = await makeSession(t.db, t.orgId, 'tu');
      const mine = await tiers({}, { 'x-session-token': me.token });
      assert.ok(mine.tier0.some((x: any) => x.id === m.fresh));
      assertEnvelope(
        await call('POST', '/v1/sync/tiers', { external_user_id: 'someone-else' }, { 'x-session-token': me.token }),
        403,
      );
      const ns = await makeNamespace(t.db, t.orgId);
      const { key } = await makeKey(t.db, t.orgId, { namespaceId: ns });
      assert.equal((await tiers({}, { 'x-api-key': key })).tier0.length, 0, 'nothing in that namespace');
      assertEnvelope(await call('POST', '/v1/sync/tiers', { namespace_id: 'elsewhere' }, { 'x-api-key': key }), 403);
      const stranger = await makeOrg(t.db);
      const theirs = await tiers({ external_user_id: 'tu' }, { 'x-api-key': stranger.key });
      assert.deepEqual([theirs.tier0.length, theirs.tier1.length], [0, 0]);
    });

    const kit = authKitFor(() => t);
    kit(
      'tiers',
      'POST',
      () => '/v1/sync/tiers',
      'read',
      () => ({ external_user_id: 'tu' }),
      (res) => {
        assert.equal(res.statusCode, 200, res.body);
        assert.deepEqual([res.json().tier0.length, res.json().tier1.length], [0, 0]);
      },
    );
  });
}
