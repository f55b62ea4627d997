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
import { insertChunks, insertMemories, type ChunkData, type MemoryRow, type NewMemory } from './memories.store.ts';
import { aclLists, resolveOwners } from './ownership.ts';
import { memoryTransitions } from './transitions.ts';

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
  ): Promise<(MemoryRow | AppError)[]> {
    const hook = extra.hook ?? null;
    const resolved = await resolveOwners(
      deps.users,
      tx,
      actor,
      items.map((x) => x.input),
    );
    const kept = items.flatMap((item, i) => {
      const owner = resolved[i];
      return owner instanceof AppError ? [] : [{ ...item, owner }];
    });
    const namespaces = new Map<string | undefined, Promise<string | null>>();
    const namespaceOf = (id: string | undefined) => {
      if (!namespaces.has(id)) namespaces.set(id, resolveWriteNamespace(tx, actor, id));
      return namespaces.get(id)!;
    };
    const organizationId = actor.organizationId;
    const news: NewMemory[] = [];
    for (const { input, plan, bytes, owner } of kept) {
      const acl = aclLists(owner, input.policy.acl);
      news.push({
        id: newId(),
        organization_id: organizationId,
        namespace_id: await namespaceOf(input.namespaceId),
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
      });
    }
    const rows = await insertMemories(tx, news);
    await insertChunks(
      tx,
      rows.map((memory, i) => ({ memory, chunks: kept[i].chunks })),
    );
    // The subscription exists before the event that may trigger it (skip → completed at once).
    if (hook) for (const row of rows) await deps.webhooks.subscribe(tx, organizationId, { memoryId: row.id }, hook);
    await transitions.stored(tx, organizationId, rows);
    if (!opts.skipBackgroundProcessing) {
      await enqueueAll(
        tx,
        rows.map((row) => ({ kind: MEMORY_PROCESS, organizationId, payload: { memory_id: row.id } })),
      );
    }
    const stored = rows.values();
    return resolved.map((owner) => (owner instanceof AppError ? owner : stored.next().value!));
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
    const chunks = await buildChunks(
      inputs.map((x) => x.input.content),
      deps.embedders,
    );
    return inputs.map((x, i): PreparedMemory => ({ ...x, plan: plans[i], chunks: chunks[i] }));
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

  return { checkSize, storeAll, prepareLinked, prepareEach, checkLinked };
}

export type MemoryWriter = ReturnType<typeof createMemoryWriter>;
