import type { Queryable } from '../../platform/db/index.ts';
import type { CatalogConfig, SignalField } from './bands.ts';

export interface DomainRow {
  organization_id: string;
  domain_id: string;
  name: string;
  description: string;
  signals: SignalField[];
  signal_multipliers: Record<string, number>;
  catalog_config: CatalogConfig;
  routing_config: Record<string, unknown>;
  owner_user_id: string | null;
  owner_namespace_id: string | null;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = `organization_id, domain_id, name, description, signals, signal_multipliers, catalog_config,
  routing_config, owner_user_id, owner_namespace_id, created_at, updated_at`;

export async function getDomainRow(q: Queryable, organizationId: string, id: string): Promise<DomainRow | undefined> {
  const rows = await q.query<DomainRow>(
    `SELECT ${COLUMNS} FROM graph_domains WHERE organization_id = $1 AND domain_id = $2`,
    [organizationId, id],
  );
  return rows[0];
}

/** The organization's custom domains, oldest first. */
export async function listDomainRows(q: Queryable, organizationId: string): Promise<DomainRow[]> {
  return q.query<DomainRow>(
    `SELECT ${COLUMNS} FROM graph_domains WHERE organization_id = $1 ORDER BY created_at, domain_id`,
    [organizationId],
  );
}

export type NewDomainRow = Omit<DomainRow, 'created_at' | 'updated_at'>;

/** Insert; undefined when the organization already has that id. */
export async function insertDomainRow(q: Queryable, r: NewDomainRow): Promise<DomainRow | undefined> {
  const rows = await q.query<DomainRow>(
    `INSERT INTO graph_domains (organization_id, domain_id, name, description, signals, signal_multipliers,
       catalog_config, routing_config, owner_user_id, owner_namespace_id)
     VALUES ($1, $2, $3, $4, $5::jsonb, $6::jsonb, $7::jsonb, $8::jsonb, $9, $10)
     ON CONFLICT (organization_id, domain_id) DO NOTHING
     RETURNING ${COLUMNS}`,
    [
      r.organization_id,
      r.domain_id,
      r.name,
      r.description,
      JSON.stringify(r.signals),
      JSON.stringify(r.signal_multipliers),
      JSON.stringify(r.catalog_config),
      JSON.stringify(r.routing_config),
      r.owner_user_id,
      r.owner_namespace_id,
    ],
  );
  return rows[0];
}

export interface DomainChanges {
  name?: string;
  description?: string;
  signal_multipliers?: Record<string, number>;
  catalog_config?: CatalogConfig;
  routing_config?: Record<string, unknown>;
}

/** Apply the given changes (absent ones stay); undefined when the row is gone. */
export async function updateDomainRow(
  q: Queryable,
  organizationId: string,
  id: string,
  c: DomainChanges,
): Promise<DomainRow | undefined> {
  const json = (v: unknown) => (v === undefined ? null : JSON.stringify(v));
  const rows = await q.query<DomainRow>(
    `UPDATE graph_domains SET
       name = coalesce($3, name),
       description = coalesce($4, description),
       signal_multipliers = coalesce($5::jsonb, signal_multipliers),
       catalog_config = coalesce($6::jsonb, catalog_config),
       routing_config = coalesce($7::jsonb, routing_config),
       updated_at = now()
     WHERE organization_id = $1 AND domain_id = $2
     RETURNING ${COLUMNS}`,
    [
      organizationId,
      id,
      c.name ?? null,
      c.description ?? null,
      json(c.signal_multipliers),
      json(c.catalog_config),
      json(c.routing_config),
    ],
  );
  return rows[0];
}

/** Delete a custom domain with its catalog and buffered values; false when it was not there. */
export async function deleteDomainRow(q: Queryable, organizationId: string, id: string): Promise<boolean> {
  const rows = await q.query(
    `WITH d AS (DELETE FROM graph_domains WHERE organization_id = $1 AND domain_id = $2 RETURNING domain_id),
          c AS (DELETE FROM domain_catalogs WHERE organization_id = $1 AND domain_id IN (SELECT domain_id FROM d)),
          b AS (DELETE FROM domain_catalog_buffer
                WHERE organization_id = $1 AND domain_id IN (SELECT domain_id FROM d))
     SELECT domain_id FROM d`,
    [organizationId, id],
  );
  return rows.length > 0;
}
