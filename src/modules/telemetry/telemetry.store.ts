import type { Queryable } from '../../platform/db/index.ts';

export interface NewTelemetryEvent {
  id: string;
  eventName: string;
  properties: Record<string, unknown>;
  clientUserId: string | null;
  occurredAt: Date;
}

/** Who sent the events: always the credential's, never the body's. */
export interface TelemetrySender {
  organizationId: string;
  namespaceId: string | null;
  apiKeyId: string | null;
  userId: string | null;
}

/** Insert a request's events in one statement; how many. */
export async function insertEvents(
  db: Queryable,
  sender: TelemetrySender,
  anonymousId: string | null,
  events: NewTelemetryEvent[],
): Promise<number> {
  if (!events.length) return 0;
  const rows = await db.query(
    `INSERT INTO telemetry_events (id, organization_id, namespace_id, api_key_id, user_id, event_name, properties,
       client_user_id, anonymous_id, occurred_at)
     SELECT e.id, $1, $2, $3, $4, e.name, e.props::jsonb, e.client_user, $5, e.at
     FROM unnest($6::text[], $7::text[], $8::text[], $9::text[], $10::timestamptz[])
          AS e(id, name, props, client_user, at)
     RETURNING id`,
    [
      sender.organizationId,
      sender.namespaceId,
      sender.apiKeyId,
      sender.userId,
      anonymousId,
      events.map((e) => e.id),
      events.map((e) => e.eventName),
      events.map((e) => JSON.stringify(e.properties)),
      events.map((e) => e.clientUserId),
      events.map((e) => e.occurredAt.toISOString()),
    ],
  );
  return rows.length;
}

/** Events per UTC day and name over the last `days` days, newest day first; a namespace key sees its own. */
export async function countEvents(
  db: Queryable,
  scope: { organizationId: string; namespaceId: string | null },
  days: number,
  eventName: string | undefined,
): Promise<{ day: string; event_name: string; count: number }[]> {
  const params: unknown[] = [scope.organizationId, days];
  const where = [
    'organization_id = $1',
    `occurred_at >= date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' - ($2::int - 1) * interval '1 day'`,
  ];
  if (scope.namespaceId) {
    params.push(scope.namespaceId);
    where.push(`namespace_id = $${params.length}`);
  }
  if (eventName) {
    params.push(eventName);
    where.push(`event_name = $${params.length}`);
  }
  return db.query(
    `SELECT to_char(occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, event_name, count(*)::int AS count
       FROM telemetry_events WHERE ${where.join(' AND ')}
      GROUP BY 1, 2 ORDER BY 1 DESC, 2`,
    params,
  );
}

/** Delete events received more than `days` days ago (the maintenance pass); how many. */
export async function pruneTelemetry(db: Queryable, days: number): Promise<number> {
  const [{ n }] = await db.query<{ n: number }>(
    `WITH d AS (DELETE FROM telemetry_events WHERE received_at < now() - $1::int * interval '1 day' RETURNING 1)
     SELECT count(*)::int AS n FROM d`,
    [days],
  );
  return n;
}
