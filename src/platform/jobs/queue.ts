import type { Queryable } from '../db/index.ts';
import { newId } from '../../shared/ids.ts';
import { insertJob, type JobRow } from './jobs.store.ts';

/** The NOTIFY channel that wakes workers when a job is enqueued. */
export const JOBS_CHANNEL = 'engram_jobs';

export interface NewJob {
  kind: string;
  payload?: Record<string, unknown>;
  /** The tenant the job works for; null for system jobs. */
  organizationId?: string | null;
  /** Attempts before the job is `dead` (default 5). */
  maxAttempts?: number;
  /** Not before this time (default: now). */
  runAt?: Date;
}

/**
 * Enqueue a job inside the writer's transaction (house rule 7): it exists exactly when the
 * change that asked for it commits. The NOTIFY is delivered on commit too, so a worker is
 * never woken for a job it cannot see yet.
 */
export async function enqueue(tx: Queryable, job: NewJob): Promise<JobRow> {
  const row = await insertJob(tx, {
    id: newId(),
    organization_id: job.organizationId ?? null,
    kind: job.kind,
    payload: job.payload ?? {},
    max_attempts: job.maxAttempts ?? 5,
    run_at: job.runAt ?? null,
  });
  await tx.query('SELECT pg_notify($1, $2)', [JOBS_CHANNEL, job.kind]);
  return row;
}
