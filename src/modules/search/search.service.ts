import { requirePermission, type Actor } from '../../shared/actor.ts';
import { newId } from '../../shared/ids.ts';
import { noLineage, slotExamples, toMemoryObject, type MemoryObject, type MemoryReader } from '../memories/index.ts';
import type { UserDirectory } from '../users/index.ts';
import type { SearchBody } from './search.schemas.ts';
import { logQuery } from './search.store.ts';
import { resultNodes } from './graph-signal.ts';
import type { Logger } from '../../platform/log.ts';
import { firstStage, type FirstStageDeps } from './first-stage.ts';
import { chooseProvider, type Available } from './providers.ts';
import { rerankStage, type RerankStageDeps } from './rerank-stage.ts';
import { firstStageQuery } from './ranker.ts';
import { rescaled, signalMultipliers, signalThresholds } from './rerank-shape.ts';
import { feedbackRanked, type FeedbackBoosts } from './feedback-signal.ts';
import { absenceHints } from './signal-tools.ts';
import { startFactAnswer, truthOf } from './truth-stage.ts';
import { resolveScope } from './scope.ts';

/** The first stage's dependencies (first-stage.ts), and what the rest of a search needs. */
export interface SearchDeps extends FirstStageDeps {
  log?: Logger;
  memories: MemoryReader;
  users: Pick<UserDirectory, 'get' | 'findByExternalId'>;
  /** The rerank stage's providers and learned ranker, and which providers are configured. */
  rerank: RerankStageDeps;
  available: Available;
  /** How many first-stage candidates a reranking provider reorders (at least the limit). */
  rerankDepth: number;
  /** The searched user's feedback on memories (the feedback module's port); absent: no such signal. */
  feedback?: FeedbackBoosts;
  /** The most feedback moves a memory, as a share of the best first-stage score (FEEDBACK_WEIGHT). */
  feedbackWeight?: number;
  /** The current statement of what a question asks about goes first (MEMORY_SUPERSEDE=auto; fact-answer.ts). */
  factAnswers?: boolean;
  /** Where the attribute examples' embeddings are kept between starts (MODELS_CACHE_DIR). */
  modelsCacheDir?: string;
}

export interface SearchResult {
  memories: MemoryObject[];
  nodes: { label: string; properties: Record<string, unknown>; schema_id?: string | null }[];
  search_id: string;
  /** User graph schemas of the returned nodes, when there are any. */
  schemas_used?: string[];
  /** Set when a reranking provider was asked for. */
  reranking?: { requested: string; used: string; note?: string };
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
  // Scopes without speakers, and without questions, among their candidates of late.
  const hints = { speakers: absenceHints(), questions: absenceHints() };
  // The attribute examples in the query embedder's space, embedded by the first search that needs them.
  const examples = slotExamples(deps.embedders.primary, deps.embedders.secondary, deps.modelsCacheDir);

