import type { Queryable } from '../../platform/db/index.ts';

export interface OrganizationRow {
  id: string;
  name: string;
  created_at: Date;
}

export async function insertOrganization(db: Queryable, id: string, name: string): Promise<OrganizationRow> {
  const rows = await db.query<OrganizationRow>(
    'INSERT INTO organizations (id, name) VALUES ($1, $2) RETURNING id, name, created_at',
    [id, name],
  );
  return rows[0];
}

/** The first organization created (the bootstrap one), if any. */
export async function firstOrganization(db: Queryable): Promise<OrganizationRow | undefined> {
  const rows = await db.query<OrganizationRow>('SELECT id, name, created_at FROM organizations ORDER BY created_at, id LIMIT 1');
  return rows[0];
}

export async function insertNamespace(db: Queryable, id: string, organizationId: string, name: string): Promise<void> {
  await db.query('INSERT INTO namespaces (id, organization_id, name) VALUES ($1, $2, $3)', [id, organizationId, name]);
}
