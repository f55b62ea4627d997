import type { Db, Queryable } from '../../platform/db/index.ts';
import type { Logger } from '../../platform/log.ts';
import { requestPatternBudget, type GraphPlan, type GraphPolicy, type PatternBudget } from '../graph/index.ts';
import { requireSelf, type UserContent, type UserDirectory } from '../users/index.ts';
import type { NamespaceAccess } from '../namespaces/index.ts';
import { requireOwnOrganization, requirePermission, type Actor } from '../../shared/actor.ts';
import { AppError } from '../../shared/errors.ts';
import { newId } from '../../shared/ids.ts';
import { iso } from '../../shared/time.ts';
import { normaliseMemory, type LegacyQuery, type MemoryInput } from './compat.ts';
import type { Embedders } from '../../platform/models/index.ts';
import type { UpdateDecider } from '../../platform/models/updater.ts';
import { buildChunks } from './indexing.ts';
import { addMemoryBody, type AddMemoryBody } from './memories.schemas.ts';
import { chunkIdsOf, type ChunkData, type MemoryRow } from './memories.store.ts';
import { createMemoryLifecycle } from './lifecycle.ts';
import type { Publish } from '../../platform/events/index.ts';
import type { Webhooks } from '../webhooks/index.ts';
import { batchStored } from './memory-events.ts';
import { createMemoryWriter, type StoredMemory } from './writer.ts';
import type { DedupeMode, TruthDefaults } from './truth.ts';
import type { OrganizationDefaults } from './write-modes.ts';

export interface MemoriesDeps {
  db: Db;
  embedders: Embedders;
  maxContentBytes: number;
  /** Records lifecycle events (they drive webhooks and WebSocket pushes). */
  publish: Publish;
  webhooks: Pick<Webhooks, 'check' | 'subscribe'>;
  log?: Logger;
  users: Pick<UserDirectory, 'get' | 'findByExternalId' | 'resolveExternal' | 'resolveExternalMany'>;
  namespaces: Pick<NamespaceAccess, 'resolveWriteNamespace'>;
  /** The write-time check of a memory's graph policy (the graph module's). */
  /** The graph plan of a memory being written, resolved once (the graph module's; 422 when it cannot be). */
  planGraph(db: Queryable, actor: Actor, policy: GraphPolicy, budget?: PatternBudget): Promise<GraphPlan>;
  /** A user's chat sessions, removed by delete-all as by a user deletion (the messages module's, given by the app). */
  sessions?: Pick<UserContent, 'deleteUserSessions'>;
  /** A user's document uploads, removed by delete-all after their memories (the documents module's). */
  documents?: Pick<UserContent, 'deleteUserDocuments'>;
  /** Duplicate folding and supersession by default (MEMORY_DEDUPE, MEMORY_SUPERSEDE; truth.ts). */
  truth?: TruthDefaults;
  /** An organization's own defaults, between a write's and the deployment's (write-modes.ts). */
  organizationTruth?: OrganizationDefaults;
  /** Where the attribute examples' embeddings are kept between starts (MODELS_CACHE_DIR). */
  modelsCacheDir?: string;
  /** MEMORY_UPDATE_DECIDER=llm: an LLM's supersession decisions, added to the offline ones (decider.ts). */
  decider?: UpdateDecider | null;
}

export interface AddedMemory {
  memoryId: string;
  objectId: string;
  createdAt: string;
  memoryChunkIds: string[];
  /** An exact duplicate: nothing was stored, memoryId is the existing memory's. */
  duplicate?: boolean;
  /** The older memory this one nearly repeats (stored, shown once by search). */
  duplicate_of?: string;
  /** Older memories this one superseded. */
  supersedes?: string[];
}

export interface WriteOptions extends LegacyQuery {
  skipBackgroundProcessing?: boolean;
  batchId?: string | null;
  webhook_url?: string;
  webhook_secret?: string;
  /** Overrides every item's duplicate handling (an import's skip_duplicates: false is `off`). */
  dedupe?: DedupeMode;
  /**
   * The memories belong to a container deleted as a whole (a document's chunks): an exact
   * duplicate is stored and linked rather than answered with the existing memory.
   */
  container?: boolean;
}

