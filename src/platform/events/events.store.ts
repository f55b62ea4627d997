import { inOrderOf, type Queryable } from '../db/index.ts';

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

/**
 * Insert events in one statement; returns the ones recorded, in the order given (an event
 * that already exists, by the once-per-subject unique indexes, is skipped).
 */
export async function insertEvents(tx: Queryable, es: Omit<EventRow, 'created_at'>[]): Promise<EventRow[]> {
  if (!es.length) return [];
  const rows = await tx.query<EventRow>(
    `INSERT INTO events (id, organization_id, kind, memory_id, batch_id, payload)
     SELECT e.id, e.org, e.kind, e.memory_id, e.batch_id, e.payload::jsonb
     FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[]) WITH ORDINALITY
          AS e(id, org, kind, memory_id, batch_id, payload, n)
     ORDER BY e.n
     ON CONFLICT DO NOTHING RETURNING ${COLUMNS}`,
    [es.map((e) => e.id), es.map((e) => e.organization_id), es.map((e) => e.kind), es.map((e) => e.memory_id), es.map((e) => e.batch_id),
      es.map((e) => JSON.stringify(e.payload))],
  );
  return inOrderOf(rows, es.map((e) => e.id));
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
