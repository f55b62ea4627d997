import type { Queryable } from '../../platform/db/index.ts';
import type { GraphPlan } from '../graph/index.ts';
import { MEMORY_COLUMNS, readerSql, scopeSql, type MemoryRow, type Scope } from './memories.store.ts';
import type { Reader } from './reader.ts';

/** The lifecycle of a memory (client contract: retrieveStatus). */
/**
 * A memory's states. A memory is searchable from its first state on: it is stored with its
 * chunks and vectors (`quick_saved`) in the request; the client contract's `queued` (accepted,
 * not yet saved) never happens in Engram, so it is not a state here.
 */
export const MEMORY_STATES = ['quick_saved', 'processing', 'completed', 'failed'] as const;
export type MemoryState = (typeof MEMORY_STATES)[number];

export interface MemoryStatusRow {
  id: string;
  organization_id: string;
  batch_id: string | null;
  status: MemoryState;
  status_error: string | null;
  created_at: Date;
  updated_at: Date;
  processing_started_at: Date | null;
  completed_at: Date | null;
  failed_at: Date | null;
}

const COLUMNS =
  'id, organization_id, batch_id, status, status_error, created_at, ' +
  'updated_at, processing_started_at, completed_at, failed_at';

/** One memory's status in the scope; with a `reader` (an end user), only a memory they may read. */
export async function getMemoryStatus(
  db: Queryable,
  scope: Scope,
  id: string,
  reader?: Reader,
): Promise<MemoryStatusRow | undefined> {
  const params: unknown[] = [id];
  const where = [`id = $1`, scopeSql(scope, params)];
  if (reader) where.push(readerSql(reader, params));
  const rows = await db.query<MemoryStatusRow>(`SELECT ${COLUMNS} FROM memories WHERE ${where.join(' AND ')}`, params);
  return rows[0];
}

/**
 * Every memory of one batch visible in the scope, in insertion order, each with whether
 * `reader` (an end user) may read it (always true without one).
 */
export async function getBatchStatus(
  db: Queryable,
  scope: Scope,
  batchId: string,
  reader?: Reader,
): Promise<(MemoryStatusRow & { readable: boolean })[]> {
  const params: unknown[] = [batchId];
  const where = `batch_id = $1 AND ${scopeSql(scope, params)}`;
  const readable = reader ? readerSql(reader, params) : 'true';
  return db.query<MemoryStatusRow & { readable: boolean }>(
    `SELECT ${COLUMNS}, ${readable} AS readable FROM memories WHERE ${where} ORDER BY created_at, id`,
    params,
  );
}

// Transitions used by the memory.process job. Each is conditional on the current state,
// so a job that runs twice (worker died after the work) changes nothing the second time.

/**
 * quick_saved (or a processing attempt that died) → processing. Returns the whole
 * row, so the processing steps need not read it again.
 */
export async function startProcessing(
  db: Queryable,
  organizationId: string,
  id: string,
): Promise<(MemoryStatusRow & MemoryRow & { graph_plan: GraphPlan | null }) | undefined> {
  const rows = await db.query<MemoryStatusRow & MemoryRow & { graph_plan: GraphPlan | null }>(
    `UPDATE memories SET status = 'processing', processing_started_at = now(), updated_at = now()
     WHERE id = $1 AND organization_id = $2 AND status IN ('quick_saved', 'processing')
     RETURNING ${MEMORY_COLUMNS}, status_error, processing_started_at, completed_at, failed_at, graph_plan`,
    [id, organizationId],
  );
  return rows[0];
}

/** processing → completed. */
export async function finishProcessing(
  db: Queryable,
  organizationId: string,
  id: string,
): Promise<MemoryStatusRow | undefined> {
  const rows = await db.query<MemoryStatusRow>(
    `UPDATE memories SET status = 'completed', completed_at = now(), status_error = NULL, updated_at = now()
     WHERE id = $1 AND organization_id = $2 AND status = 'processing' RETURNING ${COLUMNS}`,
    [id, organizationId],
  );
  return rows[0];
}

/** Any unfinished state → failed, with the reason. */
export async function failProcessing(
  db: Queryable,
  organizationId: string,
  id: string,
  error: string,
): Promise<MemoryStatusRow | undefined> {
  const rows = await db.query<MemoryStatusRow>(
    `UPDATE memories SET status = 'failed', failed_at = now(), status_error = $3, updated_at = now()
     WHERE id = $1 AND organization_id = $2 AND status IN ('quick_saved', 'processing') RETURNING ${COLUMNS}`,
    [id, organizationId, error],
  );
  return rows[0];
}

/**
 * Serialise finishing memories of one batch (transaction-scoped advisory lock). Taken before
 * a transition, so whichever transaction finishes the batch's last memory sees every other
 * one committed, and exactly one of them reports the batch complete.
 */
export async function lockBatch(tx: Queryable, batchId: string): Promise<void> {
  await tx.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [batchId]);
}

/** lockBatch for the batch of a memory (none: nothing to lock). */
export async function lockBatchOfMemory(tx: Queryable, organizationId: string, memoryId: string): Promise<void> {
  await tx.query(
    `SELECT pg_advisory_xact_lock(hashtextextended(batch_id, 0)) FROM memories
     WHERE id = $1 AND organization_id = $2 AND batch_id IS NOT NULL`,
    [memoryId, organizationId],
  );
}

/** How far a batch's memories are; `stored`: its last group is in (its batch.stored event exists). */
export interface BatchProgress {
  stored: boolean;
  total: number;
  completed: number;
  failed: number;
  /** When the latest of its finished memories finished (null: none yet). */
  last_finished_at: Date | null;
}

/**
 * How many memories of a batch exist and how many finished each way, and whether the batch
 * event `storedKind` (every group is in) was recorded: one statement on every memory's finish.
 */
export async function batchProgress(
  db: Queryable,
  organizationId: string,
  batchId: string,
  storedKind: string,
): Promise<BatchProgress> {
  const rows = await db.query<BatchProgress>(
    `SELECT EXISTS (SELECT 1 FROM events WHERE batch_id = $1 AND organization_id = $2 AND kind = $3) AS stored,
            count(*)::int AS total, count(*) FILTER (WHERE status = 'completed')::int AS completed,
            count(*) FILTER (WHERE status = 'failed')::int AS failed,
            max(coalesce(completed_at, failed_at)) AS last_finished_at
     FROM memories WHERE batch_id = $1 AND organization_id = $2`,
    [batchId, organizationId, storedKind],
  );
  return rows[0];
}

/**
 * A memory whose content or policy changed: back to quick_saved, so the job enqueued with the
 * change processes it again. One still waiting for its first job is left alone (that job reads
 * the new row); one being processed is requeued too, since that run may have read the old row.
 */
export async function requeueProcessing(
  db: Queryable,
  organizationId: string,
  id: string,
): Promise<MemoryStatusRow | undefined> {
  const rows = await db.query<MemoryStatusRow>(
    `UPDATE memories SET status = 'quick_saved', status_error = NULL,
       completed_at = NULL, failed_at = NULL, updated_at = now()
     WHERE id = $1 AND organization_id = $2 AND status IN ('completed', 'failed', 'processing') RETURNING ${COLUMNS}`,
    [id, organizationId],
  );
  return rows[0];
}
