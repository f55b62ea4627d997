import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startApp, testConfig, testStores, type TestApp } from '../../../test/harness.ts';
import { addMemory } from '../../../test/memory-helpers.ts';
import { waitFor } from '../../../test/wait.ts';
import { buildWorker } from '../../app.ts';
import type { Worker } from '../../platform/jobs/index.ts';
import { createLogger } from '../../platform/log.ts';

const log = createLogger('silent');

for (const store of testStores) {
  describe(`graph plan resolved once, at write [${store.name}]`, () => {
    let t: TestApp;
    let worker: Worker | undefined;
    const env = { WORKER_POLL_MS: '50' };
    before(async () => {
      t = await startApp(store, { env });
    });
    after(async () => {
      await worker?.stop();
      await t.close();
    });

    it(
      'stores the resolved plan with the memory, ' + 'and the job builds from it without resolving the policy again',
      async () => {
        const id = await addMemory(t, {
          content: 'Zed joined the team.',
          external_user_id: 'pia',
          // Deprecated spellings on purpose: the stored plan is the canonical form.
          memory_policy: {
            mode: 'structured',
            nodes: [{ id: 'z', label: 'Person', properties: { name: 'Zed' } }],
            relationships: [{ source_node_id: '$this', target_node_id: 'z', relationship_type: 'MENTIONS' }],
          },
        });
        const [row] = await t.db.query<{ graph_plan: Record<string, unknown> }>(
          'SELECT graph_plan FROM memories WHERE id = $1',
          [id],
        );
        assert.equal(row.graph_plan.mode, 'manual');
        assert.deepEqual(row.graph_plan.nodes, [{ id: 'z', type: 'Person', properties: { name: 'Zed' } }]);
        assert.deepEqual(row.graph_plan.relationships, [{ source: '$this', target: 'z', type: 'MENTIONS' }]);

        // A policy the resolver refuses: a job that resolved it again would fail the memory.
        await t.db.query(`UPDATE memories SET policy = '{"graph": {"mode": "bogus"}}'::jsonb WHERE id = $1`, [id]);
        worker = buildWorker({ config: testConfig(env), db: t.db, log });
        await worker.start();
        const status = await waitFor(async () => {
          const r = await t.app.inject({ url: `/v1/memory/status/${id}`, headers: { 'x-api-key': t.key } });
          const s = r.json<{ processing_status: string }>().processing_status;
          return ['completed', 'failed'].includes(s) && s;
        });
        assert.equal(status, 'completed');
        const nodes = await t.db.query<{ type: string; name: string }>(
          `SELECT n.type, n.name FROM memory_nodes mn JOIN graph_nodes n ON n.id = mn.node_id
         WHERE mn.memory_id = $1 AND n.type <> 'Memory'`,
          [id],
        );
        assert.deepEqual(nodes, [{ type: 'Person', name: 'Zed' }]);
      },
    );

    it('an update of another policy field keeps the deprecated graph_generation in the new plan', async () => {
      const id = await addMemory(t, {
        content: 'Ivo leads the platform team.',
        external_user_id: 'pia',
        graph_generation: {
          mode: 'manual',
          manual: { nodes: [{ id: 'i', label: 'Person', properties: { name: 'Ivo' } }] },
        },
      });
      const res = await t.app.inject({
        method: 'PUT',
        url: `/v1/memory/${id}`,
        headers: { 'x-api-key': t.key },
        payload: { policy: { consent: 'explicit' } },
      });
      assert.equal(res.statusCode, 200, res.body);
      const [row] = await t.db.query<{
        graph_plan: { mode: string; nodes: unknown[] };
        policy: Record<string, unknown>;
      }>('SELECT graph_plan, policy FROM memories WHERE id = $1', [id]);
      assert.equal(row.graph_plan.mode, 'manual');
      assert.deepEqual(row.graph_plan.nodes, [{ id: 'i', type: 'Person', properties: { name: 'Ivo' } }]);
      assert.equal(row.policy.consent, 'explicit');
    });
  });
}