/** Memory writes and reads. Model calls happen before a transaction opens, never inside. */
export function createMemoriesService(deps: MemoriesDeps) {
  const { db, embedders, planGraph } = deps;
  const { resolveWriteNamespace } = deps.namespaces;

  const { checkSize, storeAll, truthReady, decideUpdates } = createMemoryWriter(deps);

  const added = async (row: StoredMemory, chunks: ChunkData[]): Promise<AddedMemory> => ({
    memoryId: row.id,
    objectId: row.id,
    createdAt: iso(row.created_at)!,
    memoryChunkIds: row.duplicate ? await chunkIdsOf(db, row.id) : chunks.map((c) => c.id),
    ...(row.duplicate ? { duplicate: true } : {}),
    ...(row.duplicateOf ? { duplicate_of: row.duplicateOf } : {}),
    ...(row.supersedes?.length ? { supersedes: row.supersedes } : {}),
  });

  function prepare(actor: Actor, body: AddMemoryBody, defaults: Partial<AddMemoryBody>, opts: WriteOptions) {
    requireOwnOrganization(actor, body.organization_id);
    const input = normaliseMemory(body, defaults, opts);
    return { input, bytes: checkSize(input.content) };
  }

  return {
    ...createMemoryLifecycle({ ...deps, checkSize }),

    /** POST /v1/memory */
    async add(actor: Actor, body: AddMemoryBody, opts: WriteOptions = {}): Promise<AddedMemory> {
      requirePermission(actor, 'write');
      const { input, bytes } = prepare(actor, body, {}, opts);
      await requireSelf(deps.users, db, actor, input);
      // The graph is built later, in the job, from the plan resolved now: a bad graph policy is the caller's 422.
      const plan = await planGraph(db, actor, input.policy);
      const hook = await deps.webhooks.check(opts.webhook_url, opts.webhook_secret);
      const [[chunks]] = await Promise.all([buildChunks([input.content], embedders), truthReady()]);
      const [decided] = await decideUpdates(actor, [{ input, chunks }]);
      const row = await db.transaction(async (tx) => {
        const [stored] = await storeAll(tx, actor, [{ input: decided, plan, chunks, bytes }], opts, { hook });
        if (stored instanceof AppError) throw stored;
        return stored;
      });
      return await added(row, chunks);
    },

    /**
     * POST /v1/memory/batch: every item validated on its own; valid items are stored in
     * groups of `batchSize` (one embedder call and one transaction per group), invalid
     * ones reported by index. A failing group fails only its own items.
     */
    async addBatch(
      actor: Actor,
      items: unknown[],
      defaults: Partial<AddMemoryBody>,
      batchSize: number,
      opts: WriteOptions = {},
    ) {
      requirePermission(actor, 'write');
      // The batch-level fields are the whole request's: refused as a whole, like an item's own.
      requireOwnOrganization(actor, defaults.organization_id);
      await requireSelf(deps.users, db, actor, { userId: defaults.user_id, externalUserId: defaults.external_user_id });
      const hook = await deps.webhooks.check(opts.webhook_url, opts.webhook_secret);
      const batchId = newId();
      const errors: { index: number; error: string; code: number; status: 'error'; details?: unknown }[] = [];
      const ok: { index: number; input: MemoryInput; bytes: number }[] = [];
      const plans = new Map<number, GraphPlan>();
      items.forEach((item, index) => {
        const parsed = addMemoryBody.safeParse(item);
        if (!parsed.success) {
          const issues = parsed.error.issues.map((i) => ({ field: i.path.join('.') || null, message: i.message }));
          errors.push({
            index,
            code: 422,
            status: 'error',
            error: `Invalid memory: ${issues.map((i) => `${i.field ?? 'item'}: ${i.message}`).join('; ')}`,
            details: { issues },
          });
          return;
        }
        try {
          ok.push({ index, ...prepare(actor, parsed.data, defaults, opts) });
        } catch (err) {
          errors.push(itemError(index, err instanceof AppError ? err : new AppError(422, String(err))));
        }
      });
      // Checks that need the store, before anything is written: a refused item (bad graph
      // policy, a namespace the caller may not write to) must leave nothing behind, not even
      // its new user.
      const namespaceChecks = new Map<string | undefined, Promise<AppError | null>>();
      // Manual graphs are checked against their schema's patterns with one budget for the batch.
      const patterns = requestPatternBudget();
      const refusal = (check: Promise<unknown>) => appErrorOf(check).then((r) => (r instanceof AppError ? r : null));
      const problemOf = async (x: (typeof ok)[number]) => {
        const self = await appErrorOf(requireSelf(deps.users, db, actor, x.input));
        if (self instanceof AppError) return self;
        const plan = await appErrorOf(planGraph(db, actor, x.input.policy, patterns));
        if (plan instanceof AppError) return plan;
        plans.set(x.index, plan);
        if (!namespaceChecks.has(x.input.namespaceId))
          namespaceChecks.set(x.input.namespaceId, refusal(resolveWriteNamespace(db, actor, x.input.namespaceId)));
        return namespaceChecks.get(x.input.namespaceId)!;
      };
      for (let i = ok.length - 1; i >= 0; i--) {
        const e = await problemOf(ok[i]);
        if (e) errors.push(itemError(ok.splice(i, 1)[0].index, e));
      }
      // Create the batch's new users first, in one statement of its own in a fixed order, so
      // the group transactions (which resolve and lock them again: one may be deleted in
      // between) rarely insert users and hold new index entries while they store.
      await deps.users.resolveExternalMany(
        db,
        actor.organizationId,
        ok.filter((x) => !x.input.userId && x.input.externalUserId).map((x) => x.input.externalUserId!),
      );
      const successes: { index: number; item: AddedMemory; bytes: number; storage: number }[] = [];
      // Pipelined: the next group's embeddings compute (in the model thread) while this group's
      // rows are written, so the store and the model are busy at the same time.
      const embed = (g: number) => {
        const pending = buildChunks(
          ok.slice(g, g + batchSize).map((x) => x.input.content),
          embedders,
        );
        pending.catch(() => undefined); // awaited in its turn; never an unhandled rejection meanwhile
        return pending;
      };
      await truthReady();
      let next = ok.length ? embed(0) : null;
      for (let g = 0; g < ok.length; g += batchSize) {
        const group = ok.slice(g, g + batchSize);
        const current = next!;
        next = g + batchSize < ok.length ? embed(g + batchSize) : null;
        try {
          const chunks = await current;
          const inputs = await decideUpdates(
            actor,
            group.map((x, i) => ({ input: x.input, chunks: chunks[i] })),
          );
          const rows = await db.transaction((tx) =>
            storeAll(
              tx,
              actor,
              group.map((x, i) => ({ ...x, input: inputs[i], plan: plans.get(x.index)!, chunks: chunks[i] })),
              { ...opts, batchId },
            ),
          );
          for (const [i, row] of rows.entries()) {
            const index = group[i].index;
            if (row instanceof AppError) errors.push(itemError(index, row));
            else
              successes.push({
                index,
                item: await added(row, chunks[i]),
                bytes: group[i].bytes,
                storage: row.duplicate ? 0 : storageBytes(row, chunks[i]),
              });
          }
        } catch (err) {
          if (!(err instanceof AppError)) deps.log?.error({ err, batchId }, 'storing a group of a batch failed');
          const e = err instanceof AppError ? err : new AppError(500, 'Storing this group of the batch failed');
          for (const x of group) errors.push({ index: x.index, code: e.code, status: 'error', error: e.message });
        }
      }
      if (successes.length) {
        // Every group is in: from now on the batch completes with its last memory (or now,
        // when they all finished already). Its webhook is registered in the same transaction.
        await db.transaction(async (tx) => {
          if (hook) await deps.webhooks.subscribe(tx, actor.organizationId, { batchId }, hook);
          await batchStored(tx, deps.publish, actor.organizationId, batchId);
        });
      }
      errors.sort((a, b) => a.index - b.index);
      successes.sort((a, b) => a.index - b.index);
      return {
        batchId: successes.length ? batchId : null,
        successes,
        errors,
        total: items.length,
        contentBytes: successes.reduce((s, x) => s + x.bytes, 0),
        storageBytes: successes.reduce((s, x) => s + x.storage, 0),
      };
    },
  };
}

