import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { startServer, type Server } from './process.ts';
import { MODELS_CACHE } from './harness.ts';
import { sleep } from './wait.ts';
import { openPglite } from '../src/platform/db/pglite.ts';

/**
 * Durability of background processing (docs/jobs.md), shared by test/kill.test.ts (small
 * batch, CI) and bench/kill.ts (500 memories): a server killed with SIGKILL in the middle of
 * a batch loses no accepted memory's processing and completes none twice. Transitions are
 * counted by a trigger installed in the data directory while no server runs (the product
 * knows nothing about it).
 */
export interface KillResult {
  /** HTTP status of the batch request, or 'killed' when the kill cut it off. */
  outcome: number | 'killed';
  size: number;
  accepted: number;
  completedOnce: number;
  completedTwice: number;
  notCompleted: number;
  processingRuns: number;
  jobs: { status: string; n: number }[];
  /** Restart to every accepted memory completed. */
  recoveryMs: number;
}

export async function runKillScenario(opts: {
  size: number;
  groupSize: number;
  killAfterStored?: number;
}): Promise<KillResult> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'engram-kill-'));
  const key = `ek_org_${randomBytes(20).toString('hex')}`;
  const env = {
    DATA_DIR: dir,
    BOOTSTRAP_API_KEY: key,
    MODELS_CACHE_DIR: MODELS_CACHE,
    WORKER_POLL_MS: '50',
    LOG_LEVEL: 'warn',
    RATE_LIMIT_MAX: '0',
  };
  const withStore = async <T>(fn: (db: Awaited<ReturnType<typeof openPglite>>) => Promise<T>): Promise<T> => {
    const db = await openPglite(dir);
    try {
      return await fn(db);
    } finally {
      await db.close();
    }
  };
  const storedStatuses = async (s: Server): Promise<string[]> => {
    const res = await fetch(`${s.url}/v1/memory/search?max_memories=200`, {
      method: 'POST',
      headers: { 'X-API-Key': key, 'Content-Type': 'application/json' },
      body: JSON.stringify({ query: 'killtest note', external_user_id: 'kill-user' }),
    });
    if (!res.ok) throw new Error(`search: ${res.status} ${await res.text()}`);
    return (await res.json()).data.memories.map((m: { status: string }) => m.status);
  };
  try {
    const first = await startServer(env);
    if ((await first.stop()) !== 0) throw new Error('first start did not stop cleanly');
    await withStore((db) =>
      db.exec(`
      CREATE TABLE test_transitions (memory_id text NOT NULL, status text NOT NULL);
      CREATE FUNCTION test_record_transition() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.status IS DISTINCT FROM OLD.status THEN
          INSERT INTO test_transitions (memory_id, status) VALUES (NEW.id, NEW.status);
        END IF;
        RETURN NEW;
      END $$;
      CREATE TRIGGER test_transitions AFTER UPDATE OF status ON memories
        FOR EACH ROW EXECUTE FUNCTION test_record_transition();`),
    );

    const victim = await startServer(env);
    const items = Array.from({ length: opts.size }, (_, i) => ({
      content: `Killtest note number ${i}: the meeting moved to room ${100 + i}.`,
    }));
    const request = fetch(`${victim.url}/v1/memory/batch`, {
      method: 'POST',
      headers: { 'X-API-Key': key, 'Content-Type': 'application/json' },
      body: JSON.stringify({ memories: items, batch_size: opts.groupSize, external_user_id: 'kill-user' }),
    }).then(
      (r) => r.status,
      () => 'killed' as const,
    );
    // Kill once some groups are stored: the rest of the batch is still in flight.
    const deadline = Date.now() + 120_000;
    while ((await storedStatuses(victim).catch(() => [])).length < (opts.killAfterStored ?? 1)) {
      if (Date.now() > deadline) throw new Error(`nothing stored in time:\n${victim.output()}`);
      await sleep(5);
    }
    victim.proc.kill('SIGKILL');
    await victim.stop();
    const outcome = await request;

    // Restart until the store says every accepted memory is completed (search shows at most
    // 200 of them, so it only tells when to look at the store).
    const t0 = performance.now();
    let recoveryMs = 0;
    for (let round = 0; round < 5 && !recoveryMs; round++) {
      const survivor = await startServer(env);
      // The survivor stops whatever happened; an unclean stop is the error reported.
      let failure: { error: unknown } | undefined;
      try {
        const until = Date.now() + 300_000;
        for (;;) {
          const found = await storedStatuses(survivor);
          if (found.length && found.every((s) => s === 'completed')) break;
          if (Date.now() > until) throw new Error(`not all completed: ${JSON.stringify(found)}`);
          await sleep(50);
        }
      } catch (error) {
        failure = { error };
      }
      if ((await survivor.stop()) !== 0) throw new Error(`survivor did not stop cleanly:\n${survivor.output()}`);
      if (failure) throw failure.error;
      const open = await withStore((db) => db.query(`SELECT 1 FROM memories WHERE status <> 'completed' LIMIT 1`));
      if (!open.length) recoveryMs = performance.now() - t0;
    }

    return await withStore(async (db) => {
      const memories = await db.query<{ id: string; status: string }>('SELECT id, status FROM memories');
      const completions = await db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM test_transitions WHERE status = 'completed' GROUP BY memory_id`,
      );
      const runs = await db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM test_transitions WHERE status = 'processing'`,
      );
      const jobs = await db.query<{ status: string; n: number }>(
        `SELECT status, count(*)::int AS n FROM jobs GROUP BY status ORDER BY status`,
      );
      return {
        outcome,
        size: opts.size,
        accepted: memories.length,
        completedOnce: completions.filter((c) => c.n === 1).length,
        completedTwice: completions.filter((c) => c.n > 1).length,
        notCompleted: memories.filter((m) => m.status !== 'completed').length,
        processingRuns: runs[0].n,
        jobs,
        recoveryMs,
      };
    });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
