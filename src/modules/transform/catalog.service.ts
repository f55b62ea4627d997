/**
 * Catalogs of domains, per organization: transforms are buffered as they happen (`observe`),
 * and a `domain.catalog.refresh` job folds the buffer into the counts (catalog.ts) every
 * `refresh_every_n` transforms or on request. At most one refresh is queued per catalog.
 */
import type { Db, Queryable } from '../../platform/db/index.ts';
import { enqueueAll } from '../../platform/jobs/index.ts';
import { requirePermission, type Actor } from '../../shared/actor.ts';
import { notFound } from '../../shared/errors.ts';
import { iso } from '../../shared/time.ts';
import type { Domain } from './bands.ts';
import { catalogOf, foldCatalog, type CatalogCluster } from './catalog.ts';
import { CATALOG_REFRESH } from './catalog.jobs.ts';
import {
  bufferedRows,
  bufferSignals,
  clearRefreshJob,
  catalogSnapshot,
  lockCatalogRow,
  setRefreshJob,
  trimBuffer,
  writeCatalog,
  type CatalogRow,
} from './catalog.store.ts';

/** Buffered transforms kept per catalog; older ones are dropped (they still count as documents). */
export const CATALOG_BUFFER_CAP = 1000;
/** Buffered entries a domain response shows. */
export const RECENT_BUFFERED = 20;
/** Band values are stored this long at most: the catalog counts short values only anyway. */
const STORED_VALUE_CHARS = 500;

export type DomainLookup = (q: Queryable, organizationId: string, domainId: string) => Promise<Domain | undefined>;

/** `fn` in a transaction: `q`'s own when it is one, else a new one when `q` is the database. */
function inTransaction<T>(q: Queryable, fn: (tx: Queryable) => Promise<T>): Promise<T> {
  const db = q as Partial<Db>;
  return typeof db.transaction === 'function' ? db.transaction(fn) : fn(q);
}

/** The catalog as the API shows it (stored grouping keys left out). */
export function catalogView(row: CatalogRow | undefined) {
  const c = catalogOf(row?.catalog);
  const strip = (cs: CatalogCluster[]) => cs.map(({ label, count, members }) => ({ label, count, members }));
  return {
    total_documents: c.total_documents,
    domain_distribution: c.domain_distribution,
    signal_value_counts: c.signal_value_counts,
    entity_clusters: strip(c.entity_clusters),
    relationship_patterns: strip(c.relationship_patterns),
    last_refreshed: iso(row?.last_refreshed) ?? null,
    last_updated: iso(row?.last_updated) ?? null,
  };
}
export type CatalogView = ReturnType<typeof catalogView>;

/** The domain's bands of a transform's signals, non-empty and bounded. */
function bandValues(domain: Domain, signals: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const { name } of domain.signals) {
    const v = signals[name];
    if (typeof v === 'string' && v.trim()) out[name] = v.slice(0, STORED_VALUE_CHARS);
  }
  return out;
}