/** A batch item refused with `e` (its index, in the batch result's `errors`). */
function itemError(index: number, e: AppError) {
  return { index, code: e.code, status: 'error' as const, error: e.message, details: e.details ?? undefined };
}

/** What a check resolves to, or the AppError it rejects with; other errors propagate. */
function appErrorOf<T>(check: Promise<T>): Promise<T | AppError> {
  return check.then(
    (value) => value,
    (err) => {
      if (err instanceof AppError) return err;
      throw err;
    },
  );
}

/** What a stored memory occupies: content, JSON columns and 4 bytes per vector dimension. */
function storageBytes(row: MemoryRow, chunks: ChunkData[]): number {
  const json =
    Buffer.byteLength(JSON.stringify(row.metadata)) +
    Buffer.byteLength(JSON.stringify(row.policy)) +
    (row.context ? Buffer.byteLength(JSON.stringify(row.context)) : 0);
  const vectors = chunks.reduce(
    (s, c) =>
      s +
      4 * ((c.embedding?.length ?? 0) + (c.embedding2?.length ?? 0)) +
      Buffer.byteLength(c.text) +
      Buffer.byteLength(c.terms),
    0,
  );
  return row.content_bytes + json + vectors;
}

export type MemoriesService = ReturnType<typeof createMemoriesService>;
