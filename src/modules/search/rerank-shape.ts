/** Small shapes of the rerank stage's input and output for the search response. */
import type { SearchBody } from './search.schemas.ts';

/**
 * Reranked scores as relevance_score: min-max rescaled to 0–1 over the reranked list (the
 * providers' scales differ: z-sums, logits, 0–1 relevances), the provider's own score kept as
 * reranker_score.
 */
export function rescaled<T extends { id: string; score: number }>(order: T[]) {
  const values = order.map((o) => o.score);
  const [min, max] = [Math.min(...values), Math.max(...values)];
  return order.map((o) => ({ ...o, reranker: o.score, score: max > min ? (o.score - min) / (max - min) : 1 }));
}

/**
 * signal_thresholds, or the deprecated holographic_config.frequency_filters (§9.7), which it
 * replaces: band name → minimum band score.
 */
export function signalThresholds(body: SearchBody): Record<string, number> | undefined {
  const current = body.reranking_config?.signal_thresholds;
  if (current) return current;
  const legacy = (body.holographic_config as { frequency_filters?: unknown } | undefined)?.frequency_filters;
  if (legacy && typeof legacy === 'object' && !Array.isArray(legacy)) {
    const out = Object.entries(legacy).filter(
      (e): e is [string, number] => typeof e[1] === 'number' && Number.isFinite(e[1]),
    );
    return out.length ? Object.fromEntries(out) : undefined;
  }
  return undefined;
}

/** reranking_config.signal_multipliers (or the deprecated policy.vector's): band → weight multiplier. */
export function signalMultipliers(body: SearchBody): Record<string, unknown> | undefined {
  const legacy = (body.policy as { vector?: { signal_multipliers?: unknown } } | undefined)?.vector?.signal_multipliers;
  const named = body.reranking_config?.signal_multipliers ?? legacy;
  return named && typeof named === 'object' && !Array.isArray(named) ? (named as Record<string, unknown>) : undefined;
}