export function createCatalogService({ db, domainFor }: { db: Db; domainFor: DomainLookup }) {
  /** Queue a refresh of a catalog whose row the transaction holds locked; its job id. */
  async function enqueueRefresh(tx: Queryable, org: string, domainId: string): Promise<string> {
    const [job] = await enqueueAll(tx, [
      { kind: CATALOG_REFRESH, organizationId: org, payload: { domain_id: domainId }, maxAttempts: 3 },
    ]);
    await setRefreshJob(tx, org, domainId, job.id);
    return job.id;
  }

  async function known(q: Queryable, org: string, domainId: string): Promise<Domain> {
    const domain = await domainFor(q, org, domainId);
    if (!domain) throw notFound(`Domain ${domainId}`);
    return domain;
  }

  /**
   * Buffer the band values of transforms in `domainId` (any id that names it) within `q`'s
   * transaction (or a new one), and queue a refresh when `refresh_every_n` transforms are
   * pending and none is queued. `due`: a refresh is due; `jobId`: the queued refresh, if any.
   * Nothing is buffered when the domain's catalog is disabled.
   */
  async function observeAll(q: Queryable, org: string, domainId: string, signals: Record<string, string>[]) {
    return inTransaction(q, async (tx) => {
      const domain = await known(tx, org, domainId);
      if (!domain.catalog_config.enabled || !signals.length) return { due: false, jobId: null };
      const id = domain.domain_id;
      const row = await bufferSignals(
        tx,
        org,
        id,
        signals.map((s) => bandValues(domain, s)),
      );
      // The buffer holds at most `pending` rows, so below the cap there is nothing to drop.
      if (row.pending > CATALOG_BUFFER_CAP) await trimBuffer(tx, org, id, CATALOG_BUFFER_CAP);
      const every = domain.catalog_config.refresh_every_n;
      const due = every > 0 && row.pending >= every;
      const jobId = due && !row.refresh_job_id ? await enqueueRefresh(tx, org, id) : row.refresh_job_id;
      return { due, jobId };
    });
  }

  return {
    observeAll,

    /** One transform's band values (see observeAll); what the transform code calls after each. */
    observe(q: Queryable, organizationId: string, domainId: string, signals: Record<string, string>) {
      return observeAll(q, organizationId, domainId, [signals]);
    },

    /** The catalog and the newest buffered entries, for a domain response. */
    async forDomain(q: Queryable, org: string, domainId: string) {
      const { row, recent } = await catalogSnapshot(q, org, domainId, RECENT_BUFFERED);
      return {
        catalog: catalogView(row),
        catalog_buffer: recent.map((r) => ({ signals: r.signals, timestamp: iso(r.created_at)! })),
      };
    },

    /** GET /v1/graph/domains/{id}/catalog */
    async view(actor: Actor, domainId: string) {
      requirePermission(actor, 'read');
      const domain = await known(db, actor.organizationId, domainId);
      const id = domain.domain_id;
      const { row, size } = await catalogSnapshot(db, actor.organizationId, id, 0);
      return {
        domain_id: id,
        ...catalogView(row),
        catalog_buffer_size: size,
        pending: row?.pending ?? 0,
        refresh_job_id: row?.refresh_job_id ?? null,
      };
    },

    /** POST /v1/graph/domains/{id}/catalog/refresh: queue a refresh, or name the one queued. */
    async requestRefresh(actor: Actor, domainId: string) {
      requirePermission(actor, 'write');
      const domain = await known(db, actor.organizationId, domainId);
      const id = domain.domain_id;
      const jobId = await db.transaction(async (tx) => {
        const row = await lockCatalogRow(tx, actor.organizationId, id);
        return row.refresh_job_id ?? enqueueRefresh(tx, actor.organizationId, id);
      });
      return { status: 'queued' as const, job_id: jobId, domain_id: id };
    },

    /**
     * Fold the buffer into the catalog and empty it, in `tx` (the job's). Idempotent: a second
     * run finds an empty buffer. False when the domain no longer exists (deleted since).
     */
    async refresh(tx: Queryable, org: string, domainId: string, jobId: string): Promise<boolean> {
      const domain = await domainFor(tx, org, domainId);
      if (!domain) return false;
      const id = domain.domain_id;
      const row = await lockCatalogRow(tx, org, id);
      const rows = await bufferedRows(tx, org, id);
      const next = foldCatalog(domain, catalogOf(row.catalog), rows, row.pending);
      await writeCatalog(tx, org, id, next, rows.length ? rows[rows.length - 1].id : null);
      await clearRefreshJob(tx, org, id, jobId);
      return true;
    },

    /** A refresh job gave up: let the next transforms queue another. */
    async abandonRefresh(q: Queryable, org: string, domainId: string, jobId: string): Promise<void> {
      await clearRefreshJob(q, org, domainId, jobId);
    },
  };
}

export type CatalogService = ReturnType<typeof createCatalogService>;
