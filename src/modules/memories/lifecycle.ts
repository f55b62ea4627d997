import type { Db, Queryable } from '../../platform/db/index.ts';
import { storedGraphPolicy, type GraphPlan, type GraphPolicy } from '../graph/index.ts';
import type { NamespaceAccess } from '../namespaces/index.ts';
import { requireSelf, type UserDirectory } from '../users/index.ts';
import { requirePermission, type Actor } from '../../shared/actor.ts';
import { AppError, notFound } from '../../shared/errors.ts';
import { receipt, type DeletionReceipt } from '../../shared/receipt.ts';
import { iso } from '../../shared/time.ts';
import { canonicalCategory, normaliseMemory, type LegacyQuery } from './compat.ts';
import type { Embedders } from '../../platform/models/index.ts';
import { buildChunks } from './indexing.ts';
import { toMemoryObject, type MemoryObject } from './memory-object.ts';
import type { AddMemoryBody } from './memories.schemas.ts';
import type { MemoriesDeps } from './memories.service.ts';
import {
  chunkIdsOf,
  deleteChunks,
  deleteMemory,
  deleteUserMemories,
  getMemory,
  insertChunks,
  updateMemory,
  type ChunkData,
  type MemoryPatch,
  type MemoryRow,
} from './memories.store.ts';
import type { SafetyFilter } from './safety.ts';
import { aclLists } from './ownership.ts';
import { endUserReader as readerOf, type Reader } from './reader.ts';
import { enqueue } from '../../platform/jobs/index.ts';
import type { Publish } from '../../platform/events/index.ts';
import { MEMORY_PROCESS } from './memories.jobs.ts';
import { memoryTransitions } from './transitions.ts';
import { deleteFacts } from './facts.store.ts';
import { lineageOf, noLineage } from './lineage.store.ts';
import { createTruth, truthItemOf } from './truth.ts';
import { slotExamples } from './facts.classify.ts';
import { keepVersion, lockedMemory } from './history.store.ts';

interface LifecycleDeps {
  db: Db;
  embedders: Embedders;
  checkSize(content: string): number;
  publish: Publish;
  users: Pick<UserDirectory, 'get' | 'findByExternalId'>;
  namespaces: Pick<NamespaceAccess, 'resolveWriteNamespace'>;
  planGraph(db: Queryable, actor: Actor, policy: GraphPolicy): Promise<GraphPlan>;
  sessions?: MemoriesDeps['sessions'];
  documents?: MemoriesDeps['documents'];
  truth?: MemoriesDeps['truth'];
  organizationTruth?: MemoriesDeps['organizationTruth'];
  modelsCacheDir?: string;
}

const scopeOf = (actor: Actor) => ({ organizationId: actor.organizationId, namespaceId: actor.namespaceId });

/** A write by an end user needs ownership or a place on the memory's write list. */
function checkWrite(row: MemoryRow, reader: Reader | undefined): void {
  if (!reader || row.user_id === reader.userId) return;
  if (!row.acl_write.some((e) => reader.entities.includes(e))) {
    throw new AppError(403, 'You may read this memory but not change it (not on its write list)');
  }
}

