/**
 * `domain.catalog.refresh`: fold a catalog's buffered transforms into its counts. The fold, the
 * buffer's emptying and the job's completion commit together, so a crash between them redoes
 * the whole refresh, never half of it, and a rerun finds nothing left to fold.
 */
import type { JobHandler } from '../../platform/jobs/index.ts';
import type { CatalogService } from './catalog.service.ts';

export const CATALOG_REFRESH = 'domain.catalog.refresh';

/** The job's subject, or null for a malformed payload (nothing to do). */
function subject(job: { organization_id: string | null; payload: Record<string, unknown> }) {
  const domainId = job.payload.domain_id;
  return job.organization_id && typeof domainId === 'string' ? { org: job.organization_id, domainId } : null;
}

export function catalogJobs(catalog: Pick<CatalogService, 'refresh' | 'abandonRefresh'>): Record<string, JobHandler> {
  return {
    [CATALOG_REFRESH]: {
      async run(job, ctx) {
        const s = subject(job);
        if (!s) return;
        await ctx.db.transaction(async (tx) => {
          await catalog.refresh(tx, s.org, s.domainId, job.id);
          await ctx.complete(tx);
        });
      },
      async onDead(job, _error, ctx) {
        const s = subject(job);
        if (s) await catalog.abandonRefresh(ctx.db, s.org, s.domainId, job.id);
      },
    },
  };
}
