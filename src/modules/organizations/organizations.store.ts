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

/** Serialises bootstrap across processes starting together on one PostgreSQL. */
const BOOTSTRAP_LOCK = 72_420_002;

/** Hold the bootstrap lock until the end of the caller's transaction. */
export async function lockBootstrap(tx: Queryable): Promise<void> {
  await tx.query('SELECT pg_advisory_xact_lock($1)', [BOOTSTRAP_LOCK]);
}

/** The first organization created (the bootstrap one), if any. */
export async function firstOrganization(db: Queryable): Promise<OrganizationRow | undefined> {
  const rows = await db.query<OrganizationRow>(
    'SELECT id, name, created_at FROM organizations ORDER BY created_at, id LIMIT 1',
  );
  return rows[0];
}

export async function insertNamespace(db: Queryable, id: string, organizationId: string, name: string): Promise<void> {
  await db.query('INSERT INTO namespaces (id, organization_id, name) VALUES ($1, $2, $3)', [id, organizationId, name]);
}

export interface OrganizationSummary extends OrganizationRow {
  namespaces: number;
  active_keys: number;
}

/** Every organization with its namespace and live-key counts (operator view, not tenant-scoped). */
export async function listOrganizations(db: Queryable): Promise<OrganizationSummary[]> {
  return db.query<OrganizationSummary>(
    `SELECT o.id, o.name, o.created_at,
       (SELECT count(*)::int FROM namespaces n WHERE n.organization_id = o.id) AS namespaces,
       (SELECT count(*)::int FROM api_keys k WHERE k.organization_id = o.id
        AND k.is_active AND k.revoked_at IS NULL) AS active_keys
     FROM organizations o ORDER BY o.created_at, o.id`,
  );
}
