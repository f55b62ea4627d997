import { inOrderOf, type Queryable } from '../db/index.ts';

export interface EventRow {
  id: string;
  organization_id: string;
  kind: string;
  memory_id: string | null;
  batch_id: string | null;
  session_id: string | null;
  payload: Record<string, unknown>;
  created_at: Date;
}

const COLUMNS = 'id, organization_id, kind, memory_id, batch_id, session_id, payload, created_at';

/** Where {@link insertEvents} announces what it recorded: a NOTIFY channel, `perNotify` notices to a notification. */
export interface Announce {
  channel: string;
  perNotify: number;
}

/**
 * Insert events in one statement; returns the ones recorded, in the order given (an event
 * that already exists, by the once-per-subject unique indexes, is skipped). With `announce`,
 * the same statement NOTIFYs each recorded event's routing fields (id, organization_id, kind,
 * memory_id, batch_id, session_id): one object, or a JSON array of up to `perNotify` of them per
 * notification (payloads must stay under PostgreSQL's 8000 bytes). NOTIFY is delivered on
 * commit, so a listener never hears of a change it cannot read yet.
 */
export async function insertEvents(
  tx: Queryable,
  es: Omit<EventRow, 'created_at'>[],
  announce?: Announce,
): Promise<EventRow[]> {
  if (!es.length) return [];
  const params: unknown[] = [
    es.map((e) => e.id),
    es.map((e) => e.organization_id),
    es.map((e) => e.kind),
    es.map((e) => e.memory_id),
    es.map((e) => e.batch_id),
    es.map((e) => e.session_id),
    es.map((e) => JSON.stringify(e.payload)),
  ];
  const insert = `INSERT INTO events (id, organization_id, kind, memory_id, batch_id, session_id, payload)
     SELECT e.id, e.org, e.kind, e.memory_id, e.batch_id, e.session_id, e.payload::jsonb
     FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[]) WITH ORDINALITY
          AS e(id, org, kind, memory_id, batch_id, session_id, payload, n)
     ORDER BY e.n
     ON CONFLICT DO NOTHING RETURNING ${COLUMNS}`;
  let sql = insert;
  if (announce) {
    params.push(announce.channel, announce.perNotify);
    // The uncorrelated subquery runs once, when the first recorded row is returned; with no
    // row recorded there is nothing to announce.
    sql = `WITH ins AS (${insert}),
     notices AS (
       SELECT json_build_object('id', id, 'organization_id', organization_id, 'kind', kind,
                                'memory_id', memory_id, 'batch_id', batch_id, 'session_id', session_id)::text AS j,
              (row_number() OVER () - 1) / $9::int AS part
       FROM ins
     ), sent AS (
       SELECT pg_notify($8, CASE WHEN count(*) = 1 THEN min(j) ELSE '[' || string_agg(j, ',') || ']' END)
       FROM notices GROUP BY part
     )
     SELECT ins.*, (SELECT count(*) FROM sent) AS notified FROM ins`;
  }
  const rows = await tx.query<EventRow & { notified?: number }>(sql, params);
  for (const r of rows) delete r.notified;
  return inOrderOf(
    rows,
    es.map((e) => e.id),
  );
}

export async function getEvent(db: Queryable, id: string): Promise<EventRow | undefined> {
  return (await db.query<EventRow>(`SELECT ${COLUMNS} FROM events WHERE id = $1`, [id]))[0];
}

/** Whether a batch event of `kind` was recorded (e.g. batch.stored: every group is in). */
export async function hasBatchEvent(
  db: Queryable,
  organizationId: string,
  batchId: string,
  kind: string,
): Promise<boolean> {
  const rows = await db.query(`SELECT 1 FROM events WHERE batch_id = $1 AND organization_id = $2 AND kind = $3`, [
    batchId,
    organizationId,
    kind,
  ]);
  return rows.length > 0;
}

/**
 * Delete memory, document and session events older than `days` (retention); returns how many
 * went. The last two only route WebSocket pushes (docs/realtime.md). Batch events stay: one or
 * two per batch, and batch status reads `batch.stored`.
 */
export async function pruneEvents(db: Queryable, days: number): Promise<number> {
  const [{ n }] = await db.query<{ n: number }>(
    `WITH d AS (
       DELETE FROM events
       WHERE (kind LIKE 'memory.%' OR kind LIKE 'document.%' OR kind LIKE 'session.%')
         AND created_at < now() - $1 * interval '1 day' RETURNING 1
     )
     SELECT count(*)::int AS n FROM d`,
    [days],
  );
  return n;
}

/** Delete the organization's events about these memories, batches or chat sessions (deleted); how many. */
export async function deleteEventsOf(
  db: Queryable,
  organizationId: string,
  of: { memoryIds?: string[]; batchIds?: string[]; sessionIds?: string[] },
): Promise<number> {
  const memoryIds = of.memoryIds ?? [];
  const batchIds = of.batchIds ?? [];
  const sessionIds = of.sessionIds ?? [];
  if (memoryIds.length === 0 && batchIds.length === 0 && sessionIds.length === 0) return 0;
  const rows = await db.query(
    `DELETE FROM events WHERE organization_id = $1
       AND (memory_id = ANY($2) OR batch_id = ANY($3) OR session_id = ANY($4)) RETURNING id`,
    [organizationId, memoryIds, batchIds, sessionIds],
  );
  return rows.length;
}
