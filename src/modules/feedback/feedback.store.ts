import type { Queryable } from '../../platform/db/index.ts';

export interface FeedbackRow {
  id: string;
  organization_id: string;
  namespace_id: string | null;
  user_id: string | null;
  api_key_id: string | null;
  sent_by: string;
  search_id: string;
  feedback_type: string;
  feedback_source: string;
  feedback_score: number | null;
  signal: number;
  data: Record<string, unknown>;
  session_context: Record<string, unknown> | null;
  created_at: Date;
}

const COLUMNS = `id, organization_id, namespace_id, user_id, api_key_id, sent_by, search_id, feedback_type,
  feedback_source, feedback_score, signal, data, session_context, created_at`;

/**
 * Whether the user exists, key-share locked until the transaction ends: a search's user may
 * have been deleted since it searched, and their deletion must not race the feedback's insert.
 */
export async function lockSearchedUser(tx: Queryable, organizationId: string, userId: string): Promise<boolean> {
  const rows = await tx.query('SELECT 1 FROM users WHERE organization_id = $1 AND id = $2 FOR KEY SHARE', [
    organizationId,
    userId,
  ]);
  return rows.length > 0;
}

export async function insertFeedback(tx: Queryable, f: Omit<FeedbackRow, 'created_at'>): Promise<FeedbackRow> {
  const [row] = await tx.query<FeedbackRow>(
    `INSERT INTO feedback (id, organization_id, namespace_id, user_id, api_key_id, sent_by, search_id, feedback_type,
       feedback_source, feedback_score, signal, data, session_context)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) RETURNING ${COLUMNS}`,
    [
      f.id,
      f.organization_id,
      f.namespace_id,
      f.user_id,
      f.api_key_id,
      f.sent_by,
      f.search_id,
      f.feedback_type,
      f.feedback_source,
      f.feedback_score,
      f.signal,
      JSON.stringify(f.data),
      f.session_context ? JSON.stringify(f.session_context) : null,
    ],
  );
  return row;
}

/** NOTIFY channel of new signals; the payload names the user (`signalsKey`), so caches of "no feedback" forget them. */
export const SIGNALS_CHANNEL = 'engram_feedback_signals';

/** A user as the signals channel and the boosts' memory name them. */
export const signalsKey = (scope: { organizationId: string; userId: string }) =>
  `${scope.organizationId}/${scope.userId}`;

/**
 * One signal row per cited memory, and a NOTIFY naming the user (delivered on commit to every
 * process), in one statement, for the ranking of `userId`'s searches.
 */
export async function insertSignals(
  tx: Queryable,
  s: { organizationId: string; userId: string; feedbackId: string; memoryIds: string[]; signal: number },
): Promise<void> {
  if (!s.memoryIds.length || s.signal === 0) return;
  await tx.query(
    `WITH added AS (
       INSERT INTO feedback_signals (organization_id, user_id, memory_id, feedback_id, signal)
       SELECT $1, $2, m, $3, $4 FROM unnest($5::text[]) AS m RETURNING 1
     )
     SELECT pg_notify($6, $7) WHERE EXISTS (SELECT 1 FROM added)`,
    [s.organizationId, s.userId, s.feedbackId, s.signal, s.memoryIds, SIGNALS_CHANNEL, signalsKey(s)],
  );
}

export async function getFeedback(db: Queryable, organizationId: string, id: string): Promise<FeedbackRow | null> {
  const rows = await db.query<FeedbackRow>(`SELECT ${COLUMNS} FROM feedback WHERE organization_id = $1 AND id = $2`, [
    organizationId,
    id,
  ]);
  return rows[0] ?? null;
}

/**
 * The net signal of one user's feedback on each of `memoryIds` that has any: the sum of the
 * signals, each halved every `halfLifeDays` of its age (0: no fading); and whether the user has
 * no signal at all (on any memory). One statement over the primary key (organization, user,
 * memory, …): a user without feedback costs one index probe and returns nothing else.
 */
export async function netSignals(
  db: Queryable,
  scope: { organizationId: string; userId: string },
  memoryIds: string[],
  halfLifeDays: number,
): Promise<{ nets: Map<string, number>; none: boolean }> {
  const rows = await db.query<{ memory_id: string | null; net: number | null }>(
    `SELECT memory_id,
            sum(signal * CASE WHEN $4::float8 > 0
                THEN power(0.5, extract(epoch FROM now() - created_at)::float8 / 86400 / $4::float8)
                ELSE 1 END)::float8 AS net
       FROM feedback_signals
      WHERE organization_id = $1 AND user_id = $2 AND memory_id = ANY($3::text[])
      GROUP BY memory_id
     UNION ALL
     SELECT NULL, NULL WHERE NOT EXISTS (SELECT 1 FROM feedback_signals WHERE organization_id = $1 AND user_id = $2)`,
    [scope.organizationId, scope.userId, memoryIds, halfLifeDays],
  );
  const nets = new Map<string, number>();
  for (const r of rows) if (r.memory_id !== null) nets.set(r.memory_id, Number(r.net));
  return { nets, none: rows.some((r) => r.memory_id === null) };
}

/**
 * Memories rated up (a positive net signal) since `since`, by one user or the whole organization,
 * strongest first: sync's tier 0 ("rated up"; the portability module's RatedUp port).
 */
export async function ratedUp(
  db: Queryable,
  q: { organizationId: string; userId: string | null; since: Date; limit: number },
): Promise<Map<string, number>> {
  const rows = await db.query<{ memory_id: string; net: number }>(
    `SELECT memory_id, sum(signal)::float8 AS net FROM feedback_signals
      WHERE organization_id = $1 AND ($2::text IS NULL OR user_id = $2) AND created_at >= $3
      GROUP BY memory_id HAVING sum(signal) > 0 ORDER BY net DESC, memory_id LIMIT $4`,
    [q.organizationId, q.userId, q.since, q.limit],
  );
  return new Map(rows.map((r) => [r.memory_id, Number(r.net)]));
}
