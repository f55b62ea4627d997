import { inOrderOf, type Queryable } from '../db/index.ts';

export type JobStatus = 'queued' | 'running' | 'completed' | 'failed' | 'dead';

export interface JobRow {
  id: string;
  organization_id: string | null;
  kind: string;
  payload: Record<string, unknown>;
  status: JobStatus;
  attempts: number;
  max_attempts: number;
  run_at: Date;
  locked_by: string | null;
  locked_until: Date | null;
  last_error: string | null;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = `id, organization_id, kind, payload, status, attempts, max_attempts, run_at, locked_by, locked_until,
  last_error, created_at, updated_at`;

export type NewJobRow = {
  id: string;
  organization_id: string | null;
  kind: string;
  payload: unknown;
  max_attempts: number;
  run_at: Date | null;
};

/** Insert jobs in one statement, returned in the order given. */
export async function insertJobs(tx: Queryable, js: NewJobRow[]): Promise<JobRow[]> {
  if (!js.length) return [];
  const rows = await tx.query<JobRow>(
    `INSERT INTO jobs (id, organization_id, kind, payload, max_attempts, run_at)
     SELECT j.id, j.org, j.kind, j.payload::jsonb, j.max_attempts, COALESCE(j.run_at, now())
     FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::int[], $6::timestamptz[]) WITH ORDINALITY
          AS j(id, org, kind, payload, max_attempts, run_at, n)
     ORDER BY j.n
     RETURNING ${COLUMNS}`,
    [
      js.map((j) => j.id),
      js.map((j) => j.organization_id),
      js.map((j) => j.kind),
      js.map((j) => JSON.stringify(j.payload ?? {})),
      js.map((j) => j.max_attempts),
      js.map((j) => (j.run_at ? j.run_at.toISOString() : null)),
    ],
  );
  return inOrderOf(
    rows,
    js.map((j) => j.id),
  );
}

/** Waiting jobs whose time has come. */
const WAITING = `(status IN ('queued', 'failed') AND run_at <= now())`;
/**
 * Running jobs whose lease expired (their worker died or lost touch), except the claiming
 * worker's own: it is still running those, and its next renewal keeps or gives them up.
 */
const EXPIRED = `(status = 'running' AND locked_until < now() AND locked_by IS DISTINCT FROM $1)`;

/**
 * Take up to `limit` due jobs of `kinds`: waiting ones whose run_at has come, and running
 * ones whose lease expired (`expiredOnly`: just those, for the frequent expiry sweep).
 * SKIP LOCKED lets concurrent workers claim disjoint sets without waiting on each other;
 * each claim counts as an attempt and holds the job for `leaseMs`.
 */
export async function claimJobs(
  db: Queryable,
  workerId: string,
  kinds: string[],
  limit: number,
  leaseMs: number,
  expiredOnly = false,
): Promise<JobRow[]> {
  return db.query<JobRow>(
    `UPDATE jobs SET status = 'running', attempts = attempts + 1, locked_by = $1,
            locked_until = now() + $4 * interval '1 millisecond', updated_at = now()
     WHERE id IN (
       SELECT id FROM jobs
       WHERE kind = ANY($2::text[]) AND attempts < max_attempts
         AND ${expiredOnly ? EXPIRED : `(${WAITING} OR ${EXPIRED})`}
       ORDER BY run_at, id
       LIMIT $3
       FOR UPDATE SKIP LOCKED)
     RETURNING ${COLUMNS}`,
    [workerId, kinds, limit, leaseMs],
  );
}

/**
 * Jobs whose worker died on their last allowed attempt: they become `dead` instead of
 * being claimed again (a job that kills its worker must not loop forever). Never the
 * sweeping worker's own (see EXPIRED).
 */
export async function buryExpired(db: Queryable, workerId: string, kinds: string[]): Promise<JobRow[]> {
  return db.query<JobRow>(
    `UPDATE jobs SET status = 'dead', locked_by = NULL, locked_until = NULL, updated_at = now(),
            last_error = COALESCE(last_error || '; ', '') || 'lock expired: the worker stopped during the last attempt'
     WHERE id IN (
       SELECT id FROM jobs
       WHERE kind = ANY($2::text[]) AND ${EXPIRED} AND attempts >= max_attempts
       FOR UPDATE SKIP LOCKED)
     RETURNING ${COLUMNS}`,
    [workerId, kinds],
  );
}

/** Mark done, only while this worker still holds the job (false: the lock was lost). */
export async function completeJob(db: Queryable, id: string, workerId: string): Promise<boolean> {
  const rows = await db.query(
    `UPDATE jobs SET status = 'completed', locked_by = NULL, locked_until = NULL, updated_at = now()
     WHERE id = $1 AND status = 'running' AND locked_by = $2 RETURNING id`,
    [id, workerId],
  );
  return rows.length > 0;
}

/** After a failed attempt: retry at now + delayMs, or `dead` when no attempts are left. */
export async function failJob(
  db: Queryable,
  id: string,
  workerId: string,
  error: string,
  delayMs: number,
  permanent = false,
): Promise<JobRow | undefined> {
  const rows = await db.query<JobRow>(
    `UPDATE jobs SET
       status = CASE WHEN attempts >= max_attempts OR $5::boolean THEN 'dead' ELSE 'failed' END,
       run_at = CASE WHEN attempts >= max_attempts OR $5::boolean THEN run_at
                     ELSE now() + $4 * interval '1 millisecond' END,
       last_error = $3, locked_by = NULL, locked_until = NULL, updated_at = now()
     WHERE id = $1 AND status = 'running' AND locked_by = $2 RETURNING ${COLUMNS}`,
    [id, workerId, error, delayMs, permanent],
  );
  return rows[0];
}

/** Hand jobs back untouched (graceful stop): the attempt is not counted. */
export async function releaseJobs(db: Queryable, ids: string[], workerId: string): Promise<void> {
  if (!ids.length) return;
  await db.query(
    `UPDATE jobs SET status = 'queued', attempts = GREATEST(attempts - 1, 0), locked_by = NULL, locked_until = NULL,
            run_at = now(), updated_at = now()
     WHERE id = ANY($1::text[]) AND status = 'running' AND locked_by = $2`,
    [ids, workerId],
  );
}

/**
 * Renew the leases of jobs still in hand (long handlers must not look dead); returns the ids
 * renewed. One missing was taken from this worker (claimed by another after its lease
 * expired, handed back, or finished): it is no longer this worker's to finish.
 */
export async function extendLocks(db: Queryable, ids: string[], workerId: string, leaseMs: number): Promise<string[]> {
  if (!ids.length) return [];
  const rows = await db.query<{ id: string }>(
    `UPDATE jobs SET locked_until = now() + $3 * interval '1 millisecond'
     WHERE id = ANY($1::text[]) AND status = 'running' AND locked_by = $2 RETURNING id`,
    [ids, workerId, leaseMs],
  );
  return rows.map((r) => r.id);
}

/**
 * Embedded store only (one process owns the data directory): every `running` job belongs
 * to a process that is gone, so it is due now rather than after its lock expires.
 */
export async function expireAllLocks(db: Queryable): Promise<number> {
  const rows = await db.query(
    `UPDATE jobs SET locked_until = now() - interval '1 millisecond' WHERE status = 'running' RETURNING id`,
  );
  return rows.length;
}

/** Delete completed jobs finished more than `days` ago; dead jobs stay for inspection. */
export async function pruneCompletedJobs(db: Queryable, days: number): Promise<number> {
  // Counted in SQL: a first run over a large backlog must not ship one row per deleted job.
  const [{ n }] = await db.query<{ n: number }>(
    `WITH d AS (DELETE FROM jobs WHERE status = 'completed' AND updated_at < now() - $1 * interval '1 day' RETURNING 1)
     SELECT count(*)::int AS n FROM d`,
    [days],
  );
  return n;
}

/**
 * What a job is about: the one id its payload names (a memory, an upload, a chat session, a
 * webhook delivery). The same expression as the index of migration 0029, which it must match.
 */
const JOB_SUBJECT =
  "coalesce(payload->>'memory_id', payload->>'upload_id', payload->>'session_id', payload->>'delivery_id')";

/**
 * Delete the organization's jobs about these subjects that no worker holds (queued, failed,
 * completed or dead): a deleted subject leaves no job naming it. A running job stays; its
 * handler finds the subject gone and ends. How many went.
 */
export async function deleteIdleJobsOf(db: Queryable, organizationId: string, subjects: string[]): Promise<number> {
  if (subjects.length === 0) return 0;
  const rows = await db.query(
    `DELETE FROM jobs WHERE organization_id = $1 AND status <> 'running' AND ${JOB_SUBJECT} = ANY($2) RETURNING id`,
    [organizationId, subjects],
  );
  return rows.length;
}
