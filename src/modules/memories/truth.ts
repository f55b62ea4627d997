/**
 * Keeping memories true at write time, inside the write's transaction (docs/truth.md):
 *
 * - an exact duplicate of a current memory of the same owner (same folded content) is not
 *   stored: the write answers with the existing memory (`duplicate`). Memories that belong to a
 *   container deleted as a whole (a document's chunks) are stored and linked instead, so that
 *   deleting one document never removes what another one holds;
 * - a near duplicate (truth.near.ts: close by the primary embedding and in wording, no word
 *   replaced, no name, number or date differing) is stored and linked to the older one: search
 *   shows one of them;
 * - a memory that states a new value of a single-valued attribute of the same subject, or
 *   negates the old value (facts.ts), supersedes the older memories that stated it: they keep
 *   their content and get `valid_to` (the newer one's time) and `superseded_by`. The time order
 *   is the memories' own (`metadata.createdAt`, else when they were stored), so a backfilled
 *   older fact is itself the superseded one. A write may also name what it supersedes.
 *
 * Writes of the same owner are serialised for the transaction (truth.store lockOwners).
 */
import type { Queryable } from '../../platform/db/index.ts';
import { unprocessable } from '../../shared/errors.ts';
import type { SlotExamples } from './facts.classify.ts';
import { storedClaims } from './facts.claims.ts';
import { detectedSupersessions } from './truth.detect.ts';
import type { ChunkData, MemoryRow } from './memories.store.ts';
import { NEAR, namesDiffer, nearWording } from './truth.near.ts';
import { addDecided, type Decided } from './decider.ts';
import {
  exactDuplicates,
  insertLinks,
  lockOwners,
  nearestOwned,
  ownersOf,
  type Link,
  type Owner,
} from './truth.store.ts';
import { insertFacts, type OwnedFacts } from './facts.store.ts';
import { modesPerTransaction, type OrganizationDefaults } from './write-modes.ts';

export type DedupeMode = 'near' | 'exact' | 'off';
export type SupersedeMode = 'auto' | 'off';

/** The deployment's defaults (MEMORY_DEDUPE, MEMORY_SUPERSEDE); a write may override them. */
export interface TruthDefaults {
  dedupe: DedupeMode;
  supersede: SupersedeMode;
}

/** What one write asks of this step (AddMemoryBody's dedupe, supersede, supersedes). */
export interface TruthRequest {
  dedupe?: DedupeMode;
  supersede?: SupersedeMode;
  supersedes?: string[];
  /** What the update decider said before the transaction (MEMORY_UPDATE_DECIDER=llm; decider.ts). */
  decided?: Decided;
}

/** A new memory as this step sees it. */
export interface TruthItem extends Owner {
  content: string;
  externalUserId: string | null;
  truth: TruthRequest;
}

/** A stored memory as this step sees it (a PUT's facts read again). */
export const truthItemOf = (row: MemoryRow, truth: TruthRequest): TruthItem => ({
  userId: row.user_id,
  namespaceId: row.namespace_id,
  content: row.content,
  externalUserId: row.external_user_id,
  truth,
});

/** Effective time of a memory: when its facts became true. */
export const effectiveAt = (row: Pick<MemoryRow, 'occurred_at' | 'created_at'>) =>
  new Date(row.occurred_at ?? row.created_at);

/** Names an owner goes by, from their external id ("maya", "maya.lopez@…", "maya-42"). */
export function selfNamesOf(externalUserId: string | null | undefined): string[] {
  const first = externalUserId?.match(/^[A-Za-z]{2,}/)?.[0];
  return first ? [first.toLowerCase()] : [];
}

