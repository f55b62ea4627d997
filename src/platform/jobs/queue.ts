import type { Queryable } from '../db/index.ts';
import { newId } from '../../shared/ids.ts';
import { insertJobs, type JobRow } from './jobs.store.ts';

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
 * Enqueue jobs inside the writer's transaction (house rule 7): they exist exactly when the
 * change that asked for them commits. The NOTIFY is delivered on commit too, so a worker is
 * never woken for a job it cannot see yet; one per kind is enough to wake the workers.
 */
export async function enqueueAll(tx: Queryable, jobs: NewJob[]): Promise<JobRow[]> {
  const rows = await insertJobs(
    tx,
    jobs.map((job) => ({
      id: newId(),
      organization_id: job.organizationId ?? null,
      kind: job.kind,
      payload: job.payload ?? {},
      max_attempts: job.maxAttempts ?? 5,
      run_at: job.runAt ?? null,
    })),
  );
  const kinds = [...new Set(jobs.map((j) => j.kind))];
  if (kinds.length) await tx.query('SELECT pg_notify($1, k) FROM unnest($2::text[]) AS k', [JOBS_CHANNEL, kinds]);
  return rows;
}

/** Enqueue one job (see enqueueAll). */
export async function enqueue(tx: Queryable, job: NewJob): Promise<JobRow> {
  return (await enqueueAll(tx, [job]))[0];
}
