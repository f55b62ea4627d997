import type { Queryable } from '../../platform/db/index.ts';

/** True when the namespace exists in the organization. */
export async function namespaceExists(db: Queryable, organizationId: string, id: string): Promise<boolean> {
  const rows = await db.query('SELECT 1 FROM namespaces WHERE organization_id = $1 AND id = $2', [organizationId, id]);
  return rows.length > 0;
}

/**
 * Whether the namespace is active; undefined when the organization has no such namespace.
 * In a transaction the row stays key-share locked until it ends, so a namespace a write was
 * allowed into cannot be deleted before that write commits (its memories' foreign key would
 * fail: a 500), and a deletion under way makes this wait and then find nothing (a 404).
 */
export async function namespaceActive(db: Queryable, organizationId: string, id: string): Promise<boolean | undefined> {
  const rows = await db.query<{ is_active: boolean }>(
    'SELECT is_active FROM namespaces WHERE organization_id = $1 AND id = $2 FOR KEY SHARE',
    [organizationId, id],
  );
  return rows[0]?.is_active;
}

export interface NamespaceRow {
  id: string;
  organization_id: string;
  name: string;
  environment_type: string;
  is_active: boolean;
  rate_limits: Record<string, number | null>;
  default_policy: Record<string, unknown>;
  created_at: Date;
  updated_at: Date;
  /** Memories in the namespace and the bytes of their content (computed, not stored). */
  memories_count: number;
  storage_bytes: number;
}

// Counts come from one grouped subquery per page, never a query per row. `from` is the
// namespaces table, or the rows a write returned (so the write answers with its own row).
const selectFrom = (from: string) => `SELECT n.id, n.organization_id, n.name, n.environment_type,
    n.is_active, n.rate_limits, n.default_policy,
    n.created_at, n.updated_at, coalesce(s.cnt, 0)::int AS memories_count, coalesce(s.bytes, 0)::bigint AS storage_bytes
  FROM ${from} n
  LEFT JOIN LATERAL (
    SELECT count(*) AS cnt, sum(m.content_bytes) AS bytes FROM memories m
    WHERE m.organization_id = n.organization_id AND m.namespace_id = n.id
  ) s ON true`;
const SELECT = selectFrom('namespaces');
const WRITTEN =
  'id, organization_id, name, environment_type, is_active, rate_limits, default_policy, created_at, updated_at';

/** PostgreSQL's unique_violation: both stores report the SQLSTATE as the error's `code`. */
const isUniqueViolation = (err: unknown) =>
  typeof err === 'object' && err !== null && (err as { code?: unknown }).code === '23505';

/** `bigint` sums arrive as strings from `pg`; the API speaks numbers. */
const fix = (r: NamespaceRow): NamespaceRow => ({
  ...r,
  memories_count: Number(r.memories_count),
  storage_bytes: Number(r.storage_bytes),
});

export async function getNamespace(
  db: Queryable,
  organizationId: string,
  id: string,
): Promise<NamespaceRow | undefined> {
  const rows = await db.query<NamespaceRow>(`${SELECT} WHERE n.organization_id = $1 AND n.id = $2`, [
    organizationId,
    id,
  ]);
  return rows[0] && fix(rows[0]);
}

/** One page of the organization's namespaces (only `onlyId` for a namespace key), oldest first. */
export async function listNamespaces(
  db: Queryable,
  organizationId: string,
  onlyId: string | null,
  limit: number,
  skip: number,
): Promise<{ rows: NamespaceRow[]; total: number }> {
  const params: unknown[] = [organizationId, onlyId];
  const where = 'n.organization_id = $1 AND ($2::text IS NULL OR n.id = $2)';
  const [{ total }] = await db.query<{ total: number }>(
    `SELECT count(*)::int AS total FROM namespaces n WHERE ${where}`,
    params,
  );
  const rows = await db.query<NamespaceRow>(`${SELECT} WHERE ${where} ORDER BY n.created_at, n.id LIMIT $3 OFFSET $4`, [
    ...params,
    limit,
    skip,
  ]);
  return { rows: rows.map(fix), total: Number(total) };
}

export interface NamespaceFields {
  name?: string;
  environment_type?: string;
  is_active?: boolean;
  rate_limits?: Record<string, number | null>;
  default_policy?: Record<string, unknown>;
}

/**
 * Insert; returns the new row, or undefined when the organization already has a namespace of
 * that name. The row comes back from the insert itself: a read after it could find it gone.
 */
