/**
 * Graph transform (docs/transform.md): domains and their catalogs, artifacts (bands, band
 * embeddings, phases) made by POST /v1/graph/transform and by memory writes with
 * policy.transform_embedding, the rerank endpoint, and the artifact scores behind the
 * svc_enhanced / svc_max search providers. Built after the memories module (its processing
 * step) and before search (its rerank port).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../platform/db/index.ts';
import type { JobHandler } from '../../platform/jobs/index.ts';
import { createDomainsPart } from './domains.index-part.ts';
import { transformPolicyCheck } from './policy-check.ts';
import { graphRerankPort } from './search-port.ts';
import { transformRoutes } from './transform.routes.ts';
import { createTransformService } from './transform.service.ts';
import { transformStep } from './transform.step.ts';
import type { Transformer } from './transformer.ts';

export function createTransformModule(deps: { db: Db; transformer: Transformer; rerankBodyLimit: number }) {
  const domains = createDomainsPart({ db: deps.db });
  const service = createTransformService({ db: deps.db, transformer: deps.transformer, domains: domains.service });
  const routes: FastifyPluginAsyncZod = async (app) => {
    await app.register(domains.routes);
    await app.register(transformRoutes(service, { rerankBodyLimit: deps.rerankBodyLimit }));
  };
  return {
    service,
    routes,
    /** svc_enhanced / svc_max: artifact scores of search candidates. */
    searchPort: graphRerankPort({ db: deps.db, transformer: deps.transformer, domains: domains.service }),
    /** The write-time check of policy.transform_embedding (a memory write's 422, not a failed job). */
    checkPolicy: transformPolicyCheck(domains.service),
  };
}

/**
 * The worker's side: the memory-processing step of policy.transform_embedding (with the
 * worker's own transformer, on the indexing embedder) and the catalog refresh job.
 */
export function transformProcessing(deps: { db: Db; transformer: Transformer }): {
  step: ReturnType<typeof transformStep>;
  jobs: Record<string, JobHandler>;
  checkPolicy: ReturnType<typeof transformPolicyCheck>;
} {
  const domains = createDomainsPart({ db: deps.db });
  return {
    step: transformStep({ transformer: deps.transformer, domains: domains.service }),
    jobs: domains.jobs,
    checkPolicy: transformPolicyCheck(domains.service),
  };
}

export { createTransformer, qwenFrom, sbertFrom, type Transformer } from './transformer.ts';
export type { GraphRerankPort } from '../search/index.ts';
