import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import type { Db, Queryable } from '../db/index.ts';
import type { Logger } from '../log.ts';
import { JOBS_CHANNEL } from './queue.ts';
import {
  buryExpired,
  claimJobs,
  completeJob,
  expireAllLocks,
  extendLocks,
  failJob,
  releaseJobs,
  type JobRow,
} from './jobs.store.ts';

export interface JobContext {
  db: Db;
  log: Logger;
  /** This is the last allowed attempt: failing now makes the job `dead`. */
  lastAttempt: boolean;
  /**
   * Mark the job completed inside the handler's own closing transaction, so the job's end
   * commits with its work (and costs no statement of its own); the worker then does not
   * complete it again. If that transaction fails, the handler must throw (the job is retried).
   */
  complete(tx: Queryable): Promise<void>;
}

/**
 * Writes a piece of work computed outside any transaction hands back to run inside the one
 * that completes its job: `write` in that transaction, `after` once it committed (best effort).
 */
export interface StepWrites {
  write(tx: Queryable): Promise<unknown>;
  after?(): Promise<unknown>;
}

/**
 * What runs a job kind. Handlers MUST be idempotent: a job can run more than once (its
 * worker died after the work but before marking it done, or a stop released it while the
 * handler was still running). Check state before acting and make writes conditional.
 */
export interface JobHandler {
  run(job: JobRow, ctx: JobContext): Promise<void>;
  /** Called once when the job is given up (`dead`), e.g. to mark the subject failed. */
  onDead?(job: JobRow, error: string, ctx: Omit<JobContext, 'lastAttempt' | 'complete'>): Promise<void>;
}

export interface WorkerOptions {
  db: Db;
  handlers: Record<string, JobHandler>;
  log: Logger;
  /** Jobs run at once by this worker. */
  concurrency?: number;
  /** Poll interval: the fallback when a NOTIFY is missed, and how run_at/backoff come due. */
  pollMs?: number;
  /** How long a claim holds without a heartbeat before another worker may take the job. */
  visibilityMs?: number;
  /** Delay before retry number `attempt` (1-based count of attempts made). */
  backoffMs?: (attempt: number) => number;
  /** stop() waits this long for jobs in hand, then releases them. */
  shutdownGraceMs?: number;
  /**
   * This is the only worker on the store (PGlite: the data-directory lock guarantees it), so
   * at start every `running` job was left by a dead process and is due at once instead of
   * after its lock expires.
   */
  exclusive?: boolean;
}

export interface Worker {
  readonly id: string;
  start(): Promise<void>;
  /** Stop claiming; wait for jobs in hand up to the grace period, then hand the rest back. */
  stop(): Promise<void>;
  /** Claim and run due jobs now (tests and wake-ups). */
  poke(): void;
  /** Resolves when nothing is in hand (tests). */
  idle(): Promise<void>;
}

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

const errorText = (err: unknown) => (err instanceof Error ? (err.stack ?? err.message) : String(err)).slice(0, 4000);

/**
 * A worker over the `jobs` table. Wake-ups come from LISTEN/NOTIFY with a poll fallback;
 * claims use FOR UPDATE SKIP LOCKED, so any number of workers (processes) share a queue.
 */
export function createWorker(opts: WorkerOptions): Worker {
  const { db, handlers, log } = opts;
  const concurrency = opts.concurrency ?? 4;
  const pollMs = opts.pollMs ?? 1000;
  const visibilityMs = opts.visibilityMs ?? 300_000;
  const backoff = opts.backoffMs ?? defaultBackoff;
  const grace = opts.shutdownGraceMs ?? 10_000;
  const kinds = Object.keys(handlers);
  const id = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;

  const inHand = new Map<string, Promise<void>>();
  let running = false;
  let claiming = false;
  let again = false;
  let pollTimer: NodeJS.Timeout | null = null;
  let beatTimer: NodeJS.Timeout | null = null;
  let unlisten: (() => Promise<void>) | null = null;
  let idleWaiters: (() => void)[] = [];
  let lastBury = 0;

  async function runOne(job: JobRow): Promise<void> {
    const handler = handlers[job.kind];
    const ctx = { db, log: log.child({ job_id: job.id, kind: job.kind, attempt: job.attempts }) };
    const lockLost = () => ctx.log.warn('job finished after its lock was lost; its new holder decides');
    let completed = false;
    const complete = async (tx: Queryable) => {
      completed = true;
      if (!(await completeJob(tx, job.id, id))) lockLost();
    };
    try {
      await handler.run(job, { ...ctx, lastAttempt: job.attempts >= job.max_attempts, complete });
      // A transaction that completed the job and then rolled back made the handler throw.
      if (!completed && !(await completeJob(db, job.id, id))) lockLost();
    } catch (err) {
      const message = errorText(err);
      const row = await failJob(db, job.id, id, message, backoff(job.attempts), isPermanent(err)).catch((e) => {
        ctx.log.error({ err: e }, 'could not record a job failure');
        return undefined;
      });
      if (row?.status === 'dead') {
        ctx.log.error({ err }, 'job is dead: no attempts left');
        await handler.onDead?.(row, message, ctx).catch((e) => ctx.log.error({ err: e }, 'onDead failed'));
      } else if (row) ctx.log.warn({ err, retry_at: row.run_at }, 'job failed; will retry');
    }
  }

  async function claim(): Promise<void> {
    if (!running || !kinds.length) return;
    if (claiming) {
      again = true;
      return;
    }
    claiming = true;
    try {
      do {
        again = false;
        // Locks expire after visibilityMs, so looking for expired ones once per poll interval
        // is soon enough; a claim for every finished job (hundreds a second) need not look.
        if (Date.now() - lastBury >= pollMs) {
          lastBury = Date.now();
          for (const job of await buryExpired(db, kinds)) {
            log.error({ job_id: job.id, kind: job.kind }, 'job is dead: its worker stopped during the last attempt');
            await handlers[job.kind]
              .onDead?.(job, job.last_error ?? 'lock expired', { db, log })
              .catch((e) => log.error({ err: e }, 'onDead failed'));
          }
        }
        const free = concurrency - inHand.size;
        if (free <= 0 || !running) break;
        const jobs = await claimJobs(db, id, kinds, free, visibilityMs);
        for (const job of jobs) {
          const p = runOne(job).finally(() => {
            inHand.delete(job.id);
            settleIdle();
            poke();
          });
          inHand.set(job.id, p);
        }
        if (jobs.length === free) again = true; // there may be more
      } while (again && running && inHand.size < concurrency);
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
      beatTimer = setInterval(
        () => {
          extendLocks(db, [...inHand.keys()], id, visibilityMs).catch((err) =>
            log.warn({ err }, 'extending job locks failed'),
          );
        },
        Math.max(Math.floor(visibilityMs / 3), 50),
      );
      log.info({ worker: id, kinds, concurrency }, 'worker started');
      poke();
    },

    async stop() {
      if (!running) return;
      running = false;
      if (pollTimer) clearInterval(pollTimer);
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
      if (beatTimer) clearInterval(beatTimer);
      log.info({ worker: id }, 'worker stopped');
    },

    poke,

    idle() {
      return inHand.size === 0 && !claiming ? Promise.resolve() : new Promise<void>((r) => idleWaiters.push(r));
    },
  };
}
