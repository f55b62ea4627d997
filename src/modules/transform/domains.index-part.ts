/**
 * The domains part of the transform module, for its index.ts to build and expose: the service
 * (resolve/observe for transform and rerank), the routes of /v1/graph/domains, and the
 * catalog refresh job handler for the worker.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../platform/db/index.ts';
import type { JobHandler } from '../../platform/jobs/index.ts';
import { catalogJobs } from './catalog.jobs.ts';
import { domainsRoutes } from './domains.routes.ts';
import { createDomainsService, type DomainsService } from './domains.service.ts';

export interface DomainsPart {
  service: DomainsService;
  routes: FastifyPluginAsyncZod;
  jobs: Record<string, JobHandler>;
}

export function createDomainsPart(deps: { db: Db }): DomainsPart {
  const service = createDomainsService(deps);
  return { service, routes: domainsRoutes(service), jobs: catalogJobs(service.catalog) };
}

export { CATALOG_REFRESH } from './catalog.jobs.ts';
export { BUILTIN_DOMAINS, builtinFor, DEFAULT_DOMAIN_ID, resolveDomainId } from './domains.builtin.ts';
export type { DomainsService } from './domains.service.ts';