  return {
    /** Wait for the query-log writes in flight. */
    async close(): Promise<void> {
      await Promise.all([...logging]);
    },

    async search(actor: Actor, body: SearchBody, maxMemories: number, maxNodes = 15): Promise<SearchResult> {
      requirePermission(actor, 'read');
      const choice = chooseProvider(body, deps.available);
      // svc_max with a model of a wider pool (ranker.ts RankerPool) asks the first stage for it,
      // and the first stage reads the query without the words the pool ignores.
      const pool = choice.provider === 'svc_max' ? deps.rerank.ranker.for(body.reranking_config?.domain_id).pool : null;
      const firstBody = pool?.ignore ? { ...body, query: firstStageQuery(body.query, pool) } : body;
      const t0 = performance.now();
      const searchId = newId();
      const { primary } = deps.embedders;
      // The query vector does not depend on the scope: with a threaded embedder it is computed
      // while the scope's SQL runs. A signal with weight 0 costs nothing (no embedding, no scan).
      const vector = deps.weights.dense > 0 ? settled(primary.embed([firstBody.query])) : null;
      const resolved = await resolveScope(deps, actor, body);
      const scope = resolved?.scope ?? null;
      const limit = Math.min(200, body.limit ?? maxMemories);
      let memories: MemoryObject[] = [];
      let overrideNodes: SearchResult['nodes'] | null = null;
      let topNodes: SearchResult['nodes'] = [];
      let reranking: SearchResult['reranking'];
      if (scope) {
        const depth = choice.provider === 'none' ? limit : Math.max(limit, deps.rerankDepth, pool?.depth ?? 0);
        const answering = settled(
          startFactAnswer(
            {
              memories: deps.memories,
              examples,
              secondary: deps.embedders.secondary,
              answers: deps.factAnswers !== false,
            },
            db,
            scope,
            { query: body.query, vector, model: deps.embedders.primary.id, externalUserId: body.external_user_id },
          ),
        );
        const first = await firstStage(deps, scope, firstBody, {
          n: Math.max(deps.candidates, depth),
          keep: depth,
          neighbours: !!resolved?.neighbours,
          vector,
          speakerHints: hints.speakers,
          questionHints: hints.questions,
        });
        overrideNodes = first.overrideNodes;
        // The user's feedback moves the candidates, bounded (feedback-signal.ts), before anything reads the order;
        // then what is true now (or at as_of) goes first (current-first.ts).
        const truth = await truthOf(
          { memories: deps.memories },
          db,
          scope,
          await feedbackRanked(deps, scope, first.ranked),
          body,
          await answering(),
          first.parts,
          limit,
        );
        const ranked = truth.ranked.slice(0, depth);
        let top: { id: string; score: number; reranker?: number; features?: Record<string, number> }[] = ranked.map(
          ([id, score]) => ({ id, score }),
        );
        const nodesOf = (ids: string[]) =>
          !overrideNodes && ids.length && maxNodes > 0
            ? resultNodes(deps.graph, db, actor.organizationId, ids, maxNodes, body.schema_id)
            : Promise.resolve([]);
        // Without reranking the order is final: the rows and their nodes in one round trip.
        const plain = choice.provider === 'none';
        const [firstRows, nodesOfTop] = await Promise.all([
          deps.memories.getMany(
            db,
            scope,
            top.map((t) => t.id),
          ),
          plain ? nodesOf(top.map((t) => t.id)) : null,
        ]);
        let rows = firstRows;
        if (!plain) {
          const byId = new Map(rows.map((r) => [r.id, r]));
          const outcome = await rerankStage(deps.rerank, choice, {
            actor,
            query: body.query,
            candidates: top
              .filter((t) => byId.has(t.id))
              .map((t) => {
                const r = byId.get(t.id)!;
                return {
                  id: t.id,
                  content: r.content,
                  createdAt: r.created_at,
                  metadata: r.metadata,
                  firstStage: t.score,
                  parts: first.parts.get(t.id) ?? [],
                };
              }),
            domainId: body.reranking_config?.domain_id,
            signalThresholds: signalThresholds(body),
            signalMultipliers: signalMultipliers(body),
            withFeatures: body.reranking_config?.return_features === true,
          });
          top = truth.reorder(rescaled(outcome.order)).slice(0, limit);
          rows = top.map((t) => byId.get(t.id)!);
          reranking = {
            requested: choice.requested ?? choice.provider,
            used: outcome.used,
            ...(outcome.note || choice.fallbackReason
              ? { note: [choice.fallbackReason, outcome.note].filter(Boolean).join('; ') }
              : {}),
          };
        }
        const byTop = new Map(top.map((t) => [t.id, t]));
        topNodes = nodesOfTop ?? (await nodesOf(top.map((t) => t.id)));
        memories = rows.map((row) => {
          const t = byTop.get(row.id)!;
          return {
            ...toMemoryObject(row, undefined, truth.lineage.get(row.id) ?? noLineage()),
            relevance_score: t.score,
            similarity_score: first.dense.get(row.id) ?? 0,
            ...(reranking ? { reranker_score: t.reranker, reranker_type: reranking.used } : {}),
            ...(t.features ? { ranker_features: t.features } : {}),
          };
        });
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
        resultIds: memories.map((m) => m.id),
        latencyMs: performance.now() - t0,
      })
        .catch((err) => deps.log?.error({ err, search_id: searchId }, 'writing the query log failed'))
        .finally(() => logging.delete(logged));
      logging.add(logged);
      return {
        memories,
        nodes,
        search_id: searchId,
        ...(schemasUsed.length ? { schemas_used: schemasUsed } : {}),
        ...(reranking ? { reranking } : {}),
      };
    },
  };
}

export type SearchService = ReturnType<typeof createSearchService>;
