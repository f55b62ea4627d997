import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../platform/db/index.ts';

const health = z.object({ status: z.literal('ok'), version: z.string() });
const ready = z.object({
  status: z.enum(['ready', 'unavailable']),
  store: z.object({
    kind: z.enum(['pglite', 'postgres']),
    ok: z.boolean(),
    latency_ms: z.number(),
    error: z.string().optional(),
  }),
});

/** Liveness (no I/O) and readiness (a store round trip); both public for probes. */
export function healthRoutes(db: Db, version: string): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/health',
      { config: { public: true }, schema: { tags: ['health'], response: { 200: health } } },
      async () => ({
        status: 'ok' as const,
        version,
      }),
    );
    app.get(
      '/ready',
      { config: { public: true }, schema: { tags: ['health'], response: { 200: ready, 503: ready } } },
      async (_req, reply) => {
        const t0 = performance.now();
        try {
          await db.ping();
          return { status: 'ready' as const, store: { kind: db.kind, ok: true, latency_ms: performance.now() - t0 } };
        } catch {
          return reply.code(503).send({
            status: 'unavailable' as const,
            store: { kind: db.kind, ok: false, latency_ms: performance.now() - t0, error: 'store unreachable' },
          });
        }
      },
    );
  };
}
