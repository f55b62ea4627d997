import type { Db } from '../../platform/db/index.ts';
import type { Embedder } from '../../platform/models/embedder.ts';
import { requireOwnOrganization, requirePermission, type Actor } from '../../shared/actor.ts';
import { AppError, unprocessable } from '../../shared/errors.ts';
import { newId } from '../../shared/ids.ts';
import type { GraphReader } from '../graph/index.ts';
import {
  canonicalCategory,
  normaliseAclEntry,
  toMemoryObject,
  type MemoryObject,
  type MemoryReader,
} from '../memories/index.ts';
import { requireSelf, type UserDirectory } from '../users/index.ts';
import { queryTerms } from '../../platform/text-analyzer.ts';
import { fuse, type FusionWeights } from './fusion.ts';
import { RERANKING_PROVIDERS, type SearchBody } from './search.schemas.ts';
import { logQuery, sessionNeighbours, sharedWith, type Bm25Params, type SearchScope } from './search.store.ts';
import { nearest } from './dense.store.ts';
import { lexicalAndDense2 } from './signals.store.ts';
import { withNeighbourContext } from './context.ts';
import { graphContribution, resultNodes } from './graph-signal.ts';
import type { Extractor } from '../../platform/models/extractor.ts';
import type { Logger } from '../../platform/log.ts';

export interface SearchDeps {
  db: Db;
  /** Query embedders: the indexing embedders behind an LRU cache. */
  embedders: { primary: Embedder; secondary?: Embedder };
  weights: FusionWeights;
  bm25: Bm25Params;
  /** How many candidates each retriever hands to the fusion. */
  candidates: number;
  /** Share of a session neighbour's score a memory borrows (0 disables). */
  neighbourWeight: number;
  /** Recognises entities in queries for `enable_agentic_graph`. */
  extractor?: Extractor;
  log?: Logger;
  memories: MemoryReader;
  users: Pick<UserDirectory, 'get' | 'findByExternalId'>;
  graph: GraphReader;
}

export interface SearchResult {
  memories: MemoryObject[];
  nodes: { label: string; properties: Record<string, unknown>; schema_id?: string | null }[];
  search_id: string;
  /** User graph schemas of the returned nodes, when there are any. */
  schemas_used?: string[];
}

const RERANKERS_LATER = new Set<string>(RERANKING_PROVIDERS.filter((p) => p !== 'none'));

/** Reranking: only `none` (the fused order) exists yet; anything else is a clear 422. */
function checkReranking(body: SearchBody): void {
  const rc = body.reranking_config;
  if (body.rank_results !== undefined && rc) {
    throw unprocessable(
      'Conflicting fields: reranking_config and deprecated rank_results; send only reranking_config',
      { fields: ['reranking_config', 'rank_results'] },
    );
  }
  const provider = rc
    ? rc.reranking_enabled === false
      ? 'none'
      : (rc.reranking_provider ?? (rc.reranking_enabled ? 'ranker_a' : 'none'))
    : body.rank_results
      ? 'ranker_a'
      : 'none';
  if (RERANKERS_LATER.has(provider)) {
    throw unprocessable(
      `Reranking provider "${provider}" is not available in this deployment; use reranking_provider "none"`,
      { field: 'reranking_config.reranking_provider' },
    );
  }
}

/**
 * Start `p` now, await it later: a rejection before anyone awaits (the scope check failed
 * first) is not an unhandled one.
 */
function settled<T>(p: Promise<T>): () => Promise<T> {
  p.catch(() => undefined);
  return () => p;
}

