import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, testConfig, testStores, type TestApp } from '../../../test/harness.ts';
import { addMemory, searchContents } from '../../../test/memory-helpers.ts';
import { embeddersFromConfig } from '../../platform/models/index.ts';
import { countStaleVectors, reembedStale } from './reembed.ts';

for (const store of testStores) {
  describe(`model change and re-embedding [${store.name}]`, () => {
    let t: TestApp;
    before(async () => {
      t = await startApp(store);
    });
    after(() => t.close());

    it('vectors of another model are detected, never compared, and re-embedded by the job', async () => {
      const embedders = embeddersFromConfig(testConfig()).index;
      await addMemory(t, { content: 'Tomas collects vintage typewriters.', external_user_id: 'tomas' });
      assert.deepEqual(await countStaleVectors(t.db, embedders), { embedding: 0, embedding2: 0 });
      // Pretend the primary vectors were written by an older model of another size.
      await t.db.query(
        `UPDATE memory_chunks SET embedding = $1::vector, embedding_model = 'old-model'
         WHERE user_id IN (SELECT id FROM users WHERE external_id = 'tomas')`,
        [`[${new Array(8).fill(0.1).join(',')}]`],
      );
      assert.equal((await countStaleVectors(t.db, embedders)).embedding, 1);
      // Search still works (lexical and the other signal) and never mixes vector spaces.
      assert.deepEqual(await searchContents(t, { query: 'typewriters', external_user_id: 'tomas' }), [
        'Tomas collects vintage typewriters.',
      ]);
      assert.equal(await reembedStale(t.db, embedders), 1);
      assert.deepEqual(await countStaleVectors(t.db, embedders), { embedding: 0, embedding2: 0 });
      const [row] = await t.db.query(
        `SELECT embedding_model, vector_dims(embedding) AS dims FROM memory_chunks
         WHERE user_id IN (SELECT id FROM users WHERE external_id = 'tomas')`,
      );
      assert.deepEqual(row, { embedding_model: embedders.primary.id, dims: embedders.primary.dimensions });
    });
  });
}