export async function insertNamespaceRow(
  db: Queryable,
  id: string,
  organizationId: string,
  f: NamespaceFields & { name: string },
): Promise<NamespaceRow | undefined> {
  const rows = await db.query<NamespaceRow>(
    `WITH w AS (
       INSERT INTO namespaces (id, organization_id, name, environment_type, is_active, rate_limits, default_policy)
       VALUES ($1, $2, $3, coalesce($4, 'production'), coalesce($5, true),
               coalesce($6::jsonb, '{}'::jsonb), coalesce($7::jsonb, '{}'::jsonb))
       ON CONFLICT (organization_id, name) DO NOTHING RETURNING ${WRITTEN})
     ${selectFrom('w')}`,
    [
      id,
      organizationId,
      f.name,
      f.environment_type ?? null,
      f.is_active ?? null,
      json(f.rate_limits),
      json(f.default_policy),
    ],
  );
  return rows[0] && fix(rows[0]);
}

const json = (v: unknown) => (v === undefined ? null : JSON.stringify(v));

/**
 * Partial update in one statement that also returns the row: undefined when no such namespace
 * is in the organization (or a deletion removed it first), `'name_taken'` when another
 * namespace got the name (a rename racing another past the service's check). Not for use
 * inside a transaction: the unique violation it absorbs would have aborted it.
 */
export async function updateNamespaceRow(
  db: Queryable,
  organizationId: string,
  id: string,
  f: NamespaceFields,
): Promise<NamespaceRow | 'name_taken' | undefined> {
  try {
    const rows = await db.query<NamespaceRow>(
      `WITH w AS (
         UPDATE namespaces SET name = coalesce($3, name), environment_type = coalesce($4, environment_type),
           is_active = coalesce($5, is_active), rate_limits = coalesce($6::jsonb, rate_limits),
           default_policy = coalesce($7::jsonb, default_policy), updated_at = now()
         WHERE organization_id = $1 AND id = $2 RETURNING ${WRITTEN})
       ${selectFrom('w')}`,
      [
        organizationId,
        id,
        f.name ?? null,
        f.environment_type ?? null,
        f.is_active ?? null,
        json(f.rate_limits),
        json(f.default_policy),
      ],
    );
    return rows[0] && fix(rows[0]);
  } catch (err) {
    if (isUniqueViolation(err)) return 'name_taken';
    throw err;
  }
}

/**
 * Lock the namespace row for the rest of the transaction. Inserting a memory into the
 * namespace takes a key-share lock on this row, so no memory can slip in while the
 * namespace is being emptied and deleted.
 */
export async function lockNamespace(tx: Queryable, organizationId: string, id: string): Promise<boolean> {
  const rows = await tx.query('SELECT id FROM namespaces WHERE organization_id = $1 AND id = $2 FOR UPDATE', [
    organizationId,
    id,
  ]);
  return rows.length > 0;
}

/** Delete the namespace row and its API keys (keys first: they are credentials, count them). */
export async function deleteNamespaceRow(
  tx: Queryable,
  organizationId: string,
  id: string,
): Promise<{ apiKeysDeleted: number }> {
  const keys = await tx.query('DELETE FROM api_keys WHERE organization_id = $1 AND namespace_id = $2 RETURNING id', [
    organizationId,
    id,
  ]);
  await tx.query('DELETE FROM namespaces WHERE organization_id = $1 AND id = $2', [organizationId, id]);
  return { apiKeysDeleted: keys.length };
}

/**
 * What names a namespace whose memories are deleted, in tables with no foreign key to it: the
 * searches logged in it and their feedback (with its signals); and, counted before the row's
 * cascade removes them, its graph schemas. (Telemetry and AI usage keep the id by design:
 * docs/api-conventions.md, "Deletion receipts".)
 */
export async function purgeNamespaceRecords(tx: Queryable, organizationId: string, id: string, withContent: boolean) {
  const [{ n: schemas }] = await tx.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM graph_schemas WHERE organization_id = $1 AND namespace_id = $2',
    [organizationId, id],
  );
  if (!withContent) return { graph_schemas: schemas };
  const feedback = await tx.query<{ id: string }>(
    'SELECT id FROM feedback WHERE organization_id = $1 AND namespace_id = $2 FOR UPDATE',
    [organizationId, id],
  );
  const feedbackIds = feedback.map((f) => f.id);
  const [{ n: signals }] = await tx.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM feedback_signals WHERE feedback_id = ANY($1)',
    [feedbackIds],
  );
  await tx.query('DELETE FROM feedback WHERE id = ANY($1)', [feedbackIds]); // signals by cascade
  const searches = await tx.query(
    'DELETE FROM query_log WHERE organization_id = $1 AND namespace_id = $2 RETURNING id',
    [organizationId, id],
  );
  return {
    graph_schemas: schemas,
    feedback: feedbackIds.length,
    feedback_signals: signals,
    search_log: searches.length,
  };
}