/** Hybrid search: BM25 + dense signals fused by normalised score, all filters in SQL. */
export function createSearchService(deps: SearchDeps) {
  const { db } = deps;
  /** Query-log writes still in flight (awaited by close, before the store closes). */
  const logging = new Set<Promise<unknown>>();

  /**
   * The search's scope, and whether its user has session memories (asked in the same
   * statement as what is shared with them, and only when neighbours would be looked up:
   * they are not re-checked against memory-level filters, so those searches never expand).
   */
  async function resolveScope(
    actor: Actor,
    body: SearchBody,
  ): Promise<{ scope: SearchScope; hasSessions: boolean } | null> {
    // 422 like add and batch: the organization comes from the credential.
    requireOwnOrganization(actor, body.organization_id);
    if (actor.namespaceId && body.namespace_id && body.namespace_id !== actor.namespaceId) {
      throw new AppError(403, 'This API key is limited to its namespace', { namespace_id: actor.namespaceId });
    }
    // An end user's own token searches as them only (403 for anyone else, existing or not).
    await requireSelf(deps.users, db, actor, { userId: body.user_id, externalUserId: body.external_user_id });
    // user_id (deprecated, internal) wins over external_user_id; with neither, the caller.
    let user: { id: string; external_id: string | null } | undefined;
    if (body.user_id) user = await deps.users.get(db, actor.organizationId, body.user_id);
    else if (body.external_user_id)
      user = await deps.users.findByExternalId(db, actor.organizationId, body.external_user_id);
    else if (actor.userId) user = await deps.users.get(db, actor.organizationId, actor.userId);
    const externalId = user?.external_id ?? (body.user_id ? undefined : body.external_user_id);
    if (!user && !externalId) return null; // an unknown user has no memories
    const namespaceId = actor.namespaceId ?? body.namespace_id ?? null;
    // What ACLs may name this reader by (spec 2.4); an external id shared with before the
    // user's first memory still counts.
    const entities = [`organization:${actor.organizationId}`];
    if (user) entities.push(`user:${user.id}`);
    if (externalId) entities.push(`external_user:${externalId}`);
    if (namespaceId) entities.push(`namespace:${namespaceId}`);
    const metadata = body.metadata ? { ...body.metadata } : null;
    if (metadata?.category !== undefined) metadata.category = canonicalCategory(metadata.category) as string;
    const requireReaders = body.search_acl?.read?.map(normaliseAclEntry) ?? null;
    const expands = deps.neighbourWeight > 0 && !metadata && !requireReaders?.length && !body.omo_filter;
    const shared = await sharedWith(
      db,
      { organizationId: actor.organizationId, namespaceId, entities, ownerId: user?.id ?? null },
      { sessionsOf: expands ? (user?.id ?? null) : null },
    );
    if (!user && !shared.ids.length) return null;
    return {
      scope: {
        organizationId: actor.organizationId,
        namespaceId,
        userId: user?.id ?? null,
        sharedIds: shared.ids,
        metadata,
        requireReaders,
        safety: body.omo_filter ?? null,
      },
      hasSessions: shared.hasSessions,
    };
  }

  return {
    /** Wait for the query-log writes in flight. */
    async close(): Promise<void> {
      await Promise.all([...logging]);
    },

    async search(actor: Actor, body: SearchBody, maxMemories: number, maxNodes = 15): Promise<SearchResult> {
      requirePermission(actor, 'read');
      checkReranking(body);
      const t0 = performance.now();
      const searchId = newId();
      const { primary, secondary } = deps.embedders;
      // The query vector does not depend on the scope: with a threaded embedder it is computed
      // while the scope's SQL runs. A signal with weight 0 costs nothing (no embedding, no scan).
      const vector = deps.weights.dense > 0 ? settled(primary.embed([body.query])) : null;
      const resolved = await resolveScope(actor, body);
      const scope = resolved?.scope ?? null;
      const limit = Math.min(200, body.limit ?? maxMemories);
      let memories: MemoryObject[] = [];
      let overrideNodes: SearchResult['nodes'] | null = null;
      let topNodes: SearchResult['nodes'] = [];
      if (scope) {
        const n = Math.max(deps.candidates, limit);
        const none = Promise.resolve(new Map<string, number>());
        // While the query embedding runs (its own thread), the lexical and secondary signals run
        // in one statement on one connection: side by side they would take the core the
        // embedding needs (2 cores here), and apart they cost a round trip more.
        const others = (async () => {
          const terms = deps.weights.bm25 > 0 ? queryTerms(body.query) : [];
          const v2 = secondary && deps.weights.dense2 > 0 ? (await secondary.embed([body.query]))[0] : null;
          return lexicalAndDense2(db, scope, {
            limit: n,
            bm25: { terms, params: deps.bm25 },
            dense2: secondary && v2 ? { model: secondary.id, vector: v2 } : null,
          });
        })();
        const [{ lexical, dense2 }, dense] = await Promise.all([
          others,
          vector ? vector().then(([v]) => nearest(db, scope, 'embedding', primary.id, v, n)) : none,
        ]);
        // After the others, not beside them: PGlite runs one statement at a time anyway, and the
        // graph signal is the optional, slower one.
        const graph = await graphContribution(deps.graph, db, deps.extractor, scope, body, n, deps.weights.graph ?? 0);
        overrideNodes = graph.nodes;
        const fused = fuse([
          { scores: lexical, weight: deps.weights.bm25 },
          { scores: dense, weight: deps.weights.dense },
          { scores: dense2, weight: deps.weights.dense2 },
          { scores: graph.scores, weight: graph.weight, norm: 'max' },
        ]);
        let scores = new Map(fused.map((f) => [f.id, f.score]));
        if (resolved?.hasSessions && scope.userId) {
          const anchors = fused.slice(0, Math.max(limit, 50)).map((f) => f.id);
          scores = withNeighbourContext(scores, await sessionNeighbours(db, scope, anchors), deps.neighbourWeight);
        }
        const topIds = [...scores.entries()]
          .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
          .slice(0, limit)
          .map(([id]) => id);
        // The nodes of the results beside their rows (one round trip less on PostgreSQL): every
        // id here came from scoped queries, so the rows come back unless deleted meanwhile.
        const [rows, nodesOfTop] = await Promise.all([
          deps.memories.getMany(db, scope, topIds),
          !overrideNodes && topIds.length && maxNodes > 0
            ? resultNodes(deps.graph, db, actor.organizationId, topIds, maxNodes, body.schema_id)
            : [],
        ]);
        topNodes = nodesOfTop;
        memories = rows.map((row) => ({
          ...toMemoryObject(row),
          relevance_score: scores.get(row.id)!,
          similarity_score: dense.get(row.id) ?? 0,
        }));
      }
      // schema_id keeps data.nodes to that user schema's nodes; schemas_used names the schemas shown.
      const nodes = overrideNodes
        ? overrideNodes.filter((x) => !body.schema_id || x.schema_id === body.schema_id).slice(0, maxNodes)
        : memories.length
          ? topNodes
          : [];
      const schemasUsed = [...new Set(nodes.map((n) => n.schema_id).filter((x): x is string => !!x))];
      // Written beside the reply, not before it: the caller does not wait for the log row.
      const logged = logQuery(db, {
        id: searchId,
        organizationId: actor.organizationId,
        namespaceId: scope?.namespaceId ?? null,
        userId: scope?.userId ?? null,
        apiKeyId: actor.apiKeyId,
        query: body.query,
        params: { limit, metadata: body.metadata ?? null },
        resultCount: memories.length,
        latencyMs: performance.now() - t0,
      })
        .catch((err) => deps.log?.error({ err, search_id: searchId }, 'writing the query log failed'))
        .finally(() => logging.delete(logged));
      logging.add(logged);
      return { memories, nodes, search_id: searchId, ...(schemasUsed.length ? { schemas_used: schemasUsed } : {}) };
    },
  };
}

export type SearchService = ReturnType<typeof createSearchService>;
