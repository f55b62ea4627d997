/**
 * Portability (issue #21): Open Memory Object export and import (docs/omo.md), and sync — a
 * change feed with tombstones and a tier snapshot for local caches (docs/sync.md). Built after
 * the memories module: imports go through its writer, like any other memory write.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { omoRoutes } from './omo.routes.ts';
import { createOmoService, type OmoDeps } from './omo.service.ts';
import { syncRoutes } from './sync.routes.ts';
import { createSyncService } from './sync.service.ts';
import { pruneTombstones } from './sync.store.ts';
import { createTiersService, type RatedUp } from './tiers.service.ts';

/** The OMO service's dependencies, and sync's. */
export interface PortabilityDeps extends OmoDeps {
  /** SYNC_TOMBSTONE_RETENTION_DAYS: a delta cursor older than the retained tombstones is a 410. */
  tombstoneRetentionDays: number;
  /** Positive feedback per memory for the tier score (optional; the feedback module's, when wired). */
  ratedUp?: RatedUp;
}

export function createPortabilityModule(deps: PortabilityDeps) {
  const omo = createOmoService(deps);
  const sync = createSyncService(deps);
  const tiers = createTiersService(deps);
  const routes: FastifyPluginAsyncZod = async (app) => {
    await app.register(omoRoutes(omo));
    await app.register(syncRoutes(sync, tiers));
  };
  return { omo, sync, tiers, routes };
}
export type PortabilityModule = ReturnType<typeof createPortabilityModule>;

/** POST /v1/memory?format=omo: the memories module's OmoBodies port (stateless; built before that module). */
export { omoMemoryBodies } from './omo.intake.ts';

/** Retention of sync tombstones (the maintenance pass): those older than `days` go; returns how many. */
export { pruneTombstones };
export type { RatedUp } from './tiers.service.ts';
