import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponses } from '../../platform/http/schemas.ts';
import { summaryQuery, summaryResponse, trackEventsBody, trackEventsResponse } from './telemetry.schemas.ts';
import type { TelemetryService } from './telemetry.service.ts';

const tags = ['telemetry'];

/** Telemetry (client `telemetry.trackEvent`; docs/telemetry.md). Thin: validate, one call, shape. */
export function telemetryRoutes(telemetry: TelemetryService): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/v1/telemetry/events',
      {
        schema: {
          tags,
          summary: 'Record telemetry events under the credential’s organization',
          body: trackEventsBody,
          response: { 200: trackEventsResponse, ...errorResponses },
        },
      },
      async (req) => telemetry.track(req.actor, req.body),
    );

    app.get(
      '/v1/telemetry/summary',
      {
        schema: {
          tags,
          summary: 'Telemetry event counts per day and event name (API keys)',
          querystring: summaryQuery,
          response: { 200: summaryResponse, ...errorResponses },
        },
      },
      async (req) => telemetry.summary(req.actor, req.query),
    );
  };
}
