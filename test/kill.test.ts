import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { startServer, type Server } from './process.ts';
import { MODELS_CACHE } from './harness.ts';
import { openPglite } from '../src/platform/db/pglite.ts';

/**
 * Durability of background processing (docs/jobs.md): a server killed with SIGKILL in the
 * middle of a batch loses no accepted memory's processing and completes none twice.
 * The test counts transitions with a trigger it installs in the data directory while no
 * server runs (the product knows nothing about it).
 */
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'engram-kill-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));
const key = `ek_org_${randomBytes(20).toString('hex')}`;
const env = { DATA_DIR: dir, BOOTSTRAP_API_KEY: key, MODELS_CACHE_DIR: MODELS_CACHE, WORKER_POLL_MS: '50', LOG_LEVEL: 'warn' };
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

async function search(s: Server): Promise<{ id: string; status: string }[]> {
  const res = await fetch(`${s.url}/v1/memory/search?max_memories=200`, {
    method: 'POST',
    headers: { 'X-API-Key': key, 'Content-Type': 'application/json' },
    body: JSON.stringify({ query: 'killtest note', external_user_id: 'kill-user' }),
  });
  if (!res.ok) throw new Error(`search: ${res.status} ${await res.text()}`);
  return (await res.json()).data.memories;
}

async function withStore<T>(fn: (db: Awaited<ReturnType<typeof openPglite>>) => Promise<T>): Promise<T> {
  const db = await openPglite(dir);
  try {
    return await fn(db);
  } finally {
    await db.close();
  }
}

describe('kill -9 during a batch (PGlite data directory)', () => {
  it('after a restart every accepted memory is completed exactly once', { timeout: 240_000 }, async (t) => {
    const first = await startServer(env);
    assert.equal(await first.stop(), 0);
    await withStore((db) => db.exec(`
      CREATE TABLE test_transitions (memory_id text NOT NULL, status text NOT NULL);
      CREATE FUNCTION test_record_transition() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.status IS DISTINCT FROM OLD.status THEN
          INSERT INTO test_transitions (memory_id, status) VALUES (NEW.id, NEW.status);
        END IF;
        RETURN NEW;
      END $$;
      CREATE TRIGGER test_transitions AFTER UPDATE OF status ON memories
        FOR EACH ROW EXECUTE FUNCTION test_record_transition();`));

    const victim = await startServer(env);
    const items = Array.from({ length: 50 }, (_, i) => ({ content: `Killtest note number ${i}: the meeting moved to room ${100 + i}.` }));
    const request = fetch(`${victim.url}/v1/memory/batch`, {
      method: 'POST',
      headers: { 'X-API-Key': key, 'Content-Type': 'application/json' },
      body: JSON.stringify({ memories: items, batch_size: 5, external_user_id: 'kill-user' }),
    }).then((r) => r.status, () => 'killed' as const);
    // Kill as soon as the first group is stored: the rest of the batch is still in flight.
    const deadline = Date.now() + 60_000;
    while ((await search(victim).catch(() => [])).length === 0) {
      if (Date.now() > deadline) throw new Error(`nothing stored in time:\n${victim.output()}`);
      await sleep(5);
    }
    victim.proc.kill('SIGKILL');
    await victim.stop();
    const outcome = await request;

    const survivor = await startServer(env);
    try {
      const until = Date.now() + 60_000;
      for (;;) {
        const found = await search(survivor);
        if (found.length && found.every((m) => m.status === 'completed')) break;
        if (Date.now() > until) throw new Error(`not all completed: ${JSON.stringify(found.map((m) => m.status))}`);
        await sleep(100);
      }
    } finally {
      assert.equal(await survivor.stop(), 0);
    }

    await withStore(async (db) => {
      const memories = await db.query<{ id: string; status: string }>('SELECT id, status FROM memories');
      assert.ok(memories.length > 0 && memories.length <= 50, `${memories.length} accepted`);
      if (outcome === 'killed') assert.ok(memories.length % 5 === 0, 'whole groups are stored or none of a group');
      assert.ok(memories.every((m) => m.status === 'completed'), JSON.stringify(memories.filter((m) => m.status !== 'completed')));
      const completions = await db.query<{ memory_id: string; n: number }>(
        `SELECT memory_id, count(*)::int AS n FROM test_transitions WHERE status = 'completed' GROUP BY memory_id`);
      assert.equal(completions.length, memories.length, 'every memory went through processing → completed');
      assert.ok(completions.every((c) => c.n === 1), `completed more than once: ${JSON.stringify(completions.filter((c) => c.n > 1))}`);
      const runs = await db.query(`SELECT count(*)::int AS n FROM test_transitions WHERE status = 'processing'`);
      t.diagnostic(`request: ${outcome}; accepted ${memories.length} of 50; processing runs ${runs[0].n}`);
      const jobs = await db.query(`SELECT status, count(*)::int AS n FROM jobs GROUP BY status`);
      assert.deepEqual(jobs, [{ status: 'completed', n: memories.length }]);
    });
  });
});
