import type { Queryable } from '../../platform/db/index.ts';
import type { CatalogCounts } from './catalog.ts';

export interface CatalogRow {
  catalog: Partial<CatalogCounts>;
  pending: number;
  refresh_job_id: string | null;
  last_refreshed: Date | null;
  last_updated: Date | null;
}

export interface BufferRow {
  id: number;
  signals: Record<string, string>;
  created_at: Date;
}

const CATALOG = 'catalog, pending, refresh_job_id, last_refreshed, last_updated';
/** CATALOG of the row aliased `c`. */
const C_CATALOG = CATALOG.split(', ')
  .map((column) => `c.${column}`)
  .join(', ');

/**
 * The catalog row (undefined before the domain's first transform or refresh), how many transforms
 * its buffer holds, and the newest `recent` of them — in one statement, so one snapshot: read
 * apart, a refresh committing between the reads showed a refreshed catalog beside the buffer it
 * had just folded in (PostgreSQL, READ COMMITTED; the catalog test caught it under load).
 */
export async function catalogSnapshot(
  q: Queryable,
  org: string,
  domainId: string,
  recent: number,
): Promise<{ row: CatalogRow | undefined; size: number; recent: BufferRow[] }> {
  const [r] = await q.query<
    Partial<CatalogRow> & {
      found: boolean;
      size: number;
      recent: (Omit<BufferRow, 'created_at'> & { created_at: string })[];
    }
  >(
    `SELECT c.organization_id IS NOT NULL AS found, ${C_CATALOG},
       (SELECT count(*)::int FROM domain_catalog_buffer b WHERE b.organization_id = $1 AND b.domain_id = $2) AS size,
       (SELECT coalesce(json_agg(x ORDER BY x.id DESC), '[]'::json) FROM
          (SELECT id, signals, created_at FROM domain_catalog_buffer
           WHERE organization_id = $1 AND domain_id = $2 ORDER BY id DESC LIMIT $3) x) AS recent
     FROM (SELECT 1) AS one LEFT JOIN domain_catalogs c ON c.organization_id = $1 AND c.domain_id = $2`,
    [org, domainId, recent],
  );
  const { found, size, recent: rows, ...row } = r;
  return {
    row: found ? (row as CatalogRow) : undefined,
    size: Number(size),
    recent: rows.map((b) => ({ ...b, created_at: new Date(b.created_at) })),
  };
}

/**
 * The catalog row, created if missing, locked until the transaction ends: refreshes and the
 * enqueuing of refreshes of one catalog take turns (the no-op update is what takes the lock).
 */
export async function lockCatalogRow(q: Queryable, org: string, domainId: string): Promise<CatalogRow> {
  const rows = await q.query<CatalogRow>(
    `INSERT INTO domain_catalogs (organization_id, domain_id) VALUES ($1, $2)
     ON CONFLICT (organization_id, domain_id) DO UPDATE SET pending = domain_catalogs.pending
     RETURNING ${CATALOG}`,
    [org, domainId],
  );
  return rows[0];
}

/**
 * Buffer new transforms' band values and count them as pending, in one statement; the catalog
 * row stays locked until the transaction ends. Returns the new pending count and queued job.
 */
export async function bufferSignals(
  q: Queryable,
  org: string,
  domainId: string,
  signals: Record<string, string>[],
): Promise<{ pending: number; refresh_job_id: string | null }> {
  const rows = await q.query<{ pending: number; refresh_job_id: string | null }>(
    `WITH up AS (
       INSERT INTO domain_catalogs (organization_id, domain_id, pending, last_updated) VALUES ($1, $2, $3, now())
       ON CONFLICT (organization_id, domain_id)
       DO UPDATE SET pending = domain_catalogs.pending + EXCLUDED.pending, last_updated = now()
       RETURNING pending, refresh_job_id),
     ins AS (
       INSERT INTO domain_catalog_buffer (organization_id, domain_id, signals)
       SELECT $1, $2, s::jsonb FROM unnest($4::text[]) WITH ORDINALITY AS t(s, n) ORDER BY n)
     SELECT pending, refresh_job_id FROM up`,
    [org, domainId, signals.length, signals.map((s) => JSON.stringify(s))],
  );
  return rows[0];
}

/** Keep only the newest `keep` buffered rows of the catalog. */
export async function trimBuffer(q: Queryable, org: string, domainId: string, keep: number): Promise<void> {
  await q.query(
    `DELETE FROM domain_catalog_buffer WHERE organization_id = $1 AND domain_id = $2 AND id <= (
       SELECT id FROM domain_catalog_buffer WHERE organization_id = $1 AND domain_id = $2
       ORDER BY id DESC OFFSET $3 LIMIT 1)`,
    [org, domainId, keep],
  );
}

/** Buffered rows, oldest first (all of them), or the newest `limit` newest first. */
export async function bufferedRows(q: Queryable, org: string, domainId: string, limit?: number): Promise<BufferRow[]> {
  return q.query<BufferRow>(
    `SELECT id, signals, created_at FROM domain_catalog_buffer WHERE organization_id = $1 AND domain_id = $2
     ORDER BY id ${limit === undefined ? 'ASC' : 'DESC'} LIMIT $3`,
    [org, domainId, limit ?? null],
  );
}

/** Record the queued refresh job of a catalog (its row is locked by the caller's transaction). */
export async function setRefreshJob(q: Queryable, org: string, domainId: string, jobId: string): Promise<void> {
  await q.query('UPDATE domain_catalogs SET refresh_job_id = $3 WHERE organization_id = $1 AND domain_id = $2', [
    org,
    domainId,
    jobId,
  ]);
}

/** Forget the queued refresh `jobId` (it ended or died); a newer queued job is left alone. */
export async function clearRefreshJob(q: Queryable, org: string, domainId: string, jobId: string): Promise<void> {
  await q.query(
    `UPDATE domain_catalogs SET refresh_job_id = NULL
     WHERE organization_id = $1 AND domain_id = $2 AND refresh_job_id = $3`,
    [org, domainId, jobId],
  );
}

/** Store a refreshed catalog and drop the buffered rows it folded in (ids up to `foldedUpTo`). */
export async function writeCatalog(
  q: Queryable,
  org: string,
  domainId: string,
  catalog: CatalogCounts,
  foldedUpTo: number | null,
): Promise<Date> {
  if (foldedUpTo !== null)
    await q.query('DELETE FROM domain_catalog_buffer WHERE organization_id = $1 AND domain_id = $2 AND id <= $3', [
      org,
      domainId,
      foldedUpTo,
    ]);
  const [row] = await q.query<{ last_refreshed: Date }>(
    `UPDATE domain_catalogs SET catalog = $3::jsonb, pending = 0, last_refreshed = now()
     WHERE organization_id = $1 AND domain_id = $2 RETURNING last_refreshed`,
    [org, domainId, JSON.stringify(catalog)],
  );
  return row.last_refreshed;
}
