/**
 * Storing memories: the one path every write takes (single add, batch, and modules that record
 * something with their memories, such as messages). Model calls happen before a transaction
 * opens, never inside: `prepareLinked` validates, plans and embeds; `storeAll` writes inside
 * the caller's transaction.
 */
import type { Queryable } from '../../platform/db/index.ts';
import { enqueueAll } from '../../platform/jobs/index.ts';
import type { Actor } from '../../shared/actor.ts';
import { requireOwnOrganization } from '../../shared/actor.ts';
import { AppError, unprocessable } from '../../shared/errors.ts';
import { newId } from '../../shared/ids.ts';
import type { GraphPlan } from '../graph/index.ts';
import type { WebhookRequest } from '../webhooks/index.ts';
import { normaliseMemory, type MemoryInput } from './compat.ts';
import { buildChunks } from './indexing.ts';
import { MEMORY_PROCESS } from './memories.jobs.ts';
import type { AddMemoryBody } from './memories.schemas.ts';
import type { MemoriesDeps, WriteOptions } from './memories.service.ts';
import {
  getMemories,
  insertChunks,
  insertMemories,
  type ChunkData,
  type MemoryRow,
  type NewMemory,
} from './memories.store.ts';
import { aclLists, resolveOwners } from './ownership.ts';
import { memoryTransitions } from './transitions.ts';
import { createTruth, type TruthItem } from './truth.ts';
import { slotExamples } from './facts.classify.ts';
import { insertLinks } from './truth.store.ts';
import { createUpdateDecisions } from './decider.ts';

/**
 * A write's outcome: the memory stored, or (`duplicate`) the existing memory it repeats, with
 * what the stored one supersedes and the older memory it nearly repeats.
 */
export type StoredMemory = MemoryRow & { duplicate?: boolean; duplicateOf?: string | null; supersedes?: string[] };

/** A memory ready to store: validated, its graph planned and its chunks embedded. */
export interface PreparedMemory {
  input: MemoryInput;
  plan: GraphPlan;
  chunks: ChunkData[];
  bytes: number;
}

