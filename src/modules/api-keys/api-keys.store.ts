import type { Queryable } from '../../platform/db/index.ts';
import type { Permission } from '../../shared/actor.ts';

export interface ApiKeyRow {
  id: string;
  organization_id: string;
  namespace_id: string | null;
  user_id: string | null;
  name: string;
  environment: string;
  permissions: Permission[];
  key_prefix: string;
  is_active: boolean;
  created_at: Date;
  last_used_at: Date | null;
}

const COLUMNS =
  'id, organization_id, namespace_id, user_id, name, environment, permissions, ' +
  'key_prefix, is_active, created_at, last_used_at';

/** The active, unrevoked key with this hash, if any, and whether its namespace (if any) is active. */
export async function findActiveKeyByHash(
  db: Queryable,
  keyHash: string,
): Promise<(ApiKeyRow & { namespace_active: boolean | null }) | undefined> {
  const rows = await db.query<ApiKeyRow & { namespace_active: boolean | null }>(
    `SELECT ${COLUMNS.split(', ')
      .map((c) => `k.${c}`)
      .join(', ')}, n.is_active AS namespace_active
     FROM api_keys k LEFT JOIN namespaces n ON n.id = k.namespace_id
     WHERE k.key_hash = $1 AND k.is_active AND k.revoked_at IS NULL`,
    [keyHash],
  );
  return rows[0];
}

export interface NewApiKey {
  id: string;
  organizationId: string;
  namespaceId: string | null;
  userId: string | null;
  name: string;
  environment: string;
  permissions: Permission[];
  keyHash: string;
  keyPrefix: string;
}

export async function insertApiKey(db: Queryable, k: NewApiKey): Promise<ApiKeyRow> {
  const rows = await db.query<ApiKeyRow>(
    `INSERT INTO api_keys (id, organization_id, namespace_id, user_id, name, environment,
       permissions, key_hash, key_prefix)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING ${COLUMNS}`,
    [k.id, k.organizationId, k.namespaceId, k.userId, k.name, k.environment, k.permissions, k.keyHash, k.keyPrefix],
  );
  return rows[0];
}

/**
 * Insert a namespace key only while its namespace exists, in one statement: the namespace
 * row is key-share locked by it, so a deletion either waits for the key (and deletes it
 * with the namespace) or has already gone, and then nothing is inserted (undefined). A
 * separate check before the insert let a deletion in between fail the foreign key (a 500).
 * A minting user deleted meanwhile leaves the key ownerless, as deleting them later would.
 */
export async function insertNamespaceKey(
  db: Queryable,
  k: NewApiKey & { namespaceId: string },
): Promise<ApiKeyRow | undefined> {
  const rows = await db.query<ApiKeyRow>(
    `INSERT INTO api_keys (id, organization_id, namespace_id, user_id, name, environment,
       permissions, key_hash, key_prefix)
     SELECT $1, $2, $3, (SELECT u.id FROM users u WHERE u.id = $4 FOR KEY SHARE), $5, $6, $7::text[], $8, $9
     WHERE EXISTS (SELECT 1 FROM namespaces WHERE organization_id = $2 AND id = $3 FOR KEY SHARE)
     RETURNING ${COLUMNS}`,
    [k.id, k.organizationId, k.namespaceId, k.userId, k.name, k.environment, k.permissions, k.keyHash, k.keyPrefix],
  );
  return rows[0];
}

export async function keyHashExists(db: Queryable, keyHash: string): Promise<boolean> {
  return (await db.query('SELECT 1 FROM api_keys WHERE key_hash = $1', [keyHash])).length > 0;
}

export async function revokeApiKey(db: Queryable, organizationId: string, id: string): Promise<boolean> {
  const rows = await db.query(
    `UPDATE api_keys SET is_active = false, revoked_at = now()
     WHERE organization_id = $1 AND id = $2 AND revoked_at IS NULL RETURNING id`,
    [organizationId, id],
  );
  return rows.length > 0;
}

/** Record use at most once a minute per key, so a hot key costs no write per request. */
export async function touchApiKey(db: Queryable, id: string): Promise<void> {
  await db.query(
    `UPDATE api_keys SET last_used_at = now()
     WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute')`,
    [id],
  );
}

/** Keys bound to one namespace of the organization, newest first (never the hash). */
export async function listNamespaceKeys(
  db: Queryable,
  organizationId: string,
  namespaceId: string,
): Promise<ApiKeyRow[]> {
  return db.query<ApiKeyRow>(
    `SELECT ${COLUMNS} FROM api_keys WHERE organization_id = $1 AND namespace_id = $2
     ORDER BY created_at DESC, id DESC`,
    [organizationId, namespaceId],
  );
}

/** Revoke a key of one namespace; false when it is not there (or already revoked). */
export async function revokeNamespaceKey(
  db: Queryable,
  organizationId: string,
  namespaceId: string,
  id: string,
): Promise<boolean> {
  const rows = await db.query(
    `UPDATE api_keys SET is_active = false, revoked_at = now()
     WHERE organization_id = $1 AND namespace_id = $2 AND id = $3 AND revoked_at IS NULL RETURNING id`,
    [organizationId, namespaceId, id],
  );
  return rows.length > 0;
}

/**
 * Operator revocation by key id, in whatever organization it lives (the admin CLI runs
 * with database access, outside tenancy). Returns the key's organization, if revoked.
 */
export async function revokeApiKeyById(
  db: Queryable,
  id: string,
): Promise<{ organization_id: string; namespace_id: string | null } | undefined> {
  const rows = await db.query<{ organization_id: string; namespace_id: string | null }>(
    `UPDATE api_keys SET is_active = false, revoked_at = now() WHERE id = $1 AND revoked_at IS NULL
     RETURNING organization_id, namespace_id`,
    [id],
  );
  return rows[0];
}
