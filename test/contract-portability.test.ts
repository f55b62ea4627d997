/**
 * The official client (@papr/memory 2.8.0), unmodified, against a real listening server on
 * both stores: `client.omo.*` and `client.sync.*`, and the bad input the issue names.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import Papr from '@papr/memory';
import { makeOrg } from './factories.ts';
import { startApp, testStores, type TestApp } from './harness.ts';
import { waitFor } from './wait.ts';

for (const store of testStores) {
  describe(`official client: omo and sync [${store.name}]`, () => {
    let t: TestApp;
    let client: Papr;
    let other: Papr;
    before(async () => {
      t = await startApp(store);
      const baseURL = await t.app.listen({ port: 0, host: '127.0.0.1' });
      client = new Papr({ xAPIKey: t.key, baseURL, maxRetries: 0 });
      other = new Papr({ xAPIKey: (await makeOrg(t.db)).key, baseURL, maxRetries: 0 });
    });
    after(async () => t.close());

    const add = async (content: string, external_user_id: string) => {
      const r = await client.memory.add({ content, external_user_id, skip_background_processing: true });
      return r.data![0].memoryId;
    };

    it('omo.exportMemories, exportMemoriesAsJson, importMemories: a round trip into another organization', async () => {
      const a = await add('Lena keeps her passport in the blue folder.', 'lena');
      const b = await add('Lena is allergic to peanuts.', 'lena');
      const exported = await client.omo.exportMemories({ memory_ids: [a, b, 'missing'] });
      assert.equal(exported.count, 2);
      assert.equal(exported.memories[0].id, a);
      assert.equal(exported.memories[0].consent, 'implicit');
      assert.deepEqual((exported as unknown as { not_found: string[] }).not_found, ['missing']);
      const asJson = await client.omo.exportMemoriesAsJson({ memory_ids: `${a},${b}` });
      assert.deepEqual(
        (asJson.memories as { id: string }[]).map((m) => m.id),
        [a, b],
      );

      const res = await other.omo.importMemories({ memories: exported.memories, skip_duplicates: true });
      assert.equal(res.imported, 2);
      assert.equal(res.skipped, 0);
      assert.equal(res.memory_ids?.length, 2);
      const again = await other.omo.importMemories({ memories: exported.memories });
      assert.deepEqual([again.imported, again.skipped], [0, 2]);
      const found = await other.memory.search({ query: 'Where is the passport?', external_user_id: 'lena' });
      assert.equal(found.data!.memories![0].content, 'Lena keeps her passport in the blue folder.');
      // Another tenant's ids are not found, like unknown ones.
      const theirs = await other.omo.exportMemories({ memory_ids: [a] });
      assert.equal(theirs.count, 0);
    });

    it('sync.getTiers then sync.getDelta from its cursor; getDelta pages the whole feed', async () => {
      const first = await add('Tomas plans a trip to Oslo in June.', 'tomas');
      const tiers = await client.sync.getTiers({
        external_user_id: 'tomas',
        max_tier0: 5,
        max_tier1: 5,
        include_embeddings: true,
      });
      assert.equal(tiers.status, 'success');
      assert.equal(tiers.tier0![0].id, first);
      assert.ok(Array.isArray(tiers.tier0![0].embedding));
      assert.ok(tiers.next_cursor);
      const later = await add('Tomas booked the Oslo hotel.', 'tomas');
      await client.memory.delete(first);
      const seen = { up: new Set<string>(), down: new Set<string>() };
      let cursor = tiers.next_cursor!;
      await waitFor(async () => {
        const page = (await client.sync.getDelta({ cursor, limit: 10 })) as {
          upserts: { id: string }[];
          deletes: { id: string }[];
          next_cursor: string;
        };
        page.upserts.forEach((u) => seen.up.add(u.id));
        page.deletes.forEach((d) => seen.down.add(d.id));
        cursor = page.next_cursor;
        return seen.up.has(later) && seen.down.has(first);
      });
      // From the start, in pages of one, with embeddings: every live memory, once.
      const ids = new Set<string>();
      let c: string | undefined;
      for (;;) {
        const page = (await client.sync.getDelta({ cursor: c, limit: 1, include_embeddings: true })) as {
          upserts: { id: string; embedding?: number[] }[];
          has_more: boolean;
          next_cursor: string;
        };
        for (const u of page.upserts) {
          assert.ok(u.embedding?.length);
          ids.add(u.id);
        }
        c = page.next_cursor;
        if (!page.has_more) break;
      }
      const [{ n }] = await t.db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM memories WHERE organization_id = $1',
        [t.orgId],
      );
      assert.equal(ids.size, n);
    });

    it('bad input: a malformed cursor, bounds and another organization are the documented errors', async () => {
      await assert.rejects(client.sync.getDelta({ cursor: 'not-a-cursor' }), (err: any) => err.status === 422);
      await assert.rejects(client.sync.getDelta({ limit: 5000 }), (err: any) => err.status === 422);
      await assert.rejects(client.sync.getTiers({ max_tier0: -1 }), (err: any) => err.status === 422);
      await assert.rejects(client.sync.getTiers({ organization_id: 'someone-else' }), (err: any) => err.status === 422);
      await assert.rejects(client.omo.exportMemories({ memory_ids: [] }), (err: any) => err.status === 422);
      await assert.rejects(client.omo.importMemories({ memories: [] }), (err: any) => err.status === 422);
      await assert.rejects(
        client.omo.importMemories({ memories: [{ id: 'x', content: '' }] }),
        (err: any) => err.status === 422 && err.error.errors[0].index === 0,
      );
      const theirs = (await other.sync.getDelta({ limit: 1000 })) as { upserts: { organization_id: string }[] };
      assert.ok(theirs.upserts.every((u) => u.organization_id !== t.orgId));
    });
  });
}
