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

const COLUMNS = 'id, organization_id, external_id, email, display_name, image_url, type, metadata, created_at, updated_at';

export async function getUser(db: Queryable, organizationId: string, id: string): Promise<UserRow | undefined> {
  const rows = await db.query<UserRow>(`SELECT ${COLUMNS} FROM users WHERE organization_id = $1 AND id = $2`, [
    organizationId,
    id,
  ]);
  return rows[0];
}

export async function findUserByExternalId(
  db: Queryable,
  organizationId: string,
  externalId: string,
): Promise<UserRow | undefined> {
  const rows = await db.query<UserRow>(
    `SELECT ${COLUMNS} FROM users WHERE organization_id = $1 AND external_id = $2`,
    [organizationId, externalId],
  );
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
 * The internal user for an external id, created on first sight. Concurrent first
 * requests race on the unique index; the loser reads the winner's row.
 */
export async function resolveExternalUser(db: Queryable, organizationId: string, externalId: string): Promise<UserRow> {
  const found = await findUserByExternalId(db, organizationId, externalId);
  if (found) return found;
  await db.query(
    `INSERT INTO users (id, organization_id, external_id) VALUES ($1, $2, $3)
     ON CONFLICT (organization_id, external_id) WHERE external_id IS NOT NULL DO NOTHING`,
    [newId(), organizationId, externalId],
  );
  return (await findUserByExternalId(db, organizationId, externalId))!;
}
