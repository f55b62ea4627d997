import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { runMain, startServer } from './process.ts';
import { MODELS_CACHE, scratchDatabase } from './harness.ts';

/** ROLES on PostgreSQL: an API-only process enqueues, a separate worker process processes. */
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'engram-roles-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

describe('roles on PostgreSQL', () => {
  it('ROLES=api stores and enqueues; a ROLES=worker process completes; SIGTERM stops it cleanly', { timeout: 180_000 }, async () => {
    const scratch = await scratchDatabase();
    const key = `ek_org_${randomBytes(20).toString('hex')}`;
    const env = { DATA_DIR: dir, DATABASE_URL: scratch.url, BOOTSTRAP_API_KEY: key, MODELS_CACHE_DIR: MODELS_CACHE, WORKER_POLL_MS: '60000' };
    try {
      const api = await startServer({ ...env, ROLES: 'api' });
      try {
        const headers = { 'X-API-Key': key, 'Content-Type': 'application/json' };
        const added = await fetch(`${api.url}/v1/memory`, { method: 'POST', headers, body: JSON.stringify({ content: 'Roles test memory.', external_user_id: 'r' }) });
        assert.equal(added.status, 200);
        const id = (await added.json()).data[0].memoryId;
        const status = async () => (await (await fetch(`${api.url}/v1/memory/status/${id}`, { headers })).json()).processing_status;
        await sleep(300);
        assert.equal(await status(), 'quick_saved', 'an API-only process runs no jobs');

        // The worker's poll interval is a minute: picking the job up at start, or by NOTIFY, is what counts.
        const worker = runMain({ ...env, ROLES: 'worker' });
        const deadline = Date.now() + 60_000;
        while ((await status()) !== 'completed') {
          if (Date.now() > deadline || worker.proc.exitCode !== null) throw new Error(`not completed:\n${worker.output()}`);
          await sleep(50);
        }
        const second = await fetch(`${api.url}/v1/memory`, { method: 'POST', headers, body: JSON.stringify({ content: 'Woken by NOTIFY.', external_user_id: 'r' }) });
        const id2 = (await second.json()).data[0].memoryId;
        const until = Date.now() + 10_000;
        while ((await (await fetch(`${api.url}/v1/memory/status/${id2}`, { headers })).json()).processing_status !== 'completed') {
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
  });
});
