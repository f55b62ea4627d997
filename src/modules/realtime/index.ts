/** Live processing status over WebSocket (docs/realtime.md). */
import { realtimeRoutes } from './realtime.routes.ts';
import { createRealtime, type RealtimeDeps } from './realtime.service.ts';

export function createRealtimeModule(deps: RealtimeDeps) {
  const realtime = createRealtime(deps);
  return { routes: realtimeRoutes(realtime), close: () => realtime.close() };
}
