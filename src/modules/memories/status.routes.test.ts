import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, testConfig, testStores, type TestApp } from '../../../test/harness.ts';
import { assertEnvelope, authKit } from '../../../test/auth-kit.ts';
import { makeKey, makeNamespace, makeSession } from '../../../test/factories.ts';
import { addMemory, post } from '../../../test/memory-helpers.ts';
import { waitFor } from '../../../test/wait.ts';
import { buildWorker } from '../../app.ts';
import { createLogger } from '../../platform/log.ts';
import { createWorker, type Worker } from '../../platform/jobs/index.ts';
import { createEventPublisher } from '../../platform/events/index.ts';
import { MEMORY_PROCESS, memoryJobs } from './memories.jobs.ts';

const log = createLogger('silent');

for (const store of testStores) {
  describe(`memory status [${store.name}]`, () => {
    let t: TestApp;
    let worker: Worker | null = null;
    let known: string;
    let knownBatch: string;
    const get = (url: string, key = t.key) => t.app.inject({ url, headers: { 'x-api-key': key } });
    const status = async (id: string) => {
      const res = await get(`/v1/memory/status/${id}`);
      assert.equal(res.statusCode, 200, res.body);
      return res.json();
    };
    const batchStatus = async (id: string) => {
      const res = await get(`/v1/memory/batch/status/${id}`);
      assert.equal(res.statusCode, 200, res.body);
      return res.json();
    };
    const startWorker = async (w: Worker) => {
      await worker?.stop();
      worker = w;
      await w.start();
    };
    const addBatch = async (memories: unknown[], query = '') => {
      const res = await post(t, `/v1/memory/batch${query}`, { memories, external_user_id: 'batch-user' });
      assert.ok([200, 207].includes(res.statusCode), res.body);
      return res.json();
    };

    before(async () => {
      t = await startApp(store);
      known = await addMemory(t, { content: 'Kit memory about gliders.', external_user_id: 'kit-user' });
      knownBatch = (await addBatch([{ content: 'Kit batch item.' }])).batch_id;
    });
    after(async () => {
      await worker?.stop();
      await t.close();
    });

    it(
      'a new memory is quick_saved (searchable) ' + 'with a job in the same transaction, then completed by the worker',
      async () => {
        const id = await addMemory(t, { content: 'Ana keeps her bike in the garage.', external_user_id: 'ana' });
        const s = await status(id);
        assert.equal(s.code, 200);
        assert.equal(s.status, 'success');
        assert.equal(s.memory_id, id);
        assert.equal(s.processing_status, 'quick_saved');
        assert.equal(s.completed_at, null);
        assert.equal(s.error, null);
        assert.equal((await get(`/v1/memory/${id}`)).statusCode, 200, 'readable before processing');
        const jobs = await t.db.query(
          `SELECT kind, status, organization_id FROM jobs WHERE payload->>'memory_id' = $1`,
          [id],
        );
        assert.deepEqual(jobs, [{ kind: MEMORY_PROCESS, status: 'queued', organization_id: t.orgId }]);

        await startWorker(buildWorker({ config: testConfig({ WORKER_POLL_MS: '50' }), db: t.db, log }));
        await waitFor(async () => (await status(id)).processing_status === 'completed');
        const done = await status(id);
        assert.ok(Date.parse(done.processing_started_at) >= Date.parse(done.created_at));
        assert.ok(Date.parse(done.completed_at) >= Date.parse(done.processing_started_at));
        assert.equal(done.error, null);
      },
    );

    it('skip_background_processing=true: completed right after the quick save, no job', async () => {
      const res = await post(t, '/v1/memory?skip_background_processing=true', {
        content: 'Skip processing for this one.',
        external_user_id: 'ana',
      });
      assert.equal(res.statusCode, 200, res.body);
      const id = res.json().data[0].memoryId;
      const s = await status(id);
      assert.equal(s.processing_status, 'completed');
      assert.ok(s.completed_at);
      assert.equal(s.processing_started_at, null);
      assert.equal((await t.db.query(`SELECT id FROM jobs WHERE payload->>'memory_id' = $1`, [id])).length, 0);
    });

    it('batch status: counts by state, progress, and the per-memory list', async () => {
      await worker?.stop();
      worker = null;
      const r = await addBatch([
        { content: 'First batch memory.' },
        { content: 42 },
        { content: 'Second batch memory.' },
        { content: 'Third.' },
      ]);
      assert.equal(r.total_successful, 3);
      const before = await batchStatus(r.batch_id);
      assert.equal(before.batch_id, r.batch_id);
      assert.equal(before.processing_status, 'processing');
      assert.deepEqual(before.counts, { quick_saved: 3, processing: 0, completed: 0, failed: 0 });
      assert.deepEqual(before.progress, { total: 3, done: 0, percent: 0 });
      assert.deepEqual(
        before.memories.map((m: any) => m.memory_id).sort(),
        r.successful.map((s: any) => s.data[0].memoryId).sort(),
      );
      assert.deepEqual(before.failures, []);

      await startWorker(buildWorker({ config: testConfig({ WORKER_POLL_MS: '50' }), db: t.db, log }));
      await waitFor(async () => (await batchStatus(r.batch_id)).processing_status === 'completed');
      const after = await batchStatus(r.batch_id);
      assert.deepEqual(after.counts, { quick_saved: 0, processing: 0, completed: 3, failed: 0 });
      assert.deepEqual(after.progress, { total: 3, done: 3, percent: 100 });
      assert.ok(after.memories.every((m: any) => m.processing_status === 'completed' && m.batch_id === r.batch_id));
    });

    it('a memory whose processing keeps failing is failed with the reason; the batch is partial', async () => {
      await worker?.stop();
      worker = null;
      const r = await addBatch([{ content: 'This one processes fine.' }, { content: 'POISON in this one.' }]);
      const steps = [
        {
          name: 'graph',
          run: async (m: { id: string }) => {
            const [row] = await t.db.query<{ content: string }>('SELECT content FROM memories WHERE id = $1', [m.id]);
            if (row.content.includes('POISON')) throw new Error('extractor refused the content');
          },
        },
      ];
      await startWorker(
        createWorker({
          db: t.db,
          log,
          handlers: memoryJobs(createEventPublisher(), steps),
          pollMs: 20,
          backoffMs: () => 10,
        }),
      );
      await waitFor(async () => (await batchStatus(r.batch_id)).progress.done === 2);
      const b = await batchStatus(r.batch_id);
      assert.equal(b.processing_status, 'partial');
      assert.deepEqual({ completed: b.counts.completed, failed: b.counts.failed }, { completed: 1, failed: 1 });
      assert.equal(b.failures.length, 1);
      assert.equal(b.failures[0].error, 'graph: extractor refused the content');
      const s = await status(b.failures[0].memory_id);
      assert.equal(s.processing_status, 'failed');
      assert.ok(s.failed_at);
      assert.equal(s.completed_at, null);
      const [job] = await t.db.query(`SELECT status, attempts FROM jobs WHERE payload->>'memory_id' = $1`, [
        s.memory_id,
      ]);
      assert.deepEqual(job, { status: 'dead', attempts: 5 });
    });

    it('memory.process is idempotent: running it again changes nothing', async () => {
      const id = await addMemory(t, { content: 'Run me twice.', external_user_id: 'ana' }, t.key);
      await startWorker(buildWorker({ config: testConfig({ WORKER_POLL_MS: '50' }), db: t.db, log }));
      await waitFor(async () => (await status(id)).processing_status === 'completed');
      const first = await status(id);
      const [job] = await t.db.query(`SELECT * FROM jobs WHERE payload->>'memory_id' = $1`, [id]);
      await memoryJobs(createEventPublisher())[MEMORY_PROCESS].run(job as any, {
        db: t.db,
        log,
        lastAttempt: false,
        complete: async () => assert.fail('an already completed memory completes nothing'),
      });
      assert.deepEqual(await status(id), first);
    });

    it('"status" is never read as a memory id, and unknown ids are 404', async () => {
      const s = await status(known);
      assert.equal(s.memory_id, known);
      assert.ok(!('data' in s));
      assertEnvelope(await get('/v1/memory/status/does-not-exist'), 404);
      assertEnvelope(await get('/v1/memory/batch/status/does-not-exist'), 404);
      assertEnvelope(await get(`/v1/memory/batch/status/${known}`), 404); // a memory id is not a batch id
    });

    it('a namespace key sees only its namespace', async () => {
      const ns = await makeNamespace(t.db, t.orgId);
      const { key } = await makeKey(t.db, t.orgId, { namespaceId: ns });
      assertEnvelope(await get(`/v1/memory/status/${known}`, key), 404);
      assertEnvelope(await get(`/v1/memory/batch/status/${knownBatch}`, key), 404);
      const mine = await addMemory(t, { content: 'Namespaced memory.', external_user_id: 'ns-user' }, key);
      assert.equal((await get(`/v1/memory/status/${mine}`, key)).statusCode, 200);
    });

    it(
      "an end user's own token sees the status of memories it may read (own or shared), " + 'else 404 like GET by id',
      async () => {
        const erin = await makeSession(t.db, t.orgId, 'erin');
        const token = { 'x-session-token': erin.token };
        const as = (url: string, headers: Record<string, string> = token) => t.app.inject({ url, headers });
        const add = (content: string, owner: string, policy?: object) =>
          addMemory(t, { content, external_user_id: owner, ...(policy ? { policy } : {}) });
        const cases: [string, string, number][] = [
          ['own', await add('Erin owns this.', 'erin'), 200],
          ['shared with her', await add('Shared with Erin.', 'frank', { acl: { read: ['external_user:erin'] } }), 200],
          [
            'shared with the organization',
            await add('For all.', 'frank', { acl: { read: [`organization:${t.orgId}`] } }),
            200,
          ],
          [
            'shared but flagged (owner-only)',
            await add('Risky.', 'frank', { acl: { read: ['erin'] }, risk: 'flagged' }),
            404,
          ],
          ["another user's", await add('Frank keeps this.', 'frank'), 404],
        ];
        for (const [label, id, code] of cases) {
          const res = await as(`/v1/memory/status/${id}`);
          assert.equal(res.statusCode, code, `${label}: ${res.body}`);
          assert.equal((await as(`/v1/memory/${id}`)).statusCode, code, `${label}: GET by id answers the same`);
          if (code === 404) {
            // Exactly what an unknown id gets.
            const ghost = (await as('/v1/memory/status/no-such-memory')).json();
            assert.deepEqual({ ...assertEnvelope(res, 404), error: null }, { ...ghost, error: null });
          } else assert.equal(res.json().memory_id, id);
          // The application's key, alone or beside her token, is not limited to her.
          assert.equal((await as(`/v1/memory/status/${id}`, { 'x-api-key': t.key, ...token })).statusCode, 200);
        }

        // Batches: only when she may read every memory in them (a batch records no creator).
        const batch = async (memories: object[], headers: Record<string, string>) => {
          const res = await t.app.inject({ method: 'POST', url: '/v1/memory/batch', headers, payload: { memories } });
          assert.equal(res.statusCode, 200, res.body);
          return res.json().batch_id as string;
        };
        const key = { 'x-api-key': t.key };
        const hers = await batch([{ content: 'Her first.' }, { content: 'Her second.' }], token);
        const sharedBatch = await batch(
          [
            { content: 'Erin item.', external_user_id: 'erin' },
            { content: 'Frank item for Erin.', external_user_id: 'frank', policy: { acl: { read: ['erin'] } } },
          ],
          key,
        );
        const mixed = await batch(
          [
            { content: 'Another Erin item.', external_user_id: 'erin' },
            { content: 'Frank private item.', external_user_id: 'frank' },
          ],
          key,
        );
        const seen = await as(`/v1/memory/batch/status/${hers}`);
        assert.equal(seen.statusCode, 200, seen.body);
        assert.equal(seen.json().progress.total, 2);
        assert.equal((await as(`/v1/memory/batch/status/${sharedBatch}`)).statusCode, 200);
        const refused = await as(`/v1/memory/batch/status/${mixed}`);
        assert.equal(assertEnvelope(refused, 404).details, null);
        assert.ok(!refused.body.includes('Frank'));
        assert.equal((await get(`/v1/memory/batch/status/${mixed}`)).json().progress.total, 2, 'the key sees it whole');
      },
    );

    authKit(() => t, {
      label: 'GET /v1/memory/status/:id',
      method: 'GET',
      url: () => `/v1/memory/status/${known}`,
      permission: 'read',
    });
    authKit(() => t, {
      label: 'GET /v1/memory/batch/status/:id',
      method: 'GET',
      url: () => `/v1/memory/batch/status/${knownBatch}`,
      permission: 'read',
    });
  });
}
