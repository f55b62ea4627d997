import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponses } from '../../platform/http/schemas.ts';
import type { MemoryHistory } from './history.ts';
import { historyParams, historyResponse } from './history.schemas.ts';

/** GET /v1/memory/{memory_id}/history (an Engram extension; docs/truth.md). */
export function historyRoutes(history: MemoryHistory): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/v1/memory/:memory_id/history',
      {
        schema: {
          tags: ['memory'],
          summary: 'Versions of a memory and the memories that superseded or repeat it, newest first',
          params: historyParams,
          response: { 200: historyResponse, ...errorResponses },
        },
      },
      async (req) => ({
        code: 200,
        status: 'success' as const,
        data: await history.history(req.actor, req.params.memory_id),
      }),
    );
  };
}
