import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../platform/db/index.ts';

/**
 * Whether search has its embedding models loaded: the port the composition root passes in
 * (models load after the port opens, so probes see the process before search is warm).
 */
export interface SearchReadiness {
  ready: boolean;
  embedders: { id: string; role: 'primary' | 'secondary'; dimensions: number }[];
  /** How long the warm-up took, once done. */
  warmup_ms?: number;
  /** Why the warm-up failed, if it did. */
  error?: string;
}

const health = z.object({
  status: z.literal('ok').describe('Always ok: the process answers'),
  version: z.string().describe('Engram version'),
});
const ready = z.object({
  status: z
    .enum(['ready', 'unavailable'])
    .describe('ready when the store answers (503 unavailable otherwise); does not wait for search to warm up'),
  store: z
    .object({
      kind: z.enum(['pglite', 'postgres']).describe('The store: embedded PGlite or PostgreSQL'),
      ok: z.boolean().describe('Whether the store answered a round trip'),
      latency_ms: z.number().describe('Time of that round trip'),
      error: z.string().optional().describe('Why it failed, when it did'),
    })
    .describe('The store round trip'),
  search: z
    .object({
      ready: z
        .boolean()
        .describe(
          'Whether the embedding models are loaded (and the vector indexes prepared). Until then searches ' +
            'and writes still work, waiting for the model they need on first use',
        ),
      embedders: z
        .array(
          z.object({
            id: z.string().describe('Model id stored with each vector, e.g. use-lite-512'),
            role: z.enum(['primary', 'secondary']).describe('Which dense signal of the search fusion it is'),
            dimensions: z.number().int().min(1).max(100_000).describe('Vector size'),
          }),
        )
        .describe('The configured embedding models'),
      warmup_ms: z.number().optional().describe('How long loading them took after start, once done'),
      error: z.string().optional().describe('Why loading them failed, if it did (they are retried on use)'),
    })
    .describe('Whether search is warm'),
});

/**
 * Liveness (no I/O) and readiness (a store round trip, and whether search is warm); both
 * public for probes. `/ready` is 200 as soon as the store answers, whatever the models do,
 * so a probe does not flap while they load; its body says when search is warm.
 */
export function healthRoutes(db: Db, version: string, search: () => SearchReadiness): FastifyPluginAsyncZod {
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
          return {
            status: 'ready' as const,
            store: { kind: db.kind, ok: true, latency_ms: performance.now() - t0 },
            search: search(),
          };
        } catch {
          return reply.code(503).send({
            status: 'unavailable' as const,
            store: { kind: db.kind, ok: false, latency_ms: performance.now() - t0, error: 'store unreachable' },
            search: search(),
          });
        }
      },
    );
  };
}
