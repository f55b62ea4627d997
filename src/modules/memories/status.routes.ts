import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponses } from '../../platform/http/schemas.ts';
import type { MemoryStatusService } from './status.service.ts';
import { batchStatusParams, batchStatusResponse, memoryStatusParams, memoryStatusResponse } from './status.schemas.ts';

const tags = ['memory'];
const ok = { code: 200, status: 'success' as const };

/**
 * Processing status of a memory and of a batch (client `memory.retrieveStatus`,
 * `memory.retrieveBatchStatus`). Static segments: `/v1/memory/status/x` never reaches
 * `/v1/memory/:memory_id` (Fastify prefers static segments; tested).
 */
export function statusRoutes(status: MemoryStatusService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/v1/memory/status/:memory_id',
      {
        schema: {
          tags,
          summary: 'Memory processing status',
          params: memoryStatusParams,
          response: { 200: memoryStatusResponse, ...errorResponses },
        },
      },
      async (req) => ({ ...ok, ...(await status.memory(req.actor, req.params.memory_id)) }),
    );

    app.get(
      '/v1/memory/batch/status/:batch_id',
      {
        schema: {
          tags,
          summary: 'Batch processing status',
          params: batchStatusParams,
          response: { 200: batchStatusResponse, ...errorResponses },
        },
      },
      async (req) => ({ ...ok, ...(await status.batch(req.actor, req.params.batch_id)) }),
    );
  };
}
