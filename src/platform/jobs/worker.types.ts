import type { Db, Queryable } from '../db/index.ts';
import type { Logger } from '../log.ts';
import type { JobRow } from './jobs.store.ts';

/** What a job handler is given besides its job. */
export interface JobContext {
  db: Db;
  log: Logger;
  /** This is the last allowed attempt: failing now makes the job `dead`. */
  lastAttempt: boolean;
  /**
   * Aborted when this worker lost the job's lease (another worker may be running it now): a
   * long handler may stop early; its completion would be refused anyway.
   */
  signal?: AbortSignal;
  /**
   * Mark the job completed inside the handler's own closing transaction, so the job's end
   * commits with its work (and costs no statement of its own); the worker then does not
   * complete it again. If that transaction fails, the handler must throw (the job is retried).
   * Throws LeaseLostError when the job is no longer this worker's: the transaction then rolls
   * back, and only the job's new holder's work lands.
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
  onDead?(job: JobRow, error: string, ctx: Omit<JobContext, 'lastAttempt' | 'complete' | 'signal'>): Promise<void>;
}

export interface WorkerOptions {
  db: Db;
  handlers: Record<string, JobHandler>;
  log: Logger;
  /** Jobs run at once by this worker. */
  concurrency?: number;
  /** Poll interval: the fallback when a NOTIFY is missed, and how run_at/backoff come due. */
  pollMs?: number;
  /**
   * The lease: how long a claim holds without a renewal before another worker may take the
   * job, so how soon a dead worker's jobs run again (default 10 s).
   */
  leaseMs?: number;
  /** @deprecated the former name of leaseMs. */
  visibilityMs?: number;
  /** How often the leases of jobs in hand are renewed (default a third of the lease). */
  heartbeatMs?: number;
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
