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

/**
 * An organization's own defaults for keeping memories true (docs/truth.md, "Per organization"):
 * null is the deployment's.
 */
export interface OrganizationTruth {
  dedupe: 'near' | 'exact' | 'off' | null;
  supersede: 'auto' | 'off' | null;
}

export interface OrganizationSummary extends OrganizationRow, OrganizationTruth {
  namespaces: number;
  active_keys: number;
}

/** The organization's defaults for keeping memories true, or null when there is no such organization. */
export async function organizationTruth(db: Queryable, id: string): Promise<OrganizationTruth | null> {
  const rows = await db.query<OrganizationTruth>(
    'SELECT memory_dedupe AS dedupe, memory_supersede AS supersede FROM organizations WHERE id = $1',
    [id],
    // Read by every write (memories/truth.ts): planned once per connection.
    { prepared: true },
  );
  return rows[0] ?? null;
}

/** Set the given defaults (null: back to the deployment's); undefined when there is no such organization. */
export async function setOrganizationTruth(
  db: Queryable,
  id: string,
  patch: Partial<OrganizationTruth>,
): Promise<(OrganizationRow & OrganizationTruth) | undefined> {
  const rows = await db.query<OrganizationRow & OrganizationTruth>(
    `UPDATE organizations SET
       memory_dedupe = CASE WHEN $2 THEN $3 ELSE memory_dedupe END,
       memory_supersede = CASE WHEN $4 THEN $5 ELSE memory_supersede END,
       updated_at = now()
     WHERE id = $1
     RETURNING id, name, created_at, memory_dedupe AS dedupe, memory_supersede AS supersede`,
    [id, patch.dedupe !== undefined, patch.dedupe ?? null, patch.supersede !== undefined, patch.supersede ?? null],
  );
  return rows[0];
}

/** Every organization with its namespace and live-key counts (operator view, not tenant-scoped). */
export async function listOrganizations(db: Queryable): Promise<OrganizationSummary[]> {
  return db.query<OrganizationSummary>(
    `SELECT o.id, o.name, o.created_at, o.memory_dedupe AS dedupe, o.memory_supersede AS supersede,
       (SELECT count(*)::int FROM namespaces n WHERE n.organization_id = o.id) AS namespaces,
       (SELECT count(*)::int FROM api_keys k WHERE k.organization_id = o.id
        AND k.is_active AND k.revoked_at IS NULL) AS active_keys
     FROM organizations o ORDER BY o.created_at, o.id`,
  );
}
