import type { Queryable } from '../../platform/db/index.ts';
import { newId } from '../../shared/ids.ts';

export interface UserRow {
  id: string;
  organization_id: string;
  external_id: string | null;
  email: string | null;
  display_name: string | null;
  image_url: string | null;
  type: string;
  metadata: Record<string, unknown>;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS =
  'id, organization_id, external_id, email, display_name, image_url, type, metadata, created_at, updated_at';

/**
 * A user by internal id. With `lock`, in a transaction, the row stays key-share locked until
 * it ends (as resolveExternalUser's): a write naming the user cannot lose it to a deletion
 * before it commits (its foreign key would fail: a 500); a deletion under way makes this wait
 * and then find nothing.
 */
export async function getUser(
  db: Queryable,
  organizationId: string,
  id: string,
  lock = false,
): Promise<UserRow | undefined> {
  const rows = await db.query<UserRow>(
    `SELECT ${COLUMNS} FROM users WHERE organization_id = $1 AND id = $2${lock ? ' FOR KEY SHARE' : ''}`,
    [organizationId, id],
  );
  return rows[0];
}

export async function findUserByExternalId(
  db: Queryable,
  organizationId: string,
  externalId: string,
): Promise<UserRow | undefined> {
  const rows = await db.query<UserRow>(`SELECT ${COLUMNS} FROM users WHERE organization_id = $1 AND external_id = $2`, [
    organizationId,
    externalId,
  ]);
  return rows[0];
}

export interface NewUser {
  organizationId: string;
  externalId: string | null;
  type?: string;
  email?: string | null;
  displayName?: string | null;
}

export async function insertUser(db: Queryable, u: NewUser): Promise<UserRow> {
  const rows = await db.query<UserRow>(
    `INSERT INTO users (id, organization_id, external_id, type, email, display_name)
     VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${COLUMNS}`,
    [newId(), u.organizationId, u.externalId, u.type ?? 'user', u.email ?? null, u.displayName ?? null],
  );
  return rows[0];
}

/**
 * The internal user for an external id, created on first sight. In a transaction the row
 * stays key-share locked, so the user cannot be deleted before the caller's write that names
 * it commits. Concurrent first requests race on the unique index: the upsert returns the
 * winner's row from the same statement (a separate read after it could find the row deleted
 * meanwhile: a 500), and a conflicting row deleted meanwhile makes it insert after all.
 */
export async function resolveExternalUser(db: Queryable, organizationId: string, externalId: string): Promise<UserRow> {
  const found = await db.query<UserRow>(
    `SELECT ${COLUMNS} FROM users WHERE organization_id = $1 AND external_id = $2 FOR KEY SHARE`,
    [organizationId, externalId],
  );
  if (found[0]) return found[0];
  const rows = await db.query<UserRow>(
    `INSERT INTO users (id, organization_id, external_id) VALUES ($1, $2, $3)
     ON CONFLICT (organization_id, external_id) WHERE external_id IS NOT NULL
     DO UPDATE SET external_id = EXCLUDED.external_id RETURNING ${COLUMNS}`,
    [newId(), organizationId, externalId],
  );
  return rows[0];
}

/**
 * The internal users of many external ids, created on first sight, in two statements. The
 * inserts go in sorted order, so concurrent batches lock the unique index in the same order
 * and cannot deadlock on each other's new users.
 */
export async function resolveExternalUsers(
  db: Queryable,
  organizationId: string,
  externalIds: string[],
): Promise<Map<string, UserRow>> {
  const ids = [...new Set(externalIds)].sort();
  if (!ids.length) return new Map();
  await db.query(
    `INSERT INTO users (id, organization_id, external_id)
     SELECT x.id, $1, x.external_id FROM unnest($2::text[], $3::text[])
       WITH ORDINALITY AS x(id, external_id, n) ORDER BY n
     ON CONFLICT (organization_id, external_id) WHERE external_id IS NOT NULL DO NOTHING`,
    [organizationId, ids.map(() => newId()), ids],
  );
  // Key-share locked, as in resolveExternalUser: in a transaction a user found here cannot be
  // deleted before the caller's write naming it commits. One deleted between the two statements
  // is missing from the map (callers resolve those one by one).
  const rows = await db.query<UserRow>(
    `SELECT ${COLUMNS} FROM users WHERE organization_id = $1 AND external_id = ANY($2::text[]) FOR KEY SHARE`,
    [organizationId, ids],
  );
  return new Map(rows.map((r) => [r.external_id!, r]));
}

export interface UserFields {
  externalId?: string;
  email?: string;
  metadata?: Record<string, unknown>;
  type?: string;
}

/** Insert a user with an external id; undefined when the organization already has that external id. */
export async function insertUserIfAbsent(
  db: Queryable,
  organizationId: string,
  f: UserFields & { externalId: string },
): Promise<UserRow | undefined> {
  const rows = await db.query<UserRow>(
    `INSERT INTO users (id, organization_id, external_id, email, metadata, type)
     VALUES ($1, $2, $3, $4, coalesce($5::jsonb, '{}'::jsonb), coalesce($6, 'user'))
     ON CONFLICT (organization_id, external_id) WHERE external_id IS NOT NULL DO NOTHING RETURNING ${COLUMNS}`,
    [
      newId(),
      organizationId,
      f.externalId,
      f.email ?? null,
      f.metadata ? JSON.stringify(f.metadata) : null,
      f.type ?? null,
    ],
  );
  return rows[0];
}

/** One page of the organization's users, oldest first, optionally filtered by exact external id / email. */
export async function listUsers(
  db: Queryable,
  organizationId: string,
  filter: { externalId?: string; email?: string },
  limit: number,
  offset: number,
): Promise<{ rows: UserRow[]; total: number }> {
  const params = [organizationId, filter.externalId ?? null, filter.email ?? null];
  const where = 'organization_id = $1 AND ($2::text IS NULL OR external_id = $2) AND ($3::text IS NULL OR email = $3)';
  const [{ total }] = await db.query<{ total: number }>(
    `SELECT count(*)::int AS total FROM users WHERE ${where}`,
    params,
  );
  const rows = await db.query<UserRow>(
    `SELECT ${COLUMNS} FROM users WHERE ${where} ORDER BY created_at, id LIMIT $4 OFFSET $5`,
    [...params, limit, offset],
  );
  return { rows, total: Number(total) };
}

/** True when another user of the organization already has this external id. */
export async function externalIdTaken(
  db: Queryable,
  organizationId: string,
  externalId: string,
  exceptId: string,
): Promise<boolean> {
  const rows = await db.query('SELECT 1 FROM users WHERE organization_id = $1 AND external_id = $2 AND id <> $3', [
    organizationId,
    externalId,
    exceptId,
  ]);
  return rows.length > 0;
}

/** PostgreSQL's unique_violation: both stores report the SQLSTATE as the error's `code`. */
const isUniqueViolation = (err: unknown) =>
  typeof err === 'object' && err !== null && (err as { code?: unknown }).code === '23505';

/**
 * Partial update (metadata replaces the whole object); undefined when not in the organization,
 * `'external_id_taken'` when another user has (or just got) that external id. Not for use inside
 * a transaction: the unique violation it absorbs would have aborted it.
 */
export async function updateUser(
  db: Queryable,
  organizationId: string,
  id: string,
  f: UserFields,
): Promise<UserRow | 'external_id_taken' | undefined> {
  try {
    const rows = await db.query<UserRow>(
      `UPDATE users SET external_id = coalesce($3, external_id), email = coalesce($4, email),
         metadata = coalesce($5::jsonb, metadata), type = coalesce($6, type), updated_at = now()
       WHERE organization_id = $1 AND id = $2 RETURNING ${COLUMNS}`,
      [
        organizationId,
        id,
        f.externalId ?? null,
        f.email ?? null,
        f.metadata ? JSON.stringify(f.metadata) : null,
        f.type ?? null,
      ],
    );
    return rows[0];
  } catch (err) {
    // Two renames to one free external id both pass the service's check; the index decides.
    if (isUniqueViolation(err)) return 'external_id_taken';
    throw err;
  }
}

/**
 * Lock the user row for the rest of the transaction (false: no such user). A write for the
 * user key-share locks this row from its start (resolveExternalUser, or the foreign key), so
 * a deletion that locks it first waits for such writes, or they for it, in one order.
 */
export async function lockUserRow(tx: Queryable, organizationId: string, id: string): Promise<boolean> {
  const rows = await tx.query('SELECT 1 FROM users WHERE organization_id = $1 AND id = $2 FOR UPDATE', [
    organizationId,
    id,
  ]);
  return rows.length > 0;
}

/**
 * Delete the user row. Its memories, sessions and OAuth grants go by cascade; API keys
 * it owned stay, ownerless (user_id becomes NULL).
 */
export async function deleteUserRow(db: Queryable, organizationId: string, id: string): Promise<boolean> {
  const rows = await db.query('DELETE FROM users WHERE organization_id = $1 AND id = $2 RETURNING id', [
    organizationId,
    id,
  ]);
  return rows.length > 0;
}

/**
 * What names the user in the tables of other areas, removed with the user's content (the
 * deletion receipt, issue #22): their feedback (with its signals) and their logged searches, in
 * one namespace or everywhere; with `whole`, also what the user row's cascade removes (login
 * sessions, OAuth grants, counted first) and their personal graph schemas, which would otherwise
 * be left ownerless and visible to no one. The search log has no foreign key (it outlived users
 * before): it is deleted here.
 */
export async function purgeUserRecords(
  tx: Queryable,
  organizationId: string,
  userId: string,
  namespaceId: string | null,
  whole: boolean,
) {
  const params: unknown[] = [organizationId, userId];
  let where = 'organization_id = $1 AND user_id = $2';
  if (namespaceId) {
    params.push(namespaceId);
    where += ' AND namespace_id = $3';
  }
  const feedback = await tx.query<{ id: string }>(`SELECT id FROM feedback WHERE ${where} FOR UPDATE`, params);
  const feedbackIds = feedback.map((f) => f.id);
  const [{ n: signals }] = await tx.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM feedback_signals WHERE feedback_id = ANY($1)',
    [feedbackIds],
  );
  await tx.query('DELETE FROM feedback WHERE id = ANY($1)', [feedbackIds]); // signals by cascade
  const searches = await tx.query(`DELETE FROM query_log WHERE ${where} RETURNING id`, params);
  const part = { feedback: feedbackIds.length, feedback_signals: signals, search_log: searches.length };
  if (!whole) return part;
  const [owned] = await tx.query<{ sessions: number; grants: number }>(
    `SELECT (SELECT count(*) FROM sessions WHERE organization_id = $1 AND user_id = $2)::int AS sessions,
            ((SELECT count(*) FROM oauth_identities WHERE organization_id = $1 AND user_id = $2)
             + (SELECT count(*) FROM oauth_refresh_tokens WHERE organization_id = $1 AND user_id = $2))::int AS grants`,
    [organizationId, userId],
  );
  const schemas = await tx.query(
    `DELETE FROM graph_schemas WHERE organization_id = $1 AND user_id = $2 AND scope = 'personal' RETURNING id`,
    [organizationId, userId],
  );
  return { ...part, auth_sessions: owned.sessions, oauth_grants: owned.grants, graph_schemas: schemas.length };
}
