import type { Queryable } from '../../platform/db/index.ts';

export interface SessionRow {
  id: string;
  organization_id: string;
  namespace_id: string | null;
  user_id: string;
  session_key: string;
  title: string | null;
  metadata: Record<string, unknown>;
  message_count: number;
  summaries: Record<string, unknown> | null;
  summarized_count: number;
  summaries_updated_at: Date | null;
  summary_error: string | null;
  created_at: Date;
  updated_at: Date;
}

export type MessageState = 'unprocessed' | 'queued' | 'claimed' | 'stored' | 'failed';

export interface MessageRow {
  id: string;
  session_id: string;
  organization_id: string;
  seq: number;
  role: string;
  content: unknown;
  text: string;
  metadata: Record<string, unknown>;
  memory_options: Record<string, unknown>;
  state: MessageState;
  memory_id: string | null;
  error: string | null;
  created_at: Date;
  /** Status of the memory it became (joined), null without one. */
  memory_status?: string | null;
}

const SESSION = `id, organization_id, namespace_id, user_id, session_key, title, metadata, message_count, summaries,
  summarized_count, summaries_updated_at, summary_error, created_at, updated_at`;
const MESSAGE = `m.id, m.session_id, m.organization_id, m.seq, m.role, m.content, m.text, m.metadata, m.memory_options,
  m.state, m.memory_id, m.error, m.created_at`;

export async function findSession(db: Queryable, organizationId: string, key: string): Promise<SessionRow | null> {
  const rows = await db.query<SessionRow>(
    `SELECT ${SESSION} FROM chat_sessions WHERE organization_id = $1 AND session_key = $2`,
    [organizationId, key],
  );
  return rows[0] ?? null;
}

export async function sessionById(db: Queryable, id: string): Promise<SessionRow | null> {
  const rows = await db.query<SessionRow>(`SELECT ${SESSION} FROM chat_sessions WHERE id = $1`, [id]);
  return rows[0] ?? null;
}

/**
 * The session named `key`, created for `owner` if new, locked until the transaction ends (its
 * message count numbers the next message). Two first messages at once: one inserts, the other
 * waits on the unique key and then finds it.
 */
export async function lockOrCreateSession(
  tx: Queryable,
  s: { id: string; organizationId: string; namespaceId: string | null; userId: string; key: string },
): Promise<SessionRow> {
  await tx.query(
    `INSERT INTO chat_sessions (id, organization_id, namespace_id, user_id, session_key)
     VALUES ($1, $2, $3, $4, $5) ON CONFLICT (organization_id, session_key) DO NOTHING`,
    [s.id, s.organizationId, s.namespaceId, s.userId, s.key],
  );
  const rows = await tx.query<SessionRow>(
    `SELECT ${SESSION} FROM chat_sessions WHERE organization_id = $1 AND session_key = $2 FOR UPDATE`,
    [s.organizationId, s.key],
  );
  return rows[0];
}

export async function insertMessage(
  tx: Queryable,
  m: Omit<MessageRow, 'memory_id' | 'error' | 'created_at' | 'memory_status'>,
  title: string | undefined,
): Promise<MessageRow> {
  const [row] = await tx.query<MessageRow>(
    `INSERT INTO chat_messages AS m (id, session_id, organization_id, seq, role, content, text, metadata,
       memory_options, state)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING ${MESSAGE}`,
    [
      m.id,
      m.session_id,
      m.organization_id,
      m.seq,
      m.role,
      JSON.stringify(m.content),
      m.text,
      JSON.stringify(m.metadata),
      JSON.stringify(m.memory_options),
      m.state,
    ],
  );
  await tx.query(
    `UPDATE chat_sessions SET message_count = $2, title = COALESCE($3, title), updated_at = now() WHERE id = $1`,
    [m.session_id, m.seq, title ?? null],
  );
  return row;
}

/** A page of the session's messages, newest first, with the status of the memory each became. */
export async function listMessages(db: Queryable, sessionId: string, limit: number, skip: number) {
  return db.query<MessageRow>(
    `SELECT ${MESSAGE}, mem.status AS memory_status FROM chat_messages m
     LEFT JOIN memories mem ON mem.id = m.memory_id
     WHERE m.session_id = $1 ORDER BY m.seq DESC LIMIT $2 OFFSET $3`,
    [sessionId, limit, skip],
  );
}

/** Messages `fromSeq` < seq ≤ `toSeq`, oldest first (what a summary reads). */
export async function messageRange(db: Queryable, sessionId: string, fromSeq: number, toSeq: number) {
  return db.query<MessageRow>(
    `SELECT ${MESSAGE} FROM chat_messages m WHERE m.session_id = $1 AND m.seq > $2 AND m.seq <= $3 ORDER BY m.seq`,
    [sessionId, fromSeq, toSeq],
  );
}

/** How many messages are in each state (memory statuses joined for the stored ones), and the failures. */
export async function stateCounts(db: Queryable, sessionId: string) {
  const counts = await db.query<{ state: string; memory_status: string | null; n: number }>(
    `SELECT m.state, mem.status AS memory_status, count(*)::int AS n FROM chat_messages m
     LEFT JOIN memories mem ON mem.id = m.memory_id WHERE m.session_id = $1 GROUP BY 1, 2`,
    [sessionId],
  );
  const errors = await db.query<{ id: string; error: string }>(
    `SELECT m.id, COALESCE(m.error, mem.status_error, 'processing failed') AS error FROM chat_messages m
     LEFT JOIN memories mem ON mem.id = m.memory_id
     WHERE m.session_id = $1 AND (m.state = 'failed' OR mem.status = 'failed') ORDER BY m.seq LIMIT 100`,
    [sessionId],
  );
  return { counts, errors };
}