export function createTruth(
  defaults: TruthDefaults,
  examples: (() => Promise<SlotExamples>) | null = null,
  organization: OrganizationDefaults | null = null,
) {
  const modesIn = modesPerTransaction(defaults, organization);
  return {
    /**
     * Before storing: lock the owners and find each item's exact duplicate (an earlier memory,
     * or an earlier item of this same call: index into `items`).
     */
    async duplicates(tx: Queryable, organizationId: string, items: TruthItem[]) {
      const modeOf = await modesIn(tx, organizationId);
      await lockOwners(
        tx,
        organizationId,
        items.map((i) => i.userId),
      );
      const wanted = items.map((i) => modeOf(i.truth).dedupe !== 'off');
      const found = await exactDuplicates(
        tx,
        organizationId,
        items.filter((_, i) => wanted[i]),
      );
      let k = 0;
      const existing = items.map((_, i) => (wanted[i] ? found[k++] : null));
      // Repeats within the call: the first one is stored, the later ones are its duplicates.
      const seen = new Map<string, number>();
      const earlier = items.map((item, i) => {
        if (!wanted[i] || existing[i]) return null;
        const key = `${item.userId}\u0000${item.namespaceId ?? ''}\u0000${foldContent(item.content)}`;
        const first = seen.get(key);
        if (first === undefined) seen.set(key, i);
        return first ?? null;
      });
      return { existing, earlier };
    },

    /**
     * After storing `rows` (with `items[i]` and `chunks[i]`): record their facts, link near
     * duplicates and supersessions. Returns, per row, what it retired and what it repeats.
     */
    async settle(tx: Queryable, organizationId: string, rows: MemoryRow[], items: TruthItem[], chunks: ChunkData[][]) {
      const modeOf = await modesIn(tx, organizationId);
      // Loaded before the transaction by the writers (prepare); here it is only awaited.
      const ex = examples ? await examples().catch(() => null) : null;
      const stated: OwnedFacts[] = rows.map((row, i) => ({
        memoryId: row.id,
        userId: row.user_id,
        namespaceId: row.namespace_id,
        at: effectiveAt(row),
        facts: storedClaims(row.content, chunks[i], ex, selfNamesOf(items[i].externalUserId)),
      }));
      await insertFacts(tx, organizationId, stated);
      // Loose statements retire nothing and are retired by nothing.
      const owned = stated.map((o) => ({ ...o, facts: o.facts.filter((f) => !f.loose) }));
      const links: Link[] = [];
      const order = new Map(rows.map((r, i) => [r.id, i]));
      // Later than: by effective time; a tie goes to the memory written later (this call's, in its order).
      const later = (a: { id: string; at: Date }, b: { id: string; at: Date }) => {
        if (a.at.getTime() !== b.at.getTime()) return a.at > b.at;
        const ia = order.get(a.id) ?? -1;
        const ib = order.get(b.id) ?? -1;
        return ia > ib;
      };

      // Explicit: the ids a write names, memories of the same owner.
      const named = [...new Set(items.flatMap((i) => i.truth.supersedes ?? []))];
      const owners = await ownersOf(tx, organizationId, named);
      rows.forEach((row, i) => {
        for (const id of items[i].truth.supersedes ?? []) {
          const o = owners.get(id);
          if (!o || o.userId !== row.user_id || id === row.id)
            throw unprocessable(`supersedes: ${id} is not a memory of the same user`, { field: 'supersedes', id });
          links.push({
            memoryId: row.id,
            priorId: id,
            kind: 'supersedes',
            validTo: effectiveAt(row),
            reason: 'explicit',
          });
        }
      });

      // Detected: facts of the same subject and slot (truth.detect.ts).
      const auto = owned.filter((_, i) => modeOf(items[i].truth).supersede === 'auto' && owned[i].facts.length);
      links.push(...(await detectedSupersessions(tx, organizationId, auto, later)));

      // Near duplicates: compared with the owner's nearest memories by the primary embedding.
      const near = rows.flatMap((row, i) => {
        const first = chunks[i][0];
        return modeOf(items[i].truth).dedupe === 'near' && first?.embedding && first.embeddingModel
          ? [
              {
                i,
                model: first.embeddingModel,
                memoryId: row.id,
                userId: row.user_id,
                namespaceId: row.namespace_id,
                vector: first.embedding,
              },
            ]
          : [];
      });
      const retired = new Set(links.filter((l) => l.kind === 'supersedes').flatMap((l) => [l.priorId, l.memoryId]));
      const linked = new Set<number>();
      for (const model of new Set(near.map((x) => x.model))) {
        const mine = near.filter((x) => x.model === model);
        for (const c of await nearestOwned(tx, organizationId, model, mine, NEAR.neighbours)) {
          const { i } = mine[c.n];
          const row = rows[i];
          if (linked.has(i) || c.similarity < NEAR.cosine || retired.has(row.id)) continue;
          if (order.has(c.id) && order.get(c.id)! > i) continue; // a later item of this call is not its original
          if (!nearWording(rows[i].content, c.content) || namesDiffer(rows[i].content, c.content)) continue;
          linked.add(i);
          links.push({ memoryId: row.id, priorId: c.id, kind: 'duplicate', validTo: null, reason: 'near-duplicate' });
        }
      }
      // MEMORY_UPDATE_DECIDER=llm: the decider's links join the offline ones (decider.ts).
      await addDecided(
        tx,
        organizationId,
        rows.map((row, i) => ({
          row,
          at: effectiveAt(row),
          // Asked before the organization's modes were read: supersession off takes none of it.
          decided: modeOf(items[i].truth).supersede === 'off' ? undefined : items[i].truth.decided,
          dedupe: modeOf(items[i].truth).dedupe,
        })),
        links,
      );
      await insertLinks(tx, organizationId, links);
      return rows.map((row) => ({
        supersedes: links.filter((l) => l.memoryId === row.id && l.kind === 'supersedes').map((l) => l.priorId),
        duplicateOf: links.find((l) => l.memoryId === row.id && l.kind === 'duplicate')?.priorId ?? null,
      }));
    },
  };
}

/** The content key of migration 0030's engram_content_key, for repeats within one call. */
function foldContent(content: string): string {
  return content
    .trim()
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .replace(/[\s.!?]+$/, '');
}

export type Truth = ReturnType<typeof createTruth>;
