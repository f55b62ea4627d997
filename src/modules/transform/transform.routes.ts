import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponses } from '../../platform/http/schemas.ts';
import { rerankBody, rerankResponse, transformBody, transformResponse } from './transform.schemas.ts';
import type { TransformService } from './transform.service.ts';

/** POST /v1/graph/transform (spec 4.8) and POST /v1/graph/rerank (contract "Graph"). */
export function transformRoutes(service: TransformService, opts: { rerankBodyLimit: number }): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/v1/graph/transform',
      {
        schema: {
          tags: ['graph'],
          summary:
            'Transform text into a graph-transform artifact (bands, band embeddings, phases); batches with texts/items',
          body: transformBody,
          response: { 200: transformResponse, ...errorResponses },
        },
      },
      async (req) => service.transform(req.actor, req.body),
    );
    app.post(
      '/v1/graph/rerank',
      {
        // Documents may come as artifacts (~60 KB of JSON each): a limit of their own (RERANK_BODY_LIMIT_BYTES).
        bodyLimit: opts.rerankBodyLimit,
        schema: {
          tags: ['graph'],
          summary: 'Rerank documents (texts or artifacts) against a query with the graph-transform scores',
          body: rerankBody,
          response: { 200: rerankResponse, ...errorResponses },
        },
      },
      async (req) => service.rerank(req.actor, req.body),
    );
  };
}