/** The memories of the session's messages whose processing is still running (their messages are analyzing). */
export async function analyzingMemories(db: Queryable, sessionId: string): Promise<string[]> {
  const rows = await db.query<{ id: string }>(
    `SELECT mem.id FROM chat_messages m JOIN memories mem ON mem.id = m.memory_id
     WHERE m.session_id = $1 AND m.state = 'stored' AND mem.status IN ('quick_saved', 'processing')`,
    [sessionId],
  );
  return rows.map((r) => r.id);
}

/**
 * Claim for job `jobId` the session's oldest messages waiting to become memories, with those
 * it claimed before (a rerun after its worker died). Another job running for the same session
 * skips what this one claimed, so no message is embedded twice.
 */
export async function claimQueued(db: Queryable, sessionId: string, jobId: string, limit: number) {
  return db
    .query<MessageRow>(
      `UPDATE chat_messages m SET state = 'claimed', job_id = $2
     WHERE m.id IN (SELECT id FROM chat_messages
                    WHERE session_id = $1 AND (state = 'queued' OR (state = 'claimed' AND job_id = $2))
                    ORDER BY seq LIMIT $3 FOR UPDATE SKIP LOCKED)
     RETURNING ${MESSAGE}`,
      [sessionId, jobId, limit],
    )
    .then((rows) => rows.sort((a, b) => a.seq - b.seq));
}

/** Of `ids`, those still claimed by `jobId`, locked: a second run of the same job finds them stored and skips them. */
export async function lockClaimed(tx: Queryable, ids: string[], jobId: string): Promise<Set<string>> {
  const rows = await tx.query<{ id: string }>(
    `SELECT id FROM chat_messages WHERE id = ANY($1) AND state = 'claimed' AND job_id = $2 ORDER BY seq FOR UPDATE`,
    [ids, jobId],
  );
  return new Set(rows.map((r) => r.id));
}

/** The messages job `jobId` claimed and did not finish (it is dead): failed, so …/process can queue them again. */
export async function failClaimed(db: Queryable, jobId: string, error: string): Promise<void> {
  await db.query(`UPDATE chat_messages SET state = 'failed', error = $2 WHERE job_id = $1 AND state = 'claimed'`, [
    jobId,
    error.slice(0, 1000),
  ]);
}

export async function markStored(tx: Queryable, pairs: { id: string; memoryId: string }[]): Promise<void> {
  if (!pairs.length) return;
  await tx.query(
    `UPDATE chat_messages m SET state = 'stored', memory_id = p.memory_id, error = NULL
     FROM unnest($1::text[], $2::text[]) AS p(id, memory_id) WHERE m.id = p.id`,
    [pairs.map((p) => p.id), pairs.map((p) => p.memoryId)],
  );
}

export async function markFailed(tx: Queryable, ids: string[], error: string): Promise<void> {
  if (!ids.length) return;
  await tx.query(`UPDATE chat_messages SET state = 'failed', error = $2 WHERE id = ANY($1) AND state = 'claimed'`, [
    ids,
    error.slice(0, 1000),
  ]);
}

/** Queue the session's messages not made into memories yet (never processed, or failed); their ids. */
export async function queueUnprocessed(tx: Queryable, sessionId: string): Promise<string[]> {
  const rows = await tx.query<{ id: string }>(
    `UPDATE chat_messages SET state = 'queued', error = NULL, job_id = NULL
     WHERE session_id = $1 AND state IN ('unprocessed', 'failed') RETURNING id`,
    [sessionId],
  );
  return rows.map((r) => r.id);
}

/**
 * Store summaries covering the first `count` messages, unless newer ones are already stored
 * (a late or repeated job never replaces a summary of more messages).
 */
export async function saveSummaries(db: Queryable, sessionId: string, summaries: object, count: number) {
  const rows = await db.query(
    `UPDATE chat_sessions SET summaries = $2, summarized_count = $3, summaries_updated_at = now(), summary_error = NULL
     WHERE id = $1 AND (summarized_count < $3 OR summaries IS NULL) RETURNING id`,
    [sessionId, JSON.stringify(summaries), count],
  );
  return rows.length > 0;
}

export async function saveSummaryError(db: Queryable, sessionId: string, error: string): Promise<void> {
  await db.query('UPDATE chat_sessions SET summary_error = $2 WHERE id = $1', [sessionId, error.slice(0, 1000)]);
}

export async function updateSession(
  db: Queryable,
  id: string,
  patch: { title?: string; metadata?: Record<string, unknown> },
): Promise<SessionRow> {
  const [row] = await db.query<SessionRow>(
    `UPDATE chat_sessions SET title = COALESCE($2, title), metadata = metadata || $3::jsonb, updated_at = now()
     WHERE id = $1 RETURNING ${SESSION}`,
    [id, patch.title ?? null, JSON.stringify(patch.metadata ?? {})],
  );
  return row;
}
