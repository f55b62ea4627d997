/**
 * Memories: writes (single, batch), reads, updates, deletes, processing status, and the
 * background pipeline that moves a stored memory through its processing steps (docs/jobs.md).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Publish } from '../../platform/events/index.ts';
import type { JobHandler } from '../../platform/jobs/index.ts';
import { memoryJobs, type ProcessingStep } from './memories.jobs.ts';
import { memoriesRoutes, type OmoBodies } from './memories.routes.ts';
import { createMemoriesService, type MemoriesDeps } from './memories.service.ts';
import { createBatchPort } from './batches.ts';
import { createMemoryWriter } from './writer.ts';
import {
  deleteNamespaceMemories,
  deleteUserMemories,
  detachNamespaceMemories,
  getMemories,
  removeAclEntry,
} from './memories.store.ts';
import { statusRoutes } from './status.routes.ts';
import { lineageOf, statementsOf } from './lineage.store.ts';
import { createHistory } from './history.ts';
import { historyRoutes } from './history.routes.ts';
import { createMemoryStatusService } from './status.service.ts';
import { listingRoutes } from './listing.routes.ts';
import { createListingService } from './listing.service.ts';

export function createMemoriesModule(deps: MemoriesDeps & { omoBodies?: OmoBodies }) {
  const service = createMemoriesService(deps);
  const writer = createMemoryWriter(deps);
  const status = createMemoryStatusService({ db: deps.db, users: deps.users });
  const listing = createListingService({ db: deps.db, users: deps.users });
  const history = createHistory({ db: deps.db, users: deps.users });
  const routes: FastifyPluginAsyncZod = async (app) => {
    // Before the memory routes: the static /status/ segments stay visibly apart from /:memory_id.
    await app.register(statusRoutes(status));
    await app.register(memoriesRoutes(service, deps.omoBodies));
    await app.register(listingRoutes(listing));
    await app.register(historyRoutes(history));
  };
  return {
    service,
    /** Storing memories inside another module's transaction (messages: a message and its memory at once). */
    writer,
    /** A batch's lifecycle for modules with batches of their own (documents). */
    batches: createBatchPort(deps),
    /** Processing status of memories and batches (REST and the WebSocket pushes). */
    status,
    /** The newest memories an actor may read, a page at a time (GET /v1/memory, GraphQL `memories`). */
    listing,
    routes,
    /** What a user deletion removes of memories (the users module's port). */
    userContent: {
      deleteUserContent: async (...args: Parameters<typeof deleteUserMemories>) =>
        (await deleteUserMemories(...args)).receipt,
    },
    /** What a namespace deletion does to memories (the namespaces module's port). */
    namespaceContent: {
      deleteIn: deleteNamespaceMemories,
      detachFrom: detachNamespaceMemories,
      removeAclEntry,
    },
  };
}
export type MemoriesModule = ReturnType<typeof createMemoriesModule>;

/**
 * The job handlers of memory processing (the worker role builds these alone): `memory.process`
 * runs `steps` (the graph …) and completes the memory, or fails it once its job is dead.
 */
export function memoryProcessing(deps: { publish: Publish; steps: ProcessingStep[] }): Record<string, JobHandler> {
  return memoryJobs(deps.publish, deps.steps);
}

/** What search reads of memories (stateless; each call takes its connection). */
export const memoryReader = { getMany: getMemories, lineage: lineageOf, statements: statementsOf };
export type MemoryReader = typeof memoryReader;

export { canonicalCategory, normaliseMemory } from './compat.ts';
export { toMemoryObject, memoryObject, searchResponse, lineageFields, type MemoryObject } from './memory-object.ts';
export { noLineage, type Lineage as MemoryLineage } from './lineage.store.ts';
/** What a question asks about (search puts the current statement of it first; docs/truth.md). */
export { slotExamples, type SlotExamples } from './facts.classify.ts';
export { questionSlot } from './facts.questions.ts';
export { ASKS_PAST, questionSubject } from './facts.ts';
export { selfNamesOf } from './truth.ts';
export { normaliseAclEntry, resolveOwner, type OwnerDirectory } from './ownership.ts';
export { safetySql, type SafetyFilter } from './safety.ts';
export { aclConfig, addMemoryBody, memoryMetadata, updateMemoryBody, type AddMemoryBody } from './memories.schemas.ts';
export { memoryStatusParams, batchStatusParams } from './status.schemas.ts';
export type { MemoryRow, Scope } from './memories.store.ts';
/** The columns of a MemoryRow, for modules whose stores read memories (sync, OMO export). */
export { MEMORY_COLUMNS as memoryColumns } from './memories.store.ts';
export { endUserReader, type Reader } from './reader.ts';
export type { ProcessingStep } from './memories.jobs.ts';
export type { MemoryWriter, PreparedMemory } from './writer.ts';
export type { OmoBodies } from './memories.routes.ts';
export type { BatchPort } from './batches.ts';
export { purgeEmptyBatches } from './purge.store.ts';
export type { BatchProgress } from './status.store.ts';
export type { MemoryStatusService } from './status.service.ts';
export { parseListQuery, type ListingService } from './listing.service.ts';
