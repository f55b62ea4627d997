import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { runMain, startServer } from './process.ts';
import { MODELS_CACHE, scratchDatabase } from './harness.ts';
import { sleep } from './wait.ts';

/** ROLES on PostgreSQL: an API-only process enqueues, a separate worker process processes. */
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'engram-roles-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('roles on PostgreSQL', () => {
  it(
    'ROLES=api stores and enqueues; a ROLES=worker process completes; SIGTERM stops it cleanly',
    { timeout: 180_000 },
    async () => {
      const scratch = await scratchDatabase();
      const key = `ek_org_${randomBytes(20).toString('hex')}`;
      const env = {
        DATA_DIR: dir,
        DATABASE_URL: scratch.url,
        BOOTSTRAP_API_KEY: key,
        MODELS_CACHE_DIR: MODELS_CACHE,
        WORKER_POLL_MS: '60000',
      };
      try {
        const api = await startServer({ ...env, ROLES: 'api' });
        try {
          const headers = { 'X-API-Key': key, 'Content-Type': 'application/json' };
          const added = await fetch(`${api.url}/v1/memory`, {
            method: 'POST',
            headers,
            body: JSON.stringify({ content: 'Roles test memory.', external_user_id: 'r' }),
          });
          assert.equal(added.status, 200);
          const id = (await added.json()).data[0].memoryId;
          const status = async () =>
            (await (await fetch(`${api.url}/v1/memory/status/${id}`, { headers })).json()).processing_status;
          await sleep(300);
          assert.equal(await status(), 'quick_saved', 'an API-only process runs no jobs');

          // The worker's poll interval is a minute: picking the job up at start, or by NOTIFY, is what counts.
          const worker = runMain({ ...env, ROLES: 'worker' });
          const deadline = Date.now() + 60_000;
          while ((await status()) !== 'completed') {
            if (Date.now() > deadline || worker.proc.exitCode !== null)
              throw new Error(`not completed:\n${worker.output()}`);
            await sleep(50);
          }
          const second = await fetch(`${api.url}/v1/memory`, {
            method: 'POST',
            headers,
            body: JSON.stringify({ content: 'Woken by NOTIFY.', external_user_id: 'r' }),
          });
          const id2 = (await second.json()).data[0].memoryId;
          const until = Date.now() + 10_000;
          while (
            (await (await fetch(`${api.url}/v1/memory/status/${id2}`, { headers })).json()).processing_status !==
            'completed'
          ) {
            if (Date.now() > until) throw new Error(`NOTIFY did not wake the worker:\n${worker.output()}`);
            await sleep(50);
          }
          worker.proc.kill('SIGTERM');
          assert.equal(await worker.exited, 0, worker.output());
          assert.match(worker.output(), /worker stopped/);
        } finally {
          await api.stop();
        }
      } finally {
        await scratch.drop();
      }
    },
  );
  it(
    'two ROLES=worker processes share a batch: every memory processed exactly once',
    { timeout: 240_000 },
    async () => {
      const scratch = await scratchDatabase();
      const key = `ek_org_${randomBytes(20).toString('hex')}`;
      const env = {
        DATA_DIR: dir,
        DATABASE_URL: scratch.url,
        BOOTSTRAP_API_KEY: key,
        MODELS_CACHE_DIR: MODELS_CACHE,
        WORKER_POLL_MS: '200',
      };
      const db = new pg.Client({ connectionString: scratch.url });
      try {
        const api = await startServer({ ...env, ROLES: 'api' });
        await db.connect();
        // Count every status transition, outside the product (as the kill test does).
        await db.query(`
        CREATE TABLE test_transitions (memory_id text NOT NULL, status text NOT NULL);
        CREATE FUNCTION test_record_transition() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          IF NEW.status IS DISTINCT FROM OLD.status
            THEN INSERT INTO test_transitions VALUES (NEW.id, NEW.status); END IF;
          RETURN NEW;
        END $$;
        CREATE TRIGGER test_transitions AFTER UPDATE OF status ON memories
          FOR EACH ROW EXECUTE FUNCTION test_record_transition();`);
        const workers = [runMain({ ...env, ROLES: 'worker' }), runMain({ ...env, ROLES: 'worker' })];
        try {
          const headers = { 'X-API-Key': key, 'Content-Type': 'application/json' };
          const memories = Array.from({ length: 40 }, (_, i) => ({
            content: `Shared queue note ${i}: Nora Quist met Otto Berg in Bergen.`,
          }));
          const res = await fetch(`${api.url}/v1/memory/batch`, {
            method: 'POST',
            headers,
            body: JSON.stringify({ memories, batch_size: 10, external_user_id: 'q' }),
          });
          assert.equal(res.status, 200);
          const batchId = (await res.json()).batch_id;
          const deadline = Date.now() + 120_000;
          for (;;) {
            const s = await (await fetch(`${api.url}/v1/memory/batch/status/${batchId}`, { headers })).json();
            if (s.processing_status === 'completed') break;
            if (Date.now() > deadline)
              throw new Error(`batch still ${s.processing_status}:\n${workers.map((w) => w.output()).join('\n')}`);
            await sleep(100);
          }
          const { rows } = await db.query(
            `SELECT status, count(*)::int AS n, count(DISTINCT memory_id)::int AS memories
             FROM test_transitions GROUP BY status ORDER BY status`,
          );
          assert.deepEqual(
            rows,
            [
              { status: 'completed', n: 40, memories: 40 },
              { status: 'processing', n: 40, memories: 40 },
            ],
            'each memory processed and completed once',
          );
          const { rows: jobs } = await db.query(
            `SELECT status, attempts, count(*)::int AS n FROM jobs
             WHERE kind = 'memory.process' GROUP BY status, attempts`,
          );
          assert.deepEqual(jobs, [{ status: 'completed', attempts: 1, n: 40 }]);
          for (const w of workers) assert.doesNotMatch(w.output(), /"level":(50|60)/, 'no errors logged');
        } finally {
          for (const w of workers) w.proc.kill('SIGTERM');
          for (const w of workers) await w.exited;
          await api.stop();
        }
      } finally {
        await db.end().catch(() => {});
        await scratch.drop();
      }
    },
  );
});
