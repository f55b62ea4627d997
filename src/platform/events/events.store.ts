import type { Queryable } from '../db/index.ts';

export interface EventRow {
  id: string;
  organization_id: string;
  kind: string;
  memory_id: string | null;
  batch_id: string | null;
  payload: Record<string, any>;
  created_at: Date;
}

const COLUMNS = 'id, organization_id, kind, memory_id, batch_id, payload, created_at';

/** Insert an event; undefined when it already exists (the once-per-subject unique indexes). */
export async function insertEvent(tx: Queryable, e: Omit<EventRow, 'created_at'>): Promise<EventRow | undefined> {
  const rows = await tx.query<EventRow>(
    `INSERT INTO events (id, organization_id, kind, memory_id, batch_id, payload)
     VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING RETURNING ${COLUMNS}`,
    [e.id, e.organization_id, e.kind, e.memory_id, e.batch_id, JSON.stringify(e.payload)],
  );
  return rows[0];
}

export async function getEvent(db: Queryable, id: string): Promise<EventRow | undefined> {
  return (await db.query<EventRow>(`SELECT ${COLUMNS} FROM events WHERE id = $1`, [id]))[0];
}

/** Whether a batch event of `kind` was recorded (e.g. batch.stored: every group is in). */
export async function hasBatchEvent(db: Queryable, organizationId: string, batchId: string, kind: string): Promise<boolean> {
  const rows = await db.query(`SELECT 1 FROM events WHERE batch_id = $1 AND organization_id = $2 AND kind = $3`, [batchId, organizationId, kind]);
  return rows.length > 0;
}

/**
 * Delete memory events older than `days` (retention); returns how many went. Batch events stay:
 * one or two per batch, and batch status reads `batch.stored`.
 */
export async function pruneEvents(db: Queryable, days: number): Promise<number> {
  const [{ n }] = await db.query<{ n: number }>(
    `WITH d AS (DELETE FROM events WHERE kind LIKE 'memory.%' AND created_at < now() - $1 * interval '1 day' RETURNING 1)
     SELECT count(*)::int AS n FROM d`,
    [days],
  );
  return n;
}
