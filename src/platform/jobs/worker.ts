import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import type { Queryable } from '../db/index.ts';
import { JOBS_CHANNEL } from './queue.ts';
import {
  buryExpired,
  claimJobs,
  completeJob,
  expireAllLocks,
  failJob,
  releaseJobs,
  type JobRow,
} from './jobs.store.ts';
import { createLeaseKeeper, LeaseLostError } from './lease.ts';
import type { Worker, WorkerOptions } from './worker.types.ts';

/** base, 2×base, 4×base … (base 1 s) capped at 10 minutes, with ±20 % jitter so retries do not stampede. */
export function defaultBackoff(attempt: number, baseMs = 1000): number {
  const delay = Math.min(baseMs * 2 ** Math.max(attempt - 1, 0), 600_000);
  return Math.round(delay * (0.8 + Math.random() * 0.4));
}

/**
 * A failure that another attempt cannot fix (invalid input, a constraint that cannot be met)
 * is thrown with `permanent: true`: the job is dead at once instead of retrying.
 */
const isPermanent = (err: unknown) =>
  !!err && typeof err === 'object' && (err as { permanent?: unknown }).permanent === true;

/** What a claim looks for: every due job, or only jobs whose lease expired (the sweep). */
type ClaimMode = 'all' | 'expired';

const errorText = (err: unknown) => (err instanceof Error ? (err.stack ?? err.message) : String(err)).slice(0, 4000);

/**
 * A worker over the `jobs` table. Wake-ups come from LISTEN/NOTIFY with a poll fallback;
 * claims use FOR UPDATE SKIP LOCKED, so any number of workers (processes) share a queue.
 */
