/**
 * Telemetry events clients send (client `telemetry.trackEvent`; docs/telemetry.md): stored under
 * the credential's organization, counted per day, pruned after TELEMETRY_RETENTION_DAYS by the
 * maintenance pass (`pruneTelemetry`), switched off by TELEMETRY_ENABLED=false.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { telemetryRoutes } from './telemetry.routes.ts';
import { createTelemetryService, type TelemetryDeps } from './telemetry.service.ts';

export function createTelemetryModule(deps: TelemetryDeps) {
  const service = createTelemetryService(deps);
  const routes: FastifyPluginAsyncZod = async (app) => app.register(telemetryRoutes(service));
  return { service, routes };
}

export { pruneTelemetry } from './telemetry.store.ts';
export type { TelemetryDeps } from './telemetry.service.ts';
