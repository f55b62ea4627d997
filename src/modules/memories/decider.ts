/**
 * The optional LLM decision for supersession (MEMORY_UPDATE_DECIDER=llm; docs/truth.md), in two
 * halves around the write's transaction:
 *
 * - before it (`createUpdateDecisions`, called where a write embeds its memories): each memory's
 *   nearest older memories of the same owner are shown to the decider, and what it says is put
 *   on the memory's truth request (`decided`). A model call never runs inside a transaction;
 * - inside it (`addDecided`, from truth.settle): those decisions join the offline links, with
 *   reason 'llm', once checked against what is stored now.
 *
 * The offline detection runs either way; the decider only adds to it. Any failure of the
 * decider (or of finding its candidates) is logged and the write goes on without it.
 */
import type { Queryable } from '../../platform/db/index.ts';
import type { Logger } from '../../platform/log.ts';
import { MAX_UPDATE_CANDIDATES, type UpdateDecider } from '../../platform/models/updater.ts';
import type { Actor } from '../../shared/actor.ts';
import type { UserDirectory } from '../users/index.ts';
import type { MemoryInput } from './compat.ts';
import { decisionCandidates, lockDecided } from './decider.store.ts';
import type { ChunkData, MemoryRow } from './memories.store.ts';
import type { DedupeMode, SupersedeMode, TruthDefaults } from './truth.ts';
import { writeModes, type OrganizationDefaults } from './write-modes.ts';
import type { Link } from './truth.store.ts';

/** What the decider said of one new memory: the older memories it retires, the one it repeats. */
export interface Decided {
  supersedes: string[];
  duplicateOf: string | null;
}

/** Decisions asked at once: a batch group's memories each wait on a call. */
const CONCURRENCY = 4;

export function createUpdateDecisions(deps: {
  db: Queryable;
  decider: UpdateDecider | null;
  users: Pick<UserDirectory, 'get' | 'findByExternalId'>;
  /** The deployment's defaults (MEMORY_SUPERSEDE: off asks nothing). */
  defaults: TruthDefaults;
  /** The organization's own defaults (write-modes.ts): an organization with supersession off asks nothing. */
  organization?: OrganizationDefaults | null;
  log?: Logger;
}) {
  const { db, decider } = deps;

  /** The owner's id if the user exists already (a new user has no older memories), without creating one. */
  async function existingOwner(actor: Actor, input: MemoryInput): Promise<string | null> {
    if (input.userId) return (await deps.users.get(db, actor.organizationId, input.userId))?.id ?? null;
    if (input.externalUserId)
      return (await deps.users.findByExternalId(db, actor.organizationId, input.externalUserId))?.id ?? null;
    return actor.userId ?? null;
  }

  async function decideOne(
    actor: Actor,
    input: MemoryInput,
    chunks: ChunkData[],
    modeOf: (t: MemoryInput['truth']) => { supersede: SupersedeMode },
  ): Promise<MemoryInput> {
    const first = chunks[0];
    if (!decider || modeOf(input.truth).supersede === 'off' || !first?.embedding || !first.embeddingModel) return input;
    try {
      const userId = await existingOwner(actor, input);
      if (!userId) return input;
      // The namespace the write lands in (resolveWriteNamespace's choice; it refuses a wrong one in the transaction).
      const namespaceId = actor.namespaceId || input.namespaceId || null;
      const candidates = await decisionCandidates(
        db,
        actor.organizationId,
        first.embeddingModel,
        { userId, namespaceId, vector: first.embedding },
        MAX_UPDATE_CANDIDATES,
      );
      if (!candidates.length) return input;
      const said = await decider.decide({ content: input.content, at: input.occurredAt ?? new Date(), candidates });
      const supersedes = said.actions.filter((a) => a.action !== 'none').map((a) => a.id);
      const duplicateOf = said.duplicateOf && !supersedes.includes(said.duplicateOf) ? said.duplicateOf : null;
      if (!supersedes.length && !duplicateOf) return input;
      return { ...input, truth: { ...input.truth, decided: { supersedes, duplicateOf } } };
    } catch (err) {
      // A write never fails because of the decider: the offline detection still runs.
      deps.log?.warn({ err, decider: decider.id }, 'update decider failed; supersession decided offline only');
      return input;
    }
  }

  /** `items`' inputs with the decider's decisions on them (the same inputs when there is no decider). */
  return async function decideUpdates(actor: Actor, items: { input: MemoryInput; chunks: ChunkData[] }[]) {
    const out = items.map((x) => x.input);
    if (!decider) return out;
    const modeOf = await writeModes(db, actor.organizationId, deps.defaults, deps.organization ?? null);
    let next = 0;
    const worker = async () => {
      for (let i = next++; i < items.length; i = next++)
        out[i] = await decideOne(actor, items[i].input, items[i].chunks, modeOf);
    };
    await Promise.all(Array.from({ length: Math.min(CONCURRENCY, items.length) }, worker));
    return out;
  };
}

export type DecideUpdates = ReturnType<typeof createUpdateDecisions>;

/**
 * Inside the write's transaction: add the decisions of `news` to `links` (the offline ones, in
 * place), checked against what is stored now. A named memory deleted since, another owner's, or
 * later than the new memory (a newer fact is never retired by an older one) is passed over. Like
 * the offline near duplicates, a duplicate is linked only with `dedupe: near`, and a memory in a
 * supersession is never also a near duplicate.
 */
export async function addDecided(
  tx: Queryable,
  organizationId: string,
  news: { row: MemoryRow; at: Date; decided?: Decided; dedupe: DedupeMode }[],
  links: Link[],
): Promise<void> {
  const wanted = news.filter((n): n is typeof n & { decided: Decided } => !!n.decided);
  if (!wanted.length) return;
  const named = wanted.flatMap((n) => [
    ...n.decided.supersedes,
    ...(n.decided.duplicateOf ? [n.decided.duplicateOf] : []),
  ]);
  const older = await lockDecided(tx, organizationId, [...new Set(named)]);
  // `at` null: any time (a repeat is one whenever it was said).
  const usable = (row: MemoryRow, id: string, at: Date | null) => {
    const o = older.get(id);
    return !!o && o.userId === row.user_id && id !== row.id && (!at || o.at <= at);
  };
  for (const { row, at, decided } of wanted)
    for (const id of decided.supersedes) {
      // A pair the offline detection found too is recorded as the LLM's decision.
      const known = links.find((l) => l.kind === 'supersedes' && l.memoryId === row.id && l.priorId === id);
      if (known) known.reason = 'llm';
      else if (usable(row, id, at))
        links.push({ memoryId: row.id, priorId: id, kind: 'supersedes', validTo: at, reason: 'llm' });
    }
  const retired = new Set(links.filter((l) => l.kind === 'supersedes').flatMap((l) => [l.priorId, l.memoryId]));
  for (let i = links.length - 1; i >= 0; i--)
    if (links[i].reason === 'near-duplicate' && retired.has(links[i].memoryId)) links.splice(i, 1);
  for (const { row, decided, dedupe } of wanted) {
    // Like a near duplicate found offline: only where the write links near duplicates.
    const id = dedupe === 'near' ? decided.duplicateOf : null;
    const linked = links.some((l) => l.kind === 'duplicate' && l.memoryId === row.id);
    if (id && !linked && !retired.has(row.id) && usable(row, id, null))
      links.push({ memoryId: row.id, priorId: id, kind: 'duplicate', validTo: null, reason: 'llm' });
  }
}
