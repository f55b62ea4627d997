import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponses } from '../../platform/http/schemas.ts';
import { listMemoriesQuery, listMemoriesResponse } from './listing.schemas.ts';
import type { ListingService } from './listing.service.ts';

/**
 * GET /v1/memory (not in the client): memories newest first, filtered, a page at a time. A
 * static path of its own: GET /v1/memory/{memory_id}, /v1/memory/all and the status routes
 * are other routes.
 */
export function listingRoutes(listing: ListingService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/v1/memory',
      {
        schema: {
          tags: ['memory'],
          summary: 'List memories, newest first (keyset pages: next_cursor)',
          querystring: listMemoriesQuery,
          response: { 200: listMemoriesResponse, ...errorResponses },
        },
      },
      async (req) => {
        const page = await listing.list(req.actor, req.query);
        return {
          code: 200,
          status: 'success',
          error: null,
          data: { memories: page.memories },
          next_cursor: page.nextCursor,
          has_more: page.nextCursor !== null,
        };
      },
    );
  };
}
