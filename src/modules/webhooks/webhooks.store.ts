import type { Queryable } from '../../platform/db/index.ts';

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

export interface DeliveryRow {
  id: string;
  organization_id: string;
  memory_id: string | null;
  batch_id: string | null;
  url: string;
  secret: string | null;
  event_id: string | null;
  status: DeliveryStatus;
  attempts: number;
  last_status_code: number | null;
  last_error: string | null;
  triggered_at: Date | null;
  delivered_at: Date | null;
  failed_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = `id, organization_id, memory_id, batch_id, url, secret, event_id, status, attempts, last_status_code,
  last_error, triggered_at, delivered_at, failed_at, created_at, updated_at`;

export async function insertDelivery(
  tx: Queryable,
  d: {
    id: string;
    organization_id: string;
    memory_id: string | null;
    batch_id: string | null;
    url: string;
    secret: string | null;
  },
): Promise<void> {
  await tx.query(
    `INSERT INTO webhook_deliveries (id, organization_id, memory_id, batch_id, url, secret)
     VALUES ($1, $2, $3, $4, $5, $6)`,
    [d.id, d.organization_id, d.memory_id, d.batch_id, d.url, d.secret],
  );
}

/**
 * Attach an event to the untriggered subscriptions of its memory or batch. Conditional on
 * `triggered_at IS NULL`, so each subscription is triggered (and its job enqueued) once.
 */
export async function triggerDeliveries(
  tx: Queryable,
  t: { organizationId: string; eventId: string; memoryId: string | null; batchId: string | null },
): Promise<DeliveryRow[]> {
  const [column, subject] = t.memoryId ? ['memory_id', t.memoryId] : ['batch_id', t.batchId];
  return tx.query<DeliveryRow>(
    `UPDATE webhook_deliveries SET event_id = $1, triggered_at = now(), updated_at = now()
     WHERE ${column} = $2 AND organization_id = $3 AND triggered_at IS NULL RETURNING ${COLUMNS}`,
    [t.eventId, subject, t.organizationId],
  );
}

export async function getDelivery(db: Queryable, id: string): Promise<DeliveryRow | undefined> {
  return (await db.query<DeliveryRow>(`SELECT ${COLUMNS} FROM webhook_deliveries WHERE id = $1`, [id]))[0];
}

/** Record one attempt; `outcome` moves a pending delivery to delivered or failed. */
export async function recordAttempt(
  db: Queryable,
  id: string,
  a: { statusCode: number | null; error: string | null; outcome: DeliveryStatus },
): Promise<void> {
  await db.query(
    `UPDATE webhook_deliveries SET attempts = attempts + 1, last_status_code = $2, last_error = $3, status = $4::text,
       delivered_at = CASE WHEN $4::text = 'delivered' THEN now() ELSE delivered_at END,
       failed_at = CASE WHEN $4::text = 'failed' THEN now() ELSE failed_at END, updated_at = now()
     WHERE id = $1 AND status = 'pending'`,
    [id, a.statusCode, a.error, a.outcome],
  );
}

/** Give up (the job is dead, e.g. its worker died on the last attempt). */
export async function failDelivery(db: Queryable, id: string, error: string): Promise<void> {
  await db.query(
    `UPDATE webhook_deliveries SET status = 'failed', failed_at = now(),
       last_error = COALESCE(last_error, $2), updated_at = now()
     WHERE id = $1 AND status = 'pending'`,
    [id, error],
  );
}

/** Delete finished deliveries (delivered or failed) older than `days`. */
export async function pruneDeliveries(db: Queryable, days: number): Promise<number> {
  const [{ n }] = await db.query<{ n: number }>(
    `WITH d AS (
       DELETE FROM webhook_deliveries
       WHERE status <> 'pending' AND updated_at < now() - $1 * interval '1 day' RETURNING 1
     )
     SELECT count(*)::int AS n FROM d`,
    [days],
  );
  return n;
}
