import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { uploadParams } from '../documents/index.ts';
import { batchStatusParams, memoryStatusParams } from '../memories/index.ts';
import { sessionParams } from '../messages/index.ts';
import type { Realtime } from './realtime.service.ts';

/**
 * WebSocket status streams (docs/realtime.md). Public at the HTTP layer because a browser
 * cannot set headers on a WebSocket: the hub authenticates from the upgrade headers or the
 * first message, and closes with 4401/4403/4404 when that fails.
 */
export function realtimeRoutes(realtime: Realtime): FastifyPluginAsyncZod {
  return async (app) => {
    const config = { public: true };
    app.get(
      '/ws/memory-status/batch/:batch_id',
      { websocket: true, config, schema: { hide: true, params: batchStatusParams } },
      (socket, req) => realtime.watch(socket, req.headers, 'batch', req.params.batch_id),
    );
    app.get(
      '/ws/memory-status/document/:upload_id',
      { websocket: true, config, schema: { hide: true, params: uploadParams } },
      (socket, req) => realtime.watch(socket, req.headers, 'document', req.params.upload_id),
    );
    app.get(
      '/ws/memory-status/session/:session_id',
      { websocket: true, config, schema: { hide: true, params: sessionParams } },
      (socket, req) => realtime.watch(socket, req.headers, 'session', req.params.session_id),
    );
    app.get(
      '/ws/memory-status/:memory_id',
      { websocket: true, config, schema: { hide: true, params: memoryStatusParams } },
      (socket, req) => realtime.watch(socket, req.headers, 'memory', req.params.memory_id),
    );
  };
}
