/**
 * The rerank stage of a search (spec §2.10): the fused top candidates reordered by the chosen
 * provider (providers.ts). Hosted providers (ranker_a: Cohere-compatible, ranker_b: a chat
 * model) score the candidates' text; svc_enhanced adds the graph-transform score (stored
 * artifacts, computed for candidates without one) to the first stage's; svc_max feeds every
 * feature (features.ts) to the learned ranker (ranker.ts).
 *
 * A hosted provider that fails keeps the first stage's order and says so (the search still
 * answers); the failure is logged.
 */
import type { Logger } from '../../platform/log.ts';
import type { Reranker } from '../../platform/models/reranker.ts';
import type { Actor } from '../../shared/actor.ts';
import {
  candidateFeatures,
  FEATURE_NAMES,
  poolFeatures,
  standardise,
  type ArtifactFeatures,
  type Candidate,
} from './features.ts';
import type { ProviderChoice } from './providers.ts';
import type { RankerPool, RankerSet } from './ranker.ts';

/** What the transform module scores for search (svc_enhanced, svc_max). */
export interface GraphRerankPort {
  /**
   * Artifact scores of the candidates for the query in a domain (default general): stored
   * artifacts where the memory has one in a compatible form, computed otherwise. Candidates
   * below a `signal_thresholds` band minimum are absent from the map.
   */
  scoreMemories(
    actor: Actor,
    query: string,
    candidates: { id: string; content: string }[],
    opts: {
      domainId?: string;
      signalThresholds?: Record<string, number>;
      signalMultipliers?: Record<string, unknown>;
    },
  ): Promise<Map<string, ArtifactFeatures>>;
  /** Checks that the actor may use the domain (unknown: the 404 scoreMemories would give). */
  checkDomain(actor: Actor, domainId?: string): Promise<void>;
}

export interface RerankStageDeps {
  cohere?: Reranker;
  chat?: Reranker;
  graph?: GraphRerankPort;
  ranker: RankerSet;
  log?: Logger;
}

export interface Reranked {
  id: string;
  score: number;
  features?: Record<string, number>;
}

export interface RerankOutcome {
  order: Reranked[];
  /** The provider that produced `order` ('none' when a hosted one failed). */
  used: string;
  note?: string;
}

/**
 * svc_enhanced: z(first stage) + ENHANCED_WEIGHT · z(enhanced), z-scores within the candidates.
 * The weight is chosen by 5-fold cross-validation over SciFact, CoSQA and LoCoMo dev at once
 * (bench/enhanced-weight.ts; docs/transform.md): the transform score is a USE-lite cosine with
 * band cosines, weaker than the fusion; with equal weights svc_enhanced fell below the fused
 * order on all three sets (nDCG@10 −0.017, MRR@10 −0.026, R@10 −0.034), at 0.05 it is within
 * ±0.005 of it.
 */
export const ENHANCED_WEIGHT = 0.05;

/** Weighted sum of z-scores: each column counts by its weight, whatever its scale. */
function zSum(cols: number[][], weights: number[]): number[] {
  const z = standardise(cols[0].map((_, i) => cols.map((c) => c[i])));
  return z.map((r) => r.reduce((a, b, j) => a + weights[j] * b, 0));
}

/**
 * A model's wider pool narrowed to the `keep` candidates it was trained to rerank: the z-sum of
 * the pool's features within the pool (RankerPool), ties by first-stage rank; the first-stage order
 * is kept among them.
 */
export function narrowPool(query: string, candidates: Candidate[], pool: RankerPool): Candidate[] {
  if (candidates.length <= pool.keep) return candidates;
  const z = standardise(poolFeatures(query, candidates, pool.by));
  const best = z
    .map((r, i) => [r.reduce((a, b) => a + b, 0), i])
    .sort((a, b) => b[0] - a[0] || a[1] - b[1])
    .slice(0, pool.keep);
  const kept = new Set(best.map(([, i]) => i));
  return candidates.filter((_, i) => kept.has(i));
}

export async function rerankStage(
  deps: RerankStageDeps,
  choice: ProviderChoice,
  ctx: {
    actor: Actor;
    query: string;
    candidates: Candidate[];
    domainId?: string;
    signalThresholds?: Record<string, number>;
    signalMultipliers?: Record<string, unknown>;
    withFeatures: boolean;
  },
): Promise<RerankOutcome> {
  const firstStage = (): Reranked[] => ctx.candidates.map((c) => ({ id: c.id, score: c.firstStage }));
  const model = deps.ranker.for(ctx.domainId);
  // Only svc_max reads a model's wider pool; the search asked the first stage for pool.depth (search.service.ts).
  const candidates =
    choice.provider === 'svc_max' && model.pool ? narrowPool(ctx.query, ctx.candidates, model.pool) : ctx.candidates;
  if (!ctx.candidates.length || choice.provider === 'none') return { order: firstStage(), used: 'none' };

  if (choice.provider === 'ranker_a' || choice.provider === 'ranker_b') {
    const reranker = choice.provider === 'ranker_a' ? deps.cohere! : deps.chat!;
    try {
      const results = await reranker.rerank(
        ctx.query,
        candidates.map((c) => c.content),
      );
      return { order: results.map((r) => ({ id: candidates[r.index].id, score: r.score })), used: choice.provider };
    } catch (err) {
      deps.log?.warn({ err, provider: choice.provider }, 'reranking failed; the fused order is returned');
      return {
        order: firstStage(),
        used: 'none',
        note: `${choice.provider} failed (${(err as Error).message}); fused order returned`,
      };
    }
  }

  // The transform scores are computed only when something reads them: svc_enhanced, band
  // thresholds, features asked for, or a model weighing them. A candidate without a stored
  // artifact is transformed for the search, tens of ms each, so svc_max with a text-only model
  // skips that work (its artifact features are then 0 and weigh 0).
  const needsArtifacts =
    choice.provider === 'svc_enhanced' ||
    model.usesArtifacts ||
    ctx.withFeatures ||
    Object.keys(ctx.signalThresholds ?? {}).length > 0 ||
    Object.keys(ctx.signalMultipliers ?? {}).length > 0;
  if (!needsArtifacts) await deps.graph!.checkDomain(ctx.actor, ctx.domainId);
  const artifacts = needsArtifacts
    ? await deps.graph!.scoreMemories(
        ctx.actor,
        ctx.query,
        candidates.map((c) => ({ id: c.id, content: c.content })),
        { domainId: ctx.domainId, signalThresholds: ctx.signalThresholds, signalMultipliers: ctx.signalMultipliers },
      )
    : undefined;
  // signal_thresholds drop candidates (they are absent from the map).
  const kept = artifacts ? candidates.filter((c) => artifacts.has(c.id)) : candidates;
  if (!kept.length) return { order: [], used: choice.provider };
  // Likewise the code models' scores: read by svc_max with a model weighing them, or reported.
  const rows = candidateFeatures(ctx.query, kept, artifacts, {
    code: ctx.withFeatures || (choice.provider === 'svc_max' && model.usesCode),
  });
  const scores =
    choice.provider === 'svc_max'
      ? model.score(rows)
      : zSum([kept.map((c) => c.firstStage), kept.map((c) => artifacts!.get(c.id)!.enhanced)], [1, ENHANCED_WEIGHT]);
  const order = kept
    .map((c, i) => ({
      id: c.id,
      score: scores[i],
      ...(ctx.withFeatures ? { features: Object.fromEntries(FEATURE_NAMES.map((f, j) => [f, rows[i][j]])) } : {}),
    }))
    .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1));
  return { order, used: choice.provider };
}
