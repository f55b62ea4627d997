import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { encode } from '@toon-format/toon';
import { errorResponses } from '../../platform/http/schemas.ts';
import { searchBody, searchQuery, searchResponse } from './search.schemas.ts';
import type { SearchService } from './search.service.ts';

/** POST /v1/memory/search (spec 4.11), JSON or TOON. */
export function searchRoutes(search: SearchService): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/v1/memory/search',
      {
        schema: {
          tags: ['memory'],
          summary: 'Search memories and graph nodes',
          querystring: searchQuery,
          body: searchBody,
          response: { 200: searchResponse, ...errorResponses },
        },
      },
      async (req, reply) => {
        const r = await search.search(req.actor, req.body, req.query.max_memories, req.query.max_nodes);
        const body = {
          code: 200,
          status: 'success',
          data: {
            memories: r.memories,
            nodes: r.nodes.slice(0, req.query.max_nodes),
            ...(r.schemas_used ? { schemas_used: r.schemas_used } : {}),
            ...(r.reranking ? { reranking: r.reranking } : {}),
          },
          error: null,
          search_id: r.search_id,
        };
        if (req.query.response_format === 'toon') {
          // TOON is plain text for model prompts; it bypasses the JSON serializer.
          return reply
            .type('text/plain; charset=utf-8')
            .header('x-content-format', 'toon')
            .serializer((p: unknown) => p as string)
            .send(encode(body) as never);
        }
        return body;
      },
    );
  };
}
