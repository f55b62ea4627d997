/**
 * The official client (@papr/memory 2.8.0), unmodified, against a real listening server
 * on both stores: its memory methods must succeed and read back what they wrote.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import Papr from '@papr/memory';
import { startApp, testStores, type TestApp } from './harness.ts';
import { makeOrg } from './factories.ts';

for (const store of testStores) {
  describe(`official client: memory [${store.name}]`, () => {
    let t: TestApp;
    let client: Papr;
    let baseURL: string;
    before(async () => {
      t = await startApp(store);
      baseURL = await t.app.listen({ port: 0, host: '127.0.0.1' });
      client = new Papr({ xAPIKey: t.key, baseURL, maxRetries: 0 });
    });
    after(() => t.close());

    it('add, get, update, search, delete, addBatch, deleteAll', async () => {
      const added = await client.memory.add({
        content: 'Lena drinks oat milk flat whites every morning.',
        external_user_id: 'lena',
        metadata: { role: 'user', category: 'preference', customMetadata: { cafe: 'corner' } },
        context: [{ role: 'user', content: 'Remember my coffee order' }],
      });
      const id = added.data![0].memoryId;
      assert.equal(added.status, 'success');

      const got = await client.memory.get(id);
      assert.equal(got.data!.memories[0].content, 'Lena drinks oat milk flat whites every morning.');
      assert.equal(got.data!.memories[0].external_user_id, 'lena');

      const updated = await client.memory.update(id, { content: 'Lena switched to espresso.' });
      assert.equal(updated.memory_items![0].memoryId, id);

      const found = await client.memory.search({
        query: 'What coffee does Lena drink?',
        external_user_id: 'lena',
        max_memories: 5,
      });
      assert.equal(found.data!.memories[0].content, 'Lena switched to espresso.');
      assert.equal(typeof found.search_id, 'string');

      const toon = await client.memory.search({ query: 'espresso', external_user_id: 'lena', response_format: 'toon' });
      assert.equal(typeof toon, 'string');
      assert.match(toon as unknown as string, /espresso/);

      const del = await client.memory.delete(id);
      assert.equal(del.memoryId, id);
      await assert.rejects(client.memory.get(id), (err: any) => err.status === 404);

      const batch = await client.memory.addBatch({
        external_user_id: 'lena',
        memories: [{ content: 'Lena runs on Sundays.' }, { content: 'Lena has a cat named Miso.' }],
        batch_size: 2,
      });
      assert.equal(batch.total_successful, 2);
      assert.equal(typeof batch.batch_id, 'string');

      const all = await client.memory.deleteAll({ external_user_id: 'lena' });
      assert.equal(all.total_successful, 2);
      const after = await client.memory.search({ query: 'Lena', external_user_id: 'lena' });
      assert.deepEqual(after.data!.memories, []);
    });

    it('client errors arrive as the documented classes', async () => {
      await assert.rejects(
        client.memory.add({ content: '' }),
        (err: any) => err.status === 422 && err.error.status === 'error',
      );
      const other = await makeOrg(t.db);
      const theirs = new Papr({ xAPIKey: other.key, baseURL, maxRetries: 0 });
      const mine = await client.memory.add({ content: 'Private thing.', external_user_id: 'lena' });
      await assert.rejects(theirs.memory.get(mine.data![0].memoryId), (err: any) => err.status === 404);
      const bad = new Papr({ xAPIKey: 'wrong-key-wrong-key', baseURL, maxRetries: 0 });
      await assert.rejects(bad.memory.search({ query: 'x' }), (err: any) => err.status === 401);
    });
  });
}