export function createMemoryWriter(deps: MemoriesDeps) {
  const transitions = memoryTransitions(deps.publish);
  const { resolveWriteNamespace } = deps.namespaces;
  // The attribute examples are embedded beside the first write's chunks, never inside its transaction.
  const examples = slotExamples(deps.embedders.primary, deps.embedders.secondary, deps.modelsCacheDir);
  const defaults = deps.truth ?? { dedupe: 'near' as const, supersede: 'auto' as const };
  const truth = createTruth(defaults, examples, deps.organizationTruth ?? null);
  // MEMORY_UPDATE_DECIDER=llm: asked after embedding, before any transaction (decider.ts).
  const decideUpdates = createUpdateDecisions({
    db: deps.db,
    decider: deps.decider ?? null,
    users: deps.users,
    defaults,
    organization: deps.organizationTruth ?? null,
    log: deps.log,
  });

  function checkSize(content: string): number {
    const bytes = Buffer.byteLength(content, 'utf8');
    if (bytes > deps.maxContentBytes) {
      throw unprocessable(`content is ${bytes} bytes; the limit is ${deps.maxContentBytes}`, {
        field: 'content',
        bytes,
        limit: deps.maxContentBytes,
      });
    }
    return bytes;
  }

  /**
   * Insert prepared memories with their chunks, events and jobs (inside the caller's
   * transaction) in a few statements whatever their number: on PGlite every statement waits
   * its turn on the one connection, so a group of 100 memories stored one by one (~800
   * statements) held up every other request for its whole length. Owners are resolved and
   * locked here, in the transaction; an item whose owner cannot be (an unknown user_id) is
   * not stored: its AppError stands in its place in the result, the others are stored.
   */
  async function storeAll(
    tx: Queryable,
    actor: Actor,
    items: { input: MemoryInput; plan: GraphPlan; chunks: ChunkData[]; bytes: number }[],
    opts: WriteOptions,
    extra: { hook?: WebhookRequest | null } = {},
  ): Promise<(StoredMemory | AppError)[]> {
    const hook = extra.hook ?? null;
    const resolved = await resolveOwners(
      deps.users,
      tx,
      actor,
      items.map((x) => x.input),
    );
    const namespaces = new Map<string | undefined, Promise<string | null>>();
    const namespaceOf = (id: string | undefined) => {
      if (!namespaces.has(id)) namespaces.set(id, resolveWriteNamespace(tx, actor, id));
      return namespaces.get(id)!;
    };
    const kept: (PreparedMemory & {
      owner: Exclude<(typeof resolved)[number], AppError>;
      namespaceId: string | null;
      at: number;
    })[] = [];
    for (const [i, item] of items.entries()) {
      const owner = resolved[i];
      if (!(owner instanceof AppError))
        kept.push({ ...item, owner, namespaceId: await namespaceOf(item.input.namespaceId), at: i });
    }
    const organizationId = actor.organizationId;
    const truthItems: TruthItem[] = kept.map((k) => ({
      userId: k.owner.userId,
      namespaceId: k.namespaceId,
      content: k.input.content,
      externalUserId: k.owner.externalUserId ?? null,
      truth: { ...k.input.truth, ...(opts.dedupe ? { dedupe: opts.dedupe } : {}) },
    }));
    // Exact duplicates are answered with what is stored; a container's (a document's) are stored and linked.
    const dup = await truth.duplicates(tx, organizationId, truthItems);
    const folds = (j: number) => !opts.container && (dup.existing[j] !== null || dup.earlier[j] !== null);
    const store = kept.flatMap((k, j) => (folds(j) ? [] : [{ k, j }]));
    const news: NewMemory[] = store.map(({ k: { input, plan, bytes, owner, namespaceId } }) => {
      const acl = aclLists(owner, input.policy.acl);
      return {
        id: newId(),
        organization_id: organizationId,
        namespace_id: namespaceId,
        user_id: owner.userId,
        external_user_id: owner.externalUserId,
        content: input.content,
        type: input.type,
        metadata: input.metadata,
        context: input.context ?? null,
        policy: input.policy,
        acl_read: acl.read,
        acl_write: acl.write,
        consent: input.policy.consent ?? 'implicit',
        risk: input.policy.risk ?? 'none',
        // Stored with its chunks, the memory is searchable (quick_saved); the rest runs in the
        // memory.process job, enqueued below in this same transaction (docs/jobs.md).
        status: opts.skipBackgroundProcessing ? 'completed' : 'quick_saved',
        batch_id: opts.batchId ?? null,
        content_bytes: bytes,
        occurred_at: input.occurredAt,
        graph_plan: plan,
      };
    });
    const rows = await insertMemories(tx, news);
    await insertChunks(
      tx,
      rows.map((memory, i) => ({ memory, chunks: store[i].k.chunks })),
    );
    const settled = await truth.settle(
      tx,
      organizationId,
      rows,
      store.map((x) => truthItems[x.j]),
      store.map((x) => x.k.chunks),
    );
    const rowOf = new Map(store.map((x, i) => [x.j, i]));
    if (opts.container) {
      // A container's exact duplicates: stored, and linked to the memory they repeat.
      const links = store.flatMap(({ j }, i) => {
        const prior = dup.existing[j] ?? (dup.earlier[j] !== null ? rows[rowOf.get(dup.earlier[j]!)!]?.id : null);
        if (!prior || settled[i].duplicateOf) return [];
        settled[i].duplicateOf = prior;
        return [{ memoryId: rows[i].id, priorId: prior, kind: 'duplicate' as const, validTo: null, reason: 'exact' }];
      });
      await insertLinks(tx, organizationId, links);
    }
    // The subscription exists before the event that may trigger it (skip → completed at once).
    if (hook) for (const row of rows) await deps.webhooks.subscribe(tx, organizationId, { memoryId: row.id }, hook);
    await transitions.stored(tx, organizationId, rows);
    if (!opts.skipBackgroundProcessing) {
      await enqueueAll(
        tx,
        rows.map((row) => ({ kind: MEMORY_PROCESS, organizationId, payload: { memory_id: row.id } })),
      );
    }
    const existing = new Map(
      (
        await getMemories(
          tx,
          { organizationId, namespaceId: null },
          dup.existing.filter((x): x is string => !!x),
        )
      ).map((r) => [r.id, r]),
    );
    const outcome = (j: number): StoredMemory => {
      const i = rowOf.get(j);
      if (i !== undefined) return { ...rows[i], ...settled[i] };
      const earlier = dup.earlier[j];
      const row = earlier !== null ? rows[rowOf.get(earlier)!] : existing.get(dup.existing[j]!)!;
      return { ...row, duplicate: true };
    };
    let j = 0;
    return resolved.map((owner) => (owner instanceof AppError ? owner : outcome(j++)));
  }

  /**
   * For a module that records something with its memories in one transaction (messages):
   * validate, plan and embed `bodies` now, outside any transaction. The caller then opens its
   * transaction, checks its own state and calls `storeAll` with what is still to store. An
   * invalid body rejects the whole call (the caller built them).
   */
  async function prepareLinked(actor: Actor, bodies: AddMemoryBody[], opts: WriteOptions = {}) {
    const inputs = bodies.map((body) => {
      requireOwnOrganization(actor, body.organization_id);
      const input = normaliseMemory(body, {}, opts);
      return { input, bytes: checkSize(input.content) };
    });
    const plans = await Promise.all(inputs.map((x) => deps.planGraph(deps.db, actor, x.input.policy)));
    const [chunks] = await Promise.all([
      buildChunks(
        inputs.map((x) => x.input.content),
        deps.embedders,
      ),
      examples().catch(() => null),
    ]);
    const decided = await decideUpdates(
      actor,
      inputs.map((x, i) => ({ input: x.input, chunks: chunks[i] })),
    );
    return inputs.map((x, i): PreparedMemory => ({ ...x, input: decided[i], plan: plans[i], chunks: chunks[i] }));
  }

  /**
   * `prepareLinked` for bodies that may be refused one by one (background work storing what
   * a client sent earlier): a body the memory write refuses (4xx) is its AppError in the
   * result, the others are prepared. Model and store errors throw: the caller's job retries.
   */
  async function prepareEach(actor: Actor, bodies: AddMemoryBody[], opts: WriteOptions = {}) {
    const refusal = (err: unknown) => {
      if (err instanceof AppError && err.code < 500) return err;
      throw err;
    };
    const all = await prepareLinked(actor, bodies, opts).catch(refusal);
    if (!(all instanceof AppError)) return all;
    const each: (PreparedMemory | AppError)[] = [];
    for (const body of bodies) each.push(await prepareLinked(actor, [body], opts).then(([p]) => p, refusal));
    return each;
  }

  /**
   * Refuse now what `prepareLinked` would refuse later (normalisation, size, graph policy),
   * without embedding: a module that stores its record first and the memory in the background
   * (messages) answers the caller's bad input with the same 4xx as POST /v1/memory.
   */
  async function checkLinked(actor: Actor, body: AddMemoryBody, opts: WriteOptions = {}): Promise<void> {
    requireOwnOrganization(actor, body.organization_id);
    const input = normaliseMemory(body, {}, opts);
    checkSize(input.content);
    await deps.planGraph(deps.db, actor, input.policy);
  }

  return {
    checkSize,
    storeAll,
    prepareLinked,
    prepareEach,
    checkLinked,
    decideUpdates,
    /** Load what the truth step needs from the models (before a transaction). */
    truthReady: () =>
      examples().then(
        () => undefined,
        () => undefined,
      ),
  };
}

export type MemoryWriter = ReturnType<typeof createMemoryWriter>;
