import { describe, it, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { testStores } from '../../../test/harness.ts';
import { sleep, waitFor } from '../../../test/wait.ts';
import { createLogger } from '../log.ts';
import type { Db, Queryable } from '../db/index.ts';
import { loadConfig } from '../../config.ts';
import { createWorker, enqueue, type JobHandler, type JobRow, type Worker, type WorkerOptions } from './index.ts';

const log = createLogger('silent');

for (const store of testStores) {
  describe(`jobs [${store.name}]`, () => {
    let db: Db;
    const workers: Worker[] = [];
    const worker = (handlers: Record<string, JobHandler>, opts: Partial<WorkerOptions> = {}) => {
      const w = createWorker({ db, log, handlers, pollMs: 50, backoffMs: () => 50, shutdownGraceMs: 2000, ...opts });
      workers.push(w);
      return w;
    };
    const job = async (id: string) => (await db.query<JobRow>('SELECT * FROM jobs WHERE id = $1', [id]))[0];
    const add = (kind: string, payload: Record<string, unknown> = {}, maxAttempts?: number) =>
      db.transaction((tx) => enqueue(tx, { kind, payload, maxAttempts }));

    before(async () => {
      db = await store.open();
      await db.exec(
        'CREATE TABLE job_runs (job_id text NOT NULL, worker text NOT NULL, at timestamptz NOT NULL DEFAULT now())',
      );
    });
    beforeEach(async () => {
      while (workers.length) await workers.pop()!.stop();
      await db.exec('DELETE FROM jobs; DELETE FROM job_runs');
    });
    after(async () => {
      while (workers.length) await workers.pop()!.stop();
      await db.close();
    });

    it('a job enqueued in a rolled-back transaction does not exist', async () => {
      await assert.rejects(
        db.transaction(async (tx) => {
          await enqueue(tx, { kind: 't.noop' });
          throw new Error('abort');
        }),
        /abort/,
      );
      assert.equal((await db.query('SELECT count(*)::int AS n FROM jobs'))[0].n, 0);
    });

    it(
      'a handler completes its job inside its own transaction: ' + 'committed with the work, undone with a rollback',
      async () => {
        let tries = 0;
        const w = worker({
          't.tx': {
            run: async (j, ctx) =>
              db.transaction(async (tx) => {
                tries++;
                await tx.query('INSERT INTO job_runs (job_id, worker) VALUES ($1, $2)', [j.id, 'w']);
                await ctx.complete(tx);
                if (tries === 1) throw new Error('rolled back after completing');
              }),
          },
        });
        const { id } = await add('t.tx', {}, 3);
        await w.start();
        const done = await waitFor(async () => {
          const j = await job(id);
          return j.status === 'completed' && j;
        });
        assert.equal(tries, 2, 'the rolled-back completion left the job to be retried');
        assert.equal(done.attempts, 2);
        assert.match(done.last_error ?? '', /rolled back after completing/);
        assert.equal(
          (await db.query('SELECT count(*)::int AS n FROM job_runs WHERE job_id = $1', [id]))[0].n,
          1,
          'only the committed run left its work',
        );
      },
    );

    it('claims, runs and completes jobs with their payload', async () => {
      const seen: unknown[] = [];
      const w = worker({ 't.echo': { run: async (j) => void seen.push(j.payload.n) } });
      const ids: string[] = [];
      for (const n of [1, 2, 3]) ids.push((await add('t.echo', { n })).id);
      await w.start();
      await waitFor(async () => (await Promise.all(ids.map(job))).every((j) => j.status === 'completed'));
      assert.deepEqual(seen.sort(), [1, 2, 3]);
      const j = await job(ids[0]);
      assert.equal(j.attempts, 1);
      assert.equal(j.locked_by, null);
    });

    it('NOTIFY wakes an idle worker long before its next poll', async () => {
      let ran = 0;
      const w = worker({ 't.wake': { run: async () => void ran++ } }, { pollMs: 60_000 });
      await w.start();
      await sleep(100); // the start-up claim has found nothing
      const t0 = Date.now();
      const { id } = await add('t.wake');
      await waitFor(async () => (await job(id)).status === 'completed', { timeoutMs: 5000 });
      assert.equal(ran, 1);
      assert.ok(Date.now() - t0 < 5000);
    });

    it(
      'PostgreSQL: the LISTEN connection is re-established after it is lost',
      { skip: store.name !== 'postgres' },
      async () => {
        let ran = 0;
        const w = worker({ 't.relisten': { run: async () => void ran++ } }, { pollMs: 60_000 });
        await w.start();
        const killed = await db.query(`SELECT pg_terminate_backend(pid) AS ok FROM pg_stat_activity
        WHERE datname = current_database() AND query LIKE 'LISTEN%' AND pid <> pg_backend_pid()`);
        assert.equal(killed.length, 1);
        await waitFor(
          async () =>
            (
              await db.query(
                `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN%'`,
              )
            ).length === 1,
          { timeoutMs: 5000 },
        );
        const { id } = await add('t.relisten');
        await waitFor(async () => (await job(id)).status === 'completed', { timeoutMs: 5000 });
        assert.equal(ran, 1);
      },
    );

    it('retries a failing job with backoff and completes it when it succeeds', async () => {
      const runs: number[] = [];
      const w = worker(
        {
          't.flaky': {
            run: async () => {
              runs.push(Date.now());
              if (runs.length < 3) throw new Error(`flake ${runs.length}`);
            },
          },
        },
        { backoffMs: (attempt) => 100 * attempt },
      );
      const { id } = await add('t.flaky');
      await w.start();
      await waitFor(async () => (await job(id)).status === 'completed');
      const j = await job(id);
      assert.equal(j.attempts, 3);
      assert.equal(runs.length, 3);
      assert.ok(runs[1] - runs[0] >= 90, `first retry after ${runs[1] - runs[0]} ms`);
      assert.ok(runs[2] - runs[1] >= 190, `second retry after ${runs[2] - runs[1]} ms`);
    });

    it('a job that keeps failing is dead after max_attempts, with last_error, and onDead runs once', async () => {
      const dead: string[] = [];
      let runs = 0;
      const w = worker({
        't.boom': {
          run: async () => {
            runs++;
            throw new Error('boom');
          },
          onDead: async (j, error) => void dead.push(`${j.id}:${error.split('\n')[0]}`),
        },
      });
      const { id } = await add('t.boom', {}, 3);
      await w.start();
      await waitFor(async () => (await job(id)).status === 'dead');
      await sleep(200);
      const j = await job(id);
      assert.equal(j.attempts, 3);
      assert.equal(runs, 3);
      assert.match(j.last_error!, /boom/);
      assert.deepEqual(dead, [`${id}:Error: boom`]);
    });

    it('a job whose worker died (lock expired) is claimed again; on its last attempt it is dead', async () => {
      const dead: string[] = [];
      const handler: JobHandler = { run: async () => {}, onDead: async (j) => void dead.push(j.id) };
      const a = await add('t.orphan');
      const b = await add('t.orphan', {}, 1);
      await db.query(
        `UPDATE jobs SET status = 'running', attempts = 1,
           locked_by = 'ghost', locked_until = now() - interval '1 second'`,
      );
      const c = await add('t.orphan'); // held by a live worker: not taken
      await db.query(
        `UPDATE jobs SET status = 'running', attempts = 1, locked_by = 'alive', locked_until = now() + interval '1 hour'
         WHERE id = $1`,
        [c.id],
      );
      await worker({ 't.orphan': handler }).start();
      await waitFor(async () => (await job(a.id)).status === 'completed');
      await sleep(150);
      assert.equal((await job(c.id)).status, 'running');
      assert.equal((await job(a.id)).attempts, 2);
      await waitFor(async () => (await job(b.id)).status === 'dead');
      assert.match((await job(b.id)).last_error!, /lock expired/);
      assert.deepEqual(dead, [b.id]);
    });

    it('an exclusive worker (embedded store) takes over every running job at start', async () => {
      const { id } = await add('t.mine');
      await db.query(
        `UPDATE jobs SET status = 'running', attempts = 1,
           locked_by = 'previous-process', locked_until = now() + interval '1 hour'`,
      );
      await worker({ 't.mine': { run: async () => {} } }, { exclusive: true }).start();
      await waitFor(async () => (await job(id)).status === 'completed');
      assert.equal((await job(id)).attempts, 2);
    });

    it('a long job keeps its lock (heartbeat), so a second worker does not take it', async () => {
      const runs: string[] = [];
      const handlers = (name: string): Record<string, JobHandler> => ({
        't.long': {
          run: async () => {
            runs.push(name);
            await sleep(1500);
          },
        },
      });
      const { id } = await add('t.long');
      const w1 = worker(handlers('w1'), { leaseMs: 300 });
      await w1.start();
      await waitFor(async () => runs.length === 1);
      await worker(handlers('w2'), { leaseMs: 300 }).start();
      await waitFor(async () => (await job(id)).status === 'completed');
      assert.deepEqual(runs, ['w1']);
    });

    // Issue #17 finding 8: a dead worker's jobs come back after a short lease, not a long timeout.
    it('a job held by a dead worker runs again about one lease later, found by the sweep between polls', async () => {
      const started: number[] = [];
      const { id } = await add('t.dead');
      // As a worker that claimed it and died at once leaves it: running, its lease just begun.
      await db.query(
        `UPDATE jobs SET status = 'running', attempts = 1, locked_by = 'dead-worker',
           locked_until = now() + interval '600 milliseconds' WHERE id = $1`,
        [id],
      );
      const t0 = Date.now();
      // A poll every minute: only the expiry sweep (a tenth of the lease) can find the job.
      await worker(
        { 't.dead': { run: async () => void started.push(Date.now()) } },
        { leaseMs: 600, pollMs: 60_000 },
      ).start();
      await waitFor(async () => (await job(id)).status === 'completed', { timeoutMs: 5000 });
      const after = started[0] - t0;
      assert.ok(after >= 550 && after < 1500, `ran again ${after} ms after the claim (lease 600 ms)`);
      assert.equal((await job(id)).attempts, 2);
    });

    it(
      'a worker whose renewals fail loses the lease: the new holder runs the job, ' +
        'and the old run is refused at completion (its work rolled back)',
      async () => {
        // Worker 1's store fails every lease renewal for a while (a store hiccup).
        let hiccup = false;
        const flaky: Db = {
          ...db,
          query: <T extends object>(sql: string, params?: unknown[]) =>
            hiccup && /UPDATE jobs SET locked_until/.test(sql)
              ? Promise.reject(new Error('store hiccup'))
              : db.query<T>(sql, params),
        };
        let gate!: () => void;
        const opened = new Promise<void>((r) => (gate = r));
        const runs: string[] = [];
        let signal: AbortSignal | undefined;
        const record = (name: string, wait?: Promise<void>): JobHandler => ({
          run: async (j, ctx) => {
            runs.push(name);
            signal = name === 'w1' ? ctx.signal : signal;
            await wait;
            await ctx.db.transaction(async (tx: Queryable) => {
              await tx.query('INSERT INTO job_runs (job_id, worker) VALUES ($1, $2)', [j.id, name]);
              await ctx.complete(tx);
            });
          },
        });
        const { id } = await add('t.lease');
        const w1 = createWorker({
          db: flaky,
          log,
          handlers: { 't.lease': record('w1', opened) },
          pollMs: 50,
          leaseMs: 300,
          shutdownGraceMs: 2000,
        });
        workers.push(w1);
        await w1.start();
        await waitFor(() => runs.length === 1);
        hiccup = true;
        // Its lease expires; worker 2 claims the job and completes it.
        await worker({ 't.lease': record('w2') }, { leaseMs: 300 }).start();
        await waitFor(async () => (await job(id)).status === 'completed', { timeoutMs: 5000 });
        assert.deepEqual(runs, ['w1', 'w2'], 'worker 1 never claimed its own expired job again');
        hiccup = false;
        // Its next renewal says the job is no longer its own.
        await waitFor(() => signal?.aborted, { timeoutMs: 5000 });
        gate();
        await w1.idle();
        const rows = await db.query<{ worker: string }>('SELECT worker FROM job_runs WHERE job_id = $1', [id]);
        assert.deepEqual(
          rows.map((r) => r.worker),
          ['w2'],
          'only the lease holder’s work committed',
        );
        const j = await job(id);
        assert.equal(j.status, 'completed');
        assert.equal(j.attempts, 2);
        assert.equal(j.last_error, null, 'the refused run recorded no failure');
      },
    );

    it('the lease is WORKER_LEASE_MS (default 10 s); the former WORKER_VISIBILITY_MS still works', () => {
      assert.equal(loadConfig({}).WORKER_LEASE_MS, 10_000);
      assert.equal(loadConfig({ WORKER_LEASE_MS: '4000' }).WORKER_LEASE_MS, 4000);
      assert.equal(loadConfig({ WORKER_VISIBILITY_MS: '60000' }).WORKER_LEASE_MS, 60_000);
      assert.equal(loadConfig({ WORKER_LEASE_MS: '5000', WORKER_VISIBILITY_MS: '60000' }).WORKER_LEASE_MS, 5000);
      assert.throws(() => loadConfig({ WORKER_LEASE_MS: '10' }), /WORKER_LEASE_MS/);
    });

    it('two workers share a queue without running any job twice', async () => {
      const record = (w: string): Record<string, JobHandler> => ({
        't.count': {
          run: async (j, ctx) => {
            await ctx.db.query('INSERT INTO job_runs (job_id, worker) VALUES ($1, $2)', [j.id, w]);
            await sleep(10);
          },
        },
      });
      const w1 = worker(record('w1'), { concurrency: 3 });
      const w2 = worker(record('w2'), { concurrency: 3 });
      await Promise.all([w1.start(), w2.start()]);
      const ids: string[] = [];
      for (let i = 0; i < 40; i++) ids.push((await add('t.count', { i })).id);
      await waitFor(
        async () => (await db.query(`SELECT count(*)::int AS n FROM jobs WHERE status = 'completed'`))[0].n === 40,
        { timeoutMs: 20_000 },
      );
      const runs = await db.query<{ job_id: string; n: number }>(
        'SELECT job_id, count(*)::int AS n FROM job_runs GROUP BY job_id',
      );
      assert.equal(runs.length, 40);
      assert.ok(
        runs.every((r) => r.n === 1),
        'a job ran twice',
      );
      const byWorker = await db.query('SELECT worker, count(*)::int AS n FROM job_runs GROUP BY worker');
      assert.equal(byWorker.length, 2, `both workers claimed jobs: ${JSON.stringify(byWorker)}`);
    });

    it('stop() waits for jobs in hand within the grace period', async () => {
      const w = worker({ 't.short': { run: () => sleep(200) } });
      const { id } = await add('t.short');
      await w.start();
      await waitFor(async () => (await job(id)).status === 'running');
      await w.stop();
      assert.equal((await job(id)).status, 'completed');
    });

    it('stop() hands back a job still running after the grace period, without counting the attempt', async () => {
      const w = worker({ 't.stuck': { run: () => sleep(1500) } }, { shutdownGraceMs: 50 });
      const { id } = await add('t.stuck');
      await w.start();
      await waitFor(async () => (await job(id)).status === 'running');
      await w.stop();
      const j = await job(id);
      assert.equal(j.status, 'queued');
      assert.equal(j.attempts, 0);
      assert.equal(j.locked_by, null);
      await sleep(1600); // the abandoned run ends; it must not mark the job
      assert.equal((await job(id)).status, 'queued');
    });
  });
}
