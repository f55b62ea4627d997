import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorEnvelope, errorResponses } from '../../platform/http/schemas.ts';
import type { SyncService } from './sync.service.ts';
import { deltaQuery, deltaResponse, tiersBody, tiersResponse } from './sync.schemas.ts';
import type { TiersService } from './tiers.service.ts';

const tags = ['sync'];
const ok = { code: 200, status: 'success', error: null } as const;

/** The change feed and the tier snapshot (client `sync.*`; docs/sync.md). Thin: validate, one call, shape. */
export function syncRoutes(sync: SyncService, tiers: TiersService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/v1/sync/delta',
      {
        schema: {
          tags,
          summary: 'Changes (upserts and deletes) since a cursor, in order',
          querystring: deltaQuery,
          response: {
            200: deltaResponse,
            ...errorResponses,
            410: errorEnvelope.describe('The cursor is older than the retained deletes: resync'),
          },
        },
      },
      async (req) => ({ ...ok, ...(await sync.delta(req.actor, req.query)) }),
    );

    app.post(
      '/v1/sync/tiers',
      {
        schema: {
          tags,
          summary: 'The memories most likely needed (tier 0) and the next (tier 1), with a delta cursor',
          body: tiersBody,
          response: { 200: tiersResponse, ...errorResponses },
        },
      },
      async (req) => ({ ...ok, details: null, transitions: [], ...(await tiers.tiers(req.actor, req.body)) }),
    );
  };
}
