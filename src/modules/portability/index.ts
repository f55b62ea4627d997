/**
 * Portability (issue #21): Open Memory Object export and import (docs/omo.md), and sync — a
 * change feed with tombstones and a tier snapshot for local caches (docs/sync.md). Built after
 * the memories module: imports go through its writer, like any other memory write.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../platform/db/index.ts';
import type { Logger } from '../../platform/log.ts';
import type { GraphExport } from '../graph/index.ts';
import type { MemoryWriter } from '../memories/index.ts';
import type { NamespaceAccess } from '../namespaces/index.ts';
import type { UserDirectory } from '../users/index.ts';
import { omoRoutes } from './omo.routes.ts';
import { createOmoService } from './omo.service.ts';
import { syncRoutes } from './sync.routes.ts';
import { createSyncService } from './sync.service.ts';
import { pruneTombstones } from './sync.store.ts';
import { createTiersService, type RatedUp } from './tiers.service.ts';

export interface PortabilityDeps {
  db: Db;
  log?: Logger;
  writer: Pick<MemoryWriter, 'prepareEach' | 'storeAll'>;
  users: Pick<UserDirectory, 'get' | 'findByExternalId'>;
  namespaces: Pick<NamespaceAccess, 'resolveWriteNamespace' | 'exists'>;
  graph: GraphExport;
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
