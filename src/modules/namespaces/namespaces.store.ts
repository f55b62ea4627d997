import type { Queryable } from '../../platform/db/index.ts';

/** True when the namespace exists in the organization. */
export async function namespaceExists(db: Queryable, organizationId: string, id: string): Promise<boolean> {
  const rows = await db.query('SELECT 1 FROM namespaces WHERE organization_id = $1 AND id = $2', [organizationId, id]);
  return rows.length > 0;
}

/** Whether the namespace is active; undefined when the organization has no such namespace. */
export async function namespaceActive(db: Queryable, organizationId: string, id: string): Promise<boolean | undefined> {
  const rows = await db.query<{ is_active: boolean }>(
    'SELECT is_active FROM namespaces WHERE organization_id = $1 AND id = $2',
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

// Counts come from one grouped subquery per page, never a query per row.
const SELECT = `SELECT n.id, n.organization_id, n.name, n.environment_type,
    n.is_active, n.rate_limits, n.default_policy,
    n.created_at, n.updated_at, coalesce(s.cnt, 0)::int AS memories_count, coalesce(s.bytes, 0)::bigint AS storage_bytes
  FROM namespaces n
  LEFT JOIN LATERAL (
    SELECT count(*) AS cnt, sum(m.content_bytes) AS bytes FROM memories m
    WHERE m.organization_id = n.organization_id AND m.namespace_id = n.id
  ) s ON true`;

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

/** Insert; returns false when the organization already has a namespace of that name. */
export async function insertNamespaceRow(
  db: Queryable,
  id: string,
  organizationId: string,
  f: NamespaceFields & { name: string },
): Promise<boolean> {
  const rows = await db.query(
    `INSERT INTO namespaces (id, organization_id, name, environment_type, is_active, rate_limits, default_policy)
     VALUES ($1, $2, $3, coalesce($4, 'production'), coalesce($5, true),
             coalesce($6::jsonb, '{}'::jsonb), coalesce($7::jsonb, '{}'::jsonb))
     ON CONFLICT (organization_id, name) DO NOTHING RETURNING id`,
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
  return rows.length > 0;
}

const json = (v: unknown) => (v === undefined ? null : JSON.stringify(v));

/** True when a different namespace of the organization already has this name. */
export async function nameTaken(
  db: Queryable,
  organizationId: string,
  name: string,
  exceptId: string,
): Promise<boolean> {
  const rows = await db.query('SELECT 1 FROM namespaces WHERE organization_id = $1 AND name = $2 AND id <> $3', [
    organizationId,
    name,
    exceptId,
  ]);
  return rows.length > 0;
}

/** Partial update; returns false when no such namespace is in the organization. */
export async function updateNamespaceRow(
  db: Queryable,
  organizationId: string,
  id: string,
  f: NamespaceFields,
): Promise<boolean> {
  const rows = await db.query(
    `UPDATE namespaces SET name = coalesce($3, name), environment_type = coalesce($4, environment_type),
       is_active = coalesce($5, is_active), rate_limits = coalesce($6::jsonb, rate_limits),
       default_policy = coalesce($7::jsonb, default_policy), updated_at = now()
     WHERE organization_id = $1 AND id = $2 RETURNING id`,
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
  return rows.length > 0;
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
