/**
 * POST /v1/sync/tiers: the memories a client most likely needs, for a local cache to start
 * from (docs/sync.md, "Tiers"). Tier 0 the best scored, tier 1 the next; `next_cursor` is the
 * delta cursor as of before the read, so the client follows every later change.
 */
import type { Db, Queryable } from '../../platform/db/index.ts';
import type { Actor } from '../../shared/actor.ts';
import type { MemoryObject, MemoryRow } from '../memories/index.ts';
import type { UserDirectory } from '../users/index.ts';
import { encodeCursor, positionBefore } from './cursor.ts';
import type { EmbeddingFields, EmbeddingFormat } from './embedding.ts';
import { resolveSyncScope, type ScopeSelectors } from './sync.scope.ts';
import { withEmbeddings } from './sync.service.ts';
import { feedState } from './sync.store.ts';
import { goalMemories, memoriesInScope, recentMemories, retrievalCounts } from './tiers.store.ts';

/**
 * Positive feedback ("rated up") per memory: an optional port, wired by the composition root
 * once a feedback module exists. Without it the term is 0 for every memory.
 */
export interface RatedUp {
  /** Memories of the organization rated up since `since` (by `userId` when given), most first, at most `limit`. */
  ratedUp(
    db: Queryable,
    q: { organizationId: string; userId: string | null; since: Date; limit: number },
  ): Promise<Map<string, number>>;
}

export interface TiersDeps {
  db: Db;
  users: Pick<UserDirectory, 'get' | 'findByExternalId'>;
  ratedUp?: RatedUp;
}

export interface TiersBody extends ScopeSelectors {
  max_tier0: number;
  max_tier1: number;
  embed_limit: number;
  include_embeddings: boolean;
  embedding_format: EmbeddingFormat;
  embed_model?: string;
}

/** The window retrieval and feedback are counted over. */
export const TIERS_WINDOW_DAYS = 30;
const DAY = 86_400_000;
/** The score's weights (docs/sync.md). */
export const TIER_WEIGHTS = { recency: 0.4, retrieval: 0.4, ratedUp: 0.2, goal: 0.1 };

type Scored = MemoryObject & EmbeddingFields;

/** log(1 + n) / log(1 + max): 0 … 1, so a few retrievals count and a thousand do not drown the rest. */
const damped = (n: number, max: number) => (max > 0 ? Math.log1p(n) / Math.log1p(max) : 0);

export function createTiersService(deps: TiersDeps) {
  const { db } = deps;

  /** Every candidate: the recent ones, the retrieved, the rated up, the goals and tasks. */
  async function candidates(scope: Awaited<ReturnType<typeof resolveSyncScope>>, k: number, since: Date) {
    const userId = scope.reader?.userId ?? null;
    const [recent, goals, retrieved, rated] = await Promise.all([
      recentMemories(db, scope, k),
      goalMemories(db, scope, k),
      retrievalCounts(db, scope.organizationId, userId, since, k),
      deps.ratedUp?.ratedUp(db, { organizationId: scope.organizationId, userId, since, limit: k }) ??
        new Map<string, number>(),
    ]);
    const rows = new Map<string, MemoryRow>([...recent, ...goals].map((r) => [r.id, r]));
    const missing = [...new Set([...retrieved.keys(), ...rated.keys()])].filter((id) => !rows.has(id));
    for (const r of await memoriesInScope(db, scope, missing)) rows.set(r.id, r);
    return { rows: [...rows.values()], retrieved, rated };
  }

  return {
    async tiers(actor: Actor, body: TiersBody) {
      const scope = await resolveSyncScope(deps.users, db, actor, body);
      // The cursor first: every change below it is in what is read next.
      const { xmin } = await feedState(db, scope.organizationId);
      const now = Date.now();
      const since = new Date(now - TIERS_WINDOW_DAYS * DAY);
      const wanted = body.max_tier0 + body.max_tier1;
      const k = Math.min(5000, Math.max(200, 2 * wanted));
      const { rows, retrieved, rated } = await candidates(scope, k, since);
      const maxRetrieved = Math.max(0, ...[...retrieved.values()]);
      const maxRated = Math.max(0, ...[...rated.values()]);
      const scored = rows
        .map((row) => {
          const days = Math.max(0, (now - row.updated_at.getTime()) / DAY);
          const recency = Math.exp(-0.05 * days);
          const popularity = damped(retrieved.get(row.id) ?? 0, maxRetrieved);
          const ratedUp = damped(rated.get(row.id) ?? 0, maxRated);
          const goal = ['goal', 'task'].includes(String(row.metadata?.category)) ? 1 : 0;
          const w = TIER_WEIGHTS;
          const score = w.recency * recency + w.retrieval * popularity + w.ratedUp * ratedUp + w.goal * goal;
          return { row, recency, popularity, score };
        })
        .sort((a, b) => b.score - a.score || b.row.updated_at.getTime() - a.row.updated_at.getTime());
      const tier = async (part: typeof scored, format: EmbeddingFormat): Promise<Scored[]> => {
        const embedded = body.include_embeddings ? Math.min(body.embed_limit, part.length) : 0;
        const objects = [
          ...(await withEmbeddings(
            db,
            scope.organizationId,
            part.slice(0, embedded).map((s) => s.row),
            format,
          )),
          ...(await withEmbeddings(
            db,
            scope.organizationId,
            part.slice(embedded).map((s) => s.row),
            null,
          )),
        ];
        return objects.map((o, i) => ({
          ...o,
          recency_score: part[i].recency,
          popularity_score: part[i].popularity,
          relevance_score: part[i].score,
        }));
      };
      const tier0 = scored.slice(0, body.max_tier0);
      const tier1 = scored.slice(body.max_tier0, wanted);
      return {
        // Tier 0 is always float32 when embeddings are included (client contract); the format applies to tier 1.
        tier0: await tier(tier0, 'float32'),
        tier1: await tier(tier1, body.embedding_format),
        next_cursor: encodeCursor(positionBefore(xmin)),
        has_more: scored.length > wanted,
      };
    },
  };
}

export type TiersService = ReturnType<typeof createTiersService>;
