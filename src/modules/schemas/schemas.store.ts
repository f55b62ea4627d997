import type { Queryable } from '../../platform/db/index.ts';
import type { SchemaScope, SchemaStatus, UserGraphSchema } from './schemas.schemas.ts';

/** The stored fields of a schema, as written by create and update. */
export interface SchemaFields {
  namespace_id: string | null;
  user_id: string | null;
  workspace_id: string | null;
  name: string;
  description: string | null;
  version: string;
  status: SchemaStatus;
  scope: SchemaScope;
  node_types: UserGraphSchema['node_types'];
  relationship_types: UserGraphSchema['relationship_types'];
  memory_policy: Record<string, unknown> | null;
  read_access: string[];
  write_access: string[];
}

export interface SchemaRow extends SchemaFields {
  id: string;
  organization_id: string;
  usage_count: number;
  last_used_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

/**
 * Who is reading. A namespace reader sees its namespace's schemas and the organization-wide
 * ones (no namespace); personal schemas are seen by their creator only, unless `trusted`
 * (an internal caller acting for the organization, e.g. a graph job).
 */
export interface SchemaReader {
  organizationId: string;
  namespaceId: string | null;
  userId: string | null;
  trusted?: boolean;
}

const COLUMNS = `id, organization_id, namespace_id, user_id, workspace_id, name, description, version, status, scope,
  node_types, relationship_types, memory_policy, read_access, write_access,
  usage_count, last_used_at, created_at, updated_at`;

/** Visibility of live (not soft-deleted) schemas for a reader; pushes its parameters. */
function visibleSql(r: SchemaReader, params: unknown[]): string {
  params.push(r.organizationId, r.namespaceId);
  const org = params.length - 1;
  const ns = params.length;
  let sql = `organization_id = $${org} AND deleted_at IS NULL
    AND ($${ns}::text IS NULL OR namespace_id = $${ns} OR namespace_id IS NULL)`;
  if (!r.trusted) {
    params.push(r.userId);
    sql += ` AND (scope <> 'personal' OR user_id = $${params.length})`;
  }
  return sql;
}

/** One live schema the reader may see; `lock` holds the row for an update in this transaction. */
export async function getSchemaRow(
  db: Queryable,
  r: SchemaReader,
  id: string,
  lock = false,
): Promise<SchemaRow | undefined> {
  const params: unknown[] = [id];
  const rows = await db.query<SchemaRow>(
    `SELECT ${COLUMNS} FROM graph_schemas WHERE id = $1 AND ${visibleSql(r, params)}${lock ? ' FOR UPDATE' : ''}`,
    params,
  );
  return rows[0];
}

export interface SchemaListFilter {
  /** One status; absent means every status but `archived`. */
  status?: SchemaStatus;
  workspaceId?: string;
  namespaceId?: string;
  scope?: SchemaScope;
}

/** One page of the schemas a reader may see, oldest first, and the count of all matching. */
export async function listSchemaRows(
  db: Queryable,
  r: SchemaReader,
  f: SchemaListFilter,
  limit: number,
  skip: number,
): Promise<{ rows: SchemaRow[]; total: number }> {
  const params: unknown[] = [];
  const where = [visibleSql(r, params)];
  const add = (sql: string, value: unknown) => {
    params.push(value);
    where.push(sql.replace('?', `$${params.length}`));
  };
  if (f.status) add('status = ?', f.status);
  else where.push(`status <> 'archived'`);
  if (f.workspaceId) add('workspace_id = ?', f.workspaceId);
  if (f.namespaceId) add('namespace_id = ?', f.namespaceId);
  if (f.scope) add('scope = ?', f.scope);
  const sql = where.join(' AND ');
  const [{ total }] = await db.query<{ total: number }>(
    `SELECT count(*)::int AS total FROM graph_schemas WHERE ${sql}`,
    params,
  );
  const rows = await db.query<SchemaRow>(
    `SELECT ${COLUMNS} FROM graph_schemas WHERE ${sql}
     ORDER BY created_at, id LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
    [...params, limit, skip],
  );
  return { rows, total: Number(total) };
}

const values = (f: SchemaFields) => [
  f.namespace_id,
  f.user_id,
  f.workspace_id,
  f.name,
  f.description,
  f.version,
  f.status,
  f.scope,
  JSON.stringify(f.node_types),
  JSON.stringify(f.relationship_types),
  f.memory_policy === null ? null : JSON.stringify(f.memory_policy),
  f.read_access,
  f.write_access,
];

export async function insertSchemaRow(
  db: Queryable,
  id: string,
  organizationId: string,
  f: SchemaFields,
): Promise<SchemaRow> {
  const rows = await db.query<SchemaRow>(
    `INSERT INTO graph_schemas (id, organization_id, namespace_id, user_id, workspace_id, name,
       description, version, status, scope, node_types, relationship_types, memory_policy, read_access, write_access)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11::jsonb, $12::jsonb, $13::jsonb, $14::text[], $15::text[])
     RETURNING ${COLUMNS}`,
    [id, organizationId, ...values(f)],
  );
  return rows[0];
}

/** Replace every stored field of a live schema (the service merged them); undefined when gone. */
export async function updateSchemaRow(
  db: Queryable,
  organizationId: string,
  id: string,
  f: SchemaFields,
): Promise<SchemaRow | undefined> {
  const rows = await db.query<SchemaRow>(
    `UPDATE graph_schemas SET namespace_id = $3, user_id = $4, workspace_id = $5, name = $6,
       description = $7, version = $8,
       status = $9, scope = $10, node_types = $11::jsonb, relationship_types = $12::jsonb, memory_policy = $13::jsonb,
       read_access = $14::text[], write_access = $15::text[], updated_at = now()
     WHERE organization_id = $1 AND id = $2 AND deleted_at IS NULL RETURNING ${COLUMNS}`,
    [organizationId, id, ...values(f)],
  );
  return rows[0];
}

/** Soft delete: archived and hidden from every read. False when no live schema has that id. */
export async function softDeleteSchemaRow(db: Queryable, organizationId: string, id: string): Promise<boolean> {
  const rows = await db.query(
    `UPDATE graph_schemas SET status = 'archived', deleted_at = now(), updated_at = now()
     WHERE organization_id = $1 AND id = $2 AND deleted_at IS NULL RETURNING id`,
    [organizationId, id],
  );
  return rows.length > 0;
}

/** Count one use of a schema (memory extraction or a checked graph write). */
export async function recordSchemaUse(db: Queryable, organizationId: string, id: string): Promise<void> {
  await db.query(
    'UPDATE graph_schemas SET usage_count = usage_count + 1, last_used_at = now() ' +
      'WHERE organization_id = $1 AND id = $2 AND deleted_at IS NULL',
    [organizationId, id],
  );
}
