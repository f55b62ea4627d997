import pg from 'pg';
import { runMain, startServer } from './process.ts';
import { scenarioStore } from './harness.ts';
import { until } from './wait.ts';

/**
 * Recovery from a dead worker on PostgreSQL (issue #17 finding 8; docs/jobs.md): two
 * `ROLES=worker` processes share a batch; one is killed with SIGKILL while it holds jobs. The
 * jobs it held must run again on the other within about one lease (WORKER_LEASE_MS, default
 * 10 s; they used to wait for a 60 s visibility timeout), and every memory is processed and
 * completed exactly once. Transitions are counted by a trigger installed beside the product.
 */
export interface WorkerKillResult {
  size: number;
  /** Jobs the killed worker held (running, under its lease) when it died. */
  victimJobs: number;
  /** From the kill to the first of those claimed again by the surviving worker. */
  firstReclaimMs: number;
  /** From the kill to the last of those completed. */
  victimJobsDoneMs: number;
  completedOnce: number;
  completedTwice: number;
  notCompleted: number;
  /** Memories that entered `processing` more than once (a memory is processed once). */
  processedTwice: number;
  jobs: { status: string; n: number }[];
  /** Error-level log lines of the surviving worker. */
  survivorErrors: string[];
}

const TRIGGER = `
  CREATE TABLE test_transitions (memory_id text NOT NULL, status text NOT NULL);
  CREATE FUNCTION test_record_transition() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    IF NEW.status IS DISTINCT FROM OLD.status THEN INSERT INTO test_transitions VALUES (NEW.id, NEW.status); END IF;
    RETURN NEW;
  END $$;
  CREATE TRIGGER test_transitions AFTER UPDATE OF status ON memories
    FOR EACH ROW EXECUTE FUNCTION test_record_transition();`;

export async function runWorkerKillScenario(opts: { size: number; leaseMs?: number }): Promise<WorkerKillResult> {
  const { key, env, databaseUrl, cleanup } = await scenarioStore(
    'engram-kill-worker-',
    opts.leaseMs ? { WORKER_LEASE_MS: String(opts.leaseMs) } : {},
  );
  const db = new pg.Client({ connectionString: databaseUrl });
  const count = async (sql: string, params: unknown[] = []) =>
    Number((await db.query<{ n: number }>(sql, params)).rows[0].n);
  const api = await startServer({ ...env, ROLES: 'api', LOG_LEVEL: 'warn' });
  const workers = [runMain({ ...env, ROLES: 'worker' }), runMain({ ...env, ROLES: 'worker' })];
  const [victim, survivor] = workers;
  const logs = () => workers.map((w, i) => `--- worker ${i}:\n${w.output().slice(-4000)}`).join('\n');
  try {
    await db.connect();
    await db.query(TRIGGER);
    await until(
      async () => workers.every((w) => /Engram started/.test(w.output())),
      90_000,
      'workers did not start',
      logs,
    );
    const res = await fetch(`${api.url}/v1/memory/batch`, {
      method: 'POST',
      headers: { 'X-API-Key': key, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        memories: Array.from({ length: opts.size }, (_, i) => ({
          content: `Kill note ${i}: Ada Lovelace met Charles Babbage in London about engine ${i}.`,
        })),
        batch_size: 20,
        external_user_id: 'kill-worker',
      }),
    });
    if (res.status !== 200) throw new Error(`batch: ${res.status} ${await res.text()}`);

    // Kill the victim in the middle of the batch, while it holds jobs.
    const mine = `%:${victim.proc.pid}:%`;
    await until(
      async () =>
        (await count(`SELECT count(*)::int AS n FROM jobs WHERE status = 'running' AND locked_by LIKE $1`, [mine])) >
          0 && (await count(`SELECT count(*)::int AS n FROM memories WHERE status = 'completed'`)) >= 10,
      120_000,
      'the victim never held a job mid-batch',
      logs,
    );
    const killedAt = performance.now();
    victim.proc.kill('SIGKILL');
    await victim.exited;
    // Its claims committed whole; anything still running under its name is an orphan now.
    const held = (
      await db.query<{ id: string }>(`SELECT id FROM jobs WHERE status = 'running' AND locked_by LIKE $1`, [mine])
    ).rows.map((r) => r.id);
    let firstReclaimMs = 0;
    await until(
      async () => {
        const rows = (
          await db.query<{ status: string; locked_by: string | null }>(
            'SELECT status, locked_by FROM jobs WHERE id = ANY($1::text[])',
            [held],
          )
        ).rows;
        const taken = rows.filter((r) => r.status !== 'running' || !r.locked_by?.includes(`:${victim.proc.pid}:`));
        if (taken.length && !firstReclaimMs) firstReclaimMs = performance.now() - killedAt;
        return rows.every((r) => r.status === 'completed');
      },
      120_000,
      'the killed worker’s jobs were not completed',
      logs,
    );
    const victimJobsDoneMs = performance.now() - killedAt;
    await until(
      async () => (await count(`SELECT count(*)::int AS n FROM memories WHERE status <> 'completed'`)) === 0,
      120_000,
      'the batch did not complete',
      logs,
    );
    const per = (status: string) =>
      db.query<{ n: number }>('SELECT count(*)::int AS n FROM test_transitions WHERE status = $1 GROUP BY memory_id', [
        status,
      ]);
    const completions = (await per('completed')).rows;
    const processing = (await per('processing')).rows;
    const jobs = (
      await db.query<{ status: string; n: number }>(
        `SELECT status, count(*)::int AS n FROM jobs WHERE kind = 'memory.process' GROUP BY status ORDER BY status`,
      )
    ).rows;
    return {
      size: opts.size,
      victimJobs: held.length,
      firstReclaimMs,
      victimJobsDoneMs,
      completedOnce: completions.filter((c) => c.n === 1).length,
      completedTwice: completions.filter((c) => c.n > 1).length,
      notCompleted: await count(`SELECT count(*)::int AS n FROM memories WHERE status <> 'completed'`),
      processedTwice: processing.filter((c) => c.n > 1).length,
      jobs,
      survivorErrors: survivor
        .output()
        .split('\n')
        .filter((l) => /"level":(50|60)/.test(l)),
    };
  } finally {
    for (const w of workers) if (w.proc.exitCode === null) w.proc.kill('SIGTERM');
    await Promise.all(workers.map((w) => w.exited));
    await api.stop();
    await db.end().catch(() => {});
    await cleanup();
  }
}