export function createWorker(opts: WorkerOptions): Worker {
  const { db, handlers, log } = opts;
  const concurrency = opts.concurrency ?? 4;
  const pollMs = opts.pollMs ?? 1000;
  const leaseMs = opts.leaseMs ?? opts.visibilityMs ?? 10_000;
  // Expired leases are looked for every tenth of a lease (at most every poll), so a dead
  // worker's jobs run again about one lease after its last renewal, whatever the poll interval.
  const sweepMs = Math.min(pollMs, Math.max(Math.floor(leaseMs / 10), 20));
  const backoff = opts.backoffMs ?? defaultBackoff;
  const grace = opts.shutdownGraceMs ?? 10_000;
  const kinds = Object.keys(handlers);
  const id = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;

  const inHand = new Map<string, Promise<void>>();
  const leases = createLeaseKeeper({
    db,
    workerId: id,
    leaseMs,
    heartbeatMs: opts.heartbeatMs ?? Math.max(Math.floor(leaseMs / 3), 20),
    log,
  });
  let running = false;
  let claiming = false;
  /** A claim asked for while one ran: of every due job, or of expired ones only. */
  let pending: ClaimMode | null = null;
  /** Ask for another claim; asking for every due job covers asking for expired ones. */
  const ask = (mode: ClaimMode) => void (pending = pending === 'all' ? 'all' : mode);
  const takePending = () => {
    const p = pending;
    pending = null;
    return p;
  };
  let pollTimer: NodeJS.Timeout | null = null;
  let sweepTimer: NodeJS.Timeout | null = null;
  let unlisten: (() => Promise<void>) | null = null;
  let idleWaiters: (() => void)[] = [];
  let lastBury = 0;

  async function runOne(job: JobRow): Promise<void> {
    const handler = handlers[job.kind];
    const ctx = { db, log: log.child({ job_id: job.id, kind: job.kind, attempt: job.attempts }) };
    const lease = leases.hold(job.id);
    let completed = false;
    const complete = async (tx: Queryable) => {
      completed = true;
      lease.finishing();
      if (lease.lost || !(await completeJob(tx, job.id, id))) throw new LeaseLostError(job.id);
    };
    try {
      await handler.run(job, {
        ...ctx,
        lastAttempt: job.attempts >= job.max_attempts,
        signal: lease.signal,
        complete,
      });
      // A transaction that completed the job and then rolled back made the handler throw.
      lease.finishing();
      if (!completed && (lease.lost || !(await completeJob(db, job.id, id))))
        ctx.log.warn('job finished after its lease was lost; its new holder decides');
    } catch (err) {
      // Not ours any more: its new holder runs it (or it was handed back); nothing to record.
      if (lease.lost || err instanceof LeaseLostError) {
        ctx.log.warn({ err }, 'job ended after its lease was lost; its new holder runs it');
        return;
      }
      const message = errorText(err);
      const row = await failJob(db, job.id, id, message, backoff(job.attempts), isPermanent(err)).catch((e) => {
        ctx.log.error({ err: e }, 'could not record a job failure');
        return undefined;
      });
      if (row?.status === 'dead') {
        ctx.log.error({ err }, 'job is dead: no attempts left');
        await handler.onDead?.(row, message, ctx).catch((e) => ctx.log.error({ err: e }, 'onDead failed'));
      } else if (row) ctx.log.warn({ err, retry_at: row.run_at }, 'job failed; will retry');
    } finally {
      leases.drop(job.id);
    }
  }

  /** Claim due jobs (`mode` 'expired': only jobs whose lease expired, for the sweep). */
  async function claim(mode: ClaimMode = 'all'): Promise<void> {
    if (!running || !kinds.length) return;
    if (claiming) return ask(mode);
    claiming = true;
    try {
      for (let current: ClaimMode | null = mode; current; current = takePending()) {
        // Looking for expired leases once per sweep interval is soon enough; a claim for every
        // finished job (hundreds a second) need not look.
        if (Date.now() - lastBury >= sweepMs) {
          lastBury = Date.now();
          for (const job of await buryExpired(db, id, kinds)) {
            log.error({ job_id: job.id, kind: job.kind }, 'job is dead: its worker stopped during the last attempt');
            await handlers[job.kind]
              .onDead?.(job, job.last_error ?? 'lock expired', { db, log })
              .catch((e) => log.error({ err: e }, 'onDead failed'));
          }
        }
        const free = concurrency - inHand.size;
        if (free <= 0 || !running) break;
        const jobs = await claimJobs(db, id, kinds, free, leaseMs, current === 'expired');
        for (const job of jobs) {
          const p = runOne(job).finally(() => {
            inHand.delete(job.id);
            settleIdle();
            poke();
          });
          inHand.set(job.id, p);
        }
        if (jobs.length === free) ask(current); // there may be more
        if (!running || inHand.size >= concurrency) break;
      }
    } catch (err) {
      if (running) log.error({ err }, 'claiming jobs failed; retrying at the next poll');
    } finally {
      claiming = false;
      settleIdle();
    }
  }

  function settleIdle(): void {
    if (inHand.size > 0 || claiming) return;
    for (const w of idleWaiters) w();
    idleWaiters = [];
  }

  function poke(): void {
    void claim();
  }

  return {
    id,
    async start() {
      if (running) return;
      running = true;
      if (opts.exclusive) {
        const n = await expireAllLocks(db);
        if (n) log.warn({ jobs: n }, 'resuming jobs left running by a previous process');
      }
      unlisten = await db
        .listen(JOBS_CHANNEL, () => poke())
        .catch((err) => {
          log.warn({ err }, 'LISTEN failed; the worker polls only');
          return null;
        });
      pollTimer = setInterval(poke, pollMs);
      if (sweepMs < pollMs) sweepTimer = setInterval(() => void claim('expired'), sweepMs);
      leases.start();
      log.info({ worker: id, kinds, concurrency, lease_ms: leaseMs }, 'worker started');
      poke();
    },

    async stop() {
      if (!running) return;
      running = false;
      if (pollTimer) clearInterval(pollTimer);
      if (sweepTimer) clearInterval(sweepTimer);
      await unlisten?.().catch(() => {});
      unlisten = null;
      while (claiming) await new Promise((r) => setTimeout(r, 5));
      let timer: NodeJS.Timeout | undefined;
      const timedOut = await Promise.race([
        Promise.allSettled([...inHand.values()]).then(() => false),
        new Promise<boolean>((r) => (timer = setTimeout(() => r(true), grace))),
      ]);
      clearTimeout(timer);
      if (timedOut) {
        const ids = [...inHand.keys()];
        log.warn({ jobs: ids }, 'stop: handing back jobs still running');
        await releaseJobs(db, ids, id).catch((err) => log.error({ err }, 'releasing jobs failed'));
      }
      leases.stop();
      log.info({ worker: id }, 'worker stopped');
    },

    poke,

    idle() {
      return inHand.size === 0 && !claiming ? Promise.resolve() : new Promise<void>((r) => idleWaiters.push(r));
    },
  };
}