/** Get, update, delete and delete-all. Another tenant's memory is simply not found. */
export function createMemoryLifecycle(deps: LifecycleDeps) {
  const { db, embedders, checkSize, publish, users, planGraph } = deps;
  const { resolveWriteNamespace } = deps.namespaces;
  const transitions = memoryTransitions(publish);
  const examples = slotExamples(embedders.primary, embedders.secondary, deps.modelsCacheDir);
  const defaults = deps.truth ?? { dedupe: 'near' as const, supersede: 'auto' as const };
  const truth = createTruth(defaults, examples, deps.organizationTruth ?? null);
  /** The end user an actor is limited to (reader.ts), or undefined for an API key. */
  const endUserReader = (actor: Actor) => readerOf(users, db, actor);

  return {
    async get(actor: Actor, id: string, safety?: SafetyFilter): Promise<MemoryObject> {
      requirePermission(actor, 'read');
      const row = await getMemory(db, scopeOf(actor), id, { safety, reader: await endUserReader(actor) });
      if (!row) throw notFound(`Memory ${id}`);
      const [chunkIds, lineage] = await Promise.all([
        chunkIdsOf(db, row.id),
        lineageOf(db, row.organization_id, [row.id]),
      ]);
      return toMemoryObject(row, chunkIds, lineage.get(row.id) ?? noLineage());
    },

    /** PUT: changed content is re-chunked and re-embedded (before the transaction). */
    async update(actor: Actor, id: string, body: Partial<AddMemoryBody>, legacy: LegacyQuery = {}) {
      requirePermission(actor, 'write');
      const reader = await endUserReader(actor);
      const current = await getMemory(db, scopeOf(actor), id, { reader });
      if (!current) throw notFound(`Memory ${id}`);
      checkWrite(current, reader);
      const patch: MemoryPatch = {};
      let graphPolicy: GraphPolicy | undefined;
      let chunks: ChunkData[] | undefined;
      if (body.content !== undefined && body.content !== current.content) {
        patch.content_bytes = checkSize(body.content);
        patch.content = body.content;
        [[chunks]] = await Promise.all([buildChunks([body.content], embedders), examples().catch(() => null)]);
      }
      if (body.type !== undefined) patch.type = body.type;
      if (body.context !== undefined) patch.context = body.context;
      if (body.metadata !== undefined) {
        const input = normaliseMemory({
          content: current.content,
          type: current.type,
          metadata: body.metadata,
        } as AddMemoryBody);
        patch.metadata = { ...current.metadata, ...input.metadata };
        if (patch.metadata.category !== undefined) patch.metadata.category = canonicalCategory(patch.metadata.category);
        patch.occurred_at = input.occurredAt ?? current.occurred_at;
      }
      if (
        body.policy ||
        body.memory_policy ||
        body.link_to ||
        body.graph_generation ||
        legacy.enable_holographic !== undefined
      ) {
        const input = normaliseMemory(
          { content: current.content, type: current.type, ...body } as AddMemoryBody,
          {},
          legacy,
        );
        graphPolicy = storedGraphPolicy(current.policy);
        graphPolicy = {
          graph: { ...graphPolicy.graph, ...input.policy.graph },
          graph_generation: input.policy.graph_generation ?? graphPolicy.graph_generation,
        };
        patch.policy = { ...current.policy, ...input.policy, ...graphPolicy };
        if (input.policy.acl) {
          const acl = aclLists({ userId: current.user_id, externalUserId: current.external_user_id }, input.policy.acl);
          patch.acl_read = acl.read;
          patch.acl_write = acl.write;
        }
        if (input.policy.consent) patch.consent = input.policy.consent;
        if (input.policy.risk) patch.risk = input.policy.risk;
      }
      // A changed policy is resolved into the plan the next processing builds from.
      if (graphPolicy) patch.graph_plan = await planGraph(db, actor, graphPolicy);
      // What the truth step reads of the models, loaded before the transaction (a namespace move re-reads facts).
      if (body.namespace_id !== undefined) await examples().catch(() => null);
      const result = await db.transaction(async (tx) => {
        // The target namespace is checked and key-share locked first, in this transaction: a
        // namespace deleted after a check made outside it failed the update's foreign key (a
        // 500); now its deletion waits for this update, or this update finds it gone (a 404).
        if (body.namespace_id !== undefined)
          patch.namespace_id = await resolveWriteNamespace(tx, actor, body.namespace_id);
        // What the memory said before is kept as a version (GET /v1/memory/{id}/history).
        // Locked first: a DELETE racing this PUT waits for it, or this PUT finds the memory gone (a 404).
        const says = ['content', 'type', 'metadata', 'context'] as const;
        if (says.some((k) => patch[k] !== undefined)) {
          const before = await lockedMemory(tx, actor.organizationId, id);
          if (!before) return undefined;
          await keepVersion(tx, before);
        }
        const updated = await updateMemory(tx, scopeOf(actor), id, patch);
        if (!updated) return undefined;
        // Its facts are read again, and compared with the owner's other memories as a new write's are.
        if (patch.content !== undefined || patch.namespace_id !== undefined) {
          await deleteFacts(tx, id);
          await truth.settle(
            tx,
            actor.organizationId,
            [updated],
            [truthItemOf(updated, { dedupe: 'off' })],
            [chunks ?? []],
          );
        }
        if (chunks) {
          await deleteChunks(tx, id);
          await insertChunks(tx, [{ memory: updated, chunks }]);
        }
        // What the graph is built from changed: process the memory again (docs/graph.md).
        const reprocess =
          patch.content !== undefined ||
          patch.policy !== undefined ||
          patch.consent !== undefined ||
          (patch.namespace_id !== undefined && patch.namespace_id !== current.namespace_id);
        if (reprocess && (await transitions.requeue(tx, actor.organizationId, id))) {
          await enqueue(tx, {
            kind: MEMORY_PROCESS,
            organizationId: actor.organizationId,
            payload: { memory_id: id },
          });
        }
        // Read in the transaction too: a delete right after the commit must not empty the answer.
        return { row: updated, chunkIds: chunks ? chunks.map((c) => c.id) : await chunkIdsOf(tx, id) };
      });
      if (!result) throw notFound(`Memory ${id}`);
      return { ...result, updatedAt: iso(result.row.updated_at)! };
    },

    /** DELETE /v1/memory/{id}: the memory and what hangs off it, in one transaction; the receipt. */
    async delete(actor: Actor, id: string): Promise<DeletionReceipt> {
      requirePermission(actor, 'delete');
      const reader = await endUserReader(actor);
      if (reader) {
        const current = await getMemory(db, scopeOf(actor), id, { reader });
        if (!current) throw notFound(`Memory ${id}`);
        checkWrite(current, reader);
      }
      const gone = await db.transaction((tx) => deleteMemory(tx, scopeOf(actor), id));
      if (!gone) throw notFound(`Memory ${id}`);
      return receipt(gone);
    },

    /**
     * DELETE /v1/memory/all: the user is `user_id` (internal), else `external_user_id`,
     * else the caller; `namespace_id` narrows it. Deletes exactly that user's memories.
     */
    async deleteAll(actor: Actor, q: { user_id?: string; external_user_id?: string; namespace_id?: string }) {
      requirePermission(actor, 'delete');
      await requireSelf(users, db, actor, { userId: q.user_id, externalUserId: q.external_user_id });
      let userId: string | undefined;
      if (q.user_id) userId = (await users.get(db, actor.organizationId, q.user_id))?.id;
      else if (q.external_user_id)
        userId = (await users.findByExternalId(db, actor.organizationId, q.external_user_id))?.id;
      else userId = actor.userId || undefined;
      if (!userId) throw new AppError(404, `User ${q.user_id ?? q.external_user_id ?? ''} not found`.trim());
      const namespaceId = q.namespace_id ? await resolveWriteNamespace(db, actor, q.namespace_id) : null;
      // The user's chat sessions and document uploads go too (the messages and documents modules', passed in).
      return db.transaction(async (tx) => {
        const gone = await deleteUserMemories(tx, scopeOf(actor), userId, namespaceId);
        const sessions = deps.sessions
          ? await deps.sessions.deleteUserSessions(tx, actor.organizationId, userId, namespaceId)
          : {};
        const documents =
          (await deps.documents?.deleteUserDocuments?.(tx, actor.organizationId, userId, namespaceId)) ?? {};
        return { gone: gone.rows, deleted: receipt(gone.receipt, sessions, documents) };
      });
    },
  };
}
