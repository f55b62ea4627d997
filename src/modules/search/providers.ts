/**
 * Which reranking provider a search asks for (spec §2.10, §9.5; contract aliases), and whether
 * this deployment has it. The spec's names and the client's are one set: `cohere` is
 * `ranker_a`, `openai` is `ranker_b`, `papr_enhanced`/`papr_max` are `svc_enhanced`/`svc_max`.
 *
 * `ranker_a` is the spec's default when reranking is enabled without a provider (and what the
 * deprecated `rank_results: true` means). When no Cohere-compatible endpoint is configured that
 * default falls back to the best local provider, `svc_max`, and the response says so; a provider
 * named explicitly but not configured is a 422 naming the settings it needs.
 */
import { AppError, unprocessable } from '../../shared/errors.ts';
import type { SearchBody } from './search.schemas.ts';

export type Provider = 'none' | 'ranker_a' | 'ranker_b' | 'svc_enhanced' | 'svc_max';

const CANONICAL: Record<string, Provider> = {
  none: 'none',
  ranker_a: 'ranker_a',
  cohere: 'ranker_a',
  ranker_b: 'ranker_b',
  openai: 'ranker_b',
  svc_enhanced: 'svc_enhanced',
  papr_enhanced: 'svc_enhanced',
  svc_max: 'svc_max',
  papr_max: 'svc_max',
};

/** Deprecated mode names (§9.5): fast → none, enhanced → svc_enhanced, max → svc_max. */
const MODES: Record<string, Provider> = { fast: 'none', enhanced: 'svc_enhanced', max: 'svc_max' };

export interface ProviderChoice {
  provider: Provider;
  /** What the request asked for, when the deployment answered with another provider. */
  requested?: Provider;
  fallbackReason?: string;
}

/** The provider a search body asks for, before checking what is configured. */
export function requestedProvider(body: SearchBody): { provider: Provider; implicit: boolean } {
  const rc = body.reranking_config;
  if (body.rank_results !== undefined && rc)
    throw unprocessable(
      'Conflicting fields: reranking_config and deprecated rank_results; send only reranking_config',
      {
        fields: ['reranking_config', 'rank_results'],
      },
    );
  if (!rc) {
    // The deprecated policy.vector.mode (§9.5); with neither it nor rank_results: no reranking.
    const mode = (body.policy as { vector?: { mode?: unknown } } | undefined)?.vector?.mode;
    if (typeof mode === 'string' && MODES[mode]) return { provider: MODES[mode], implicit: false };
    return { provider: body.rank_results ? 'ranker_a' : 'none', implicit: true };
  }
  if (rc.reranking_enabled === false) return { provider: 'none', implicit: false };
  const named = rc.reranking_provider;
  if (named === undefined) return { provider: rc.reranking_enabled ? 'ranker_a' : 'none', implicit: true };
  const provider = CANONICAL[named];
  if (!provider)
    throw unprocessable(`Unknown reranking provider "${named}"`, {
      field: 'reranking_config.reranking_provider',
      allowed: Object.keys(CANONICAL),
    });
  return { provider, implicit: false };
}

/** What this deployment can rerank with. */
export interface Available {
  ranker_a: boolean;
  ranker_b: boolean;
  graph: boolean;
}

export function chooseProvider(body: SearchBody, available: Available): ProviderChoice {
  const { provider, implicit } = requestedProvider(body);
  if (provider === 'none') return { provider };
  if (provider === 'ranker_a' && !available.ranker_a) {
    if (implicit && available.graph)
      return {
        provider: 'svc_max',
        requested: 'ranker_a',
        fallbackReason: 'ranker_a (the default) has no Cohere-compatible endpoint here (RERANK_URL); used svc_max',
      };
    throw new AppError(422, 'Reranking provider ranker_a (cohere) is not configured: set RERANK_URL and RERANK_MODEL', {
      field: 'reranking_config.reranking_provider',
      needs: ['RERANK_URL', 'RERANK_MODEL'],
    });
  }
  if (provider === 'ranker_b' && !available.ranker_b)
    throw new AppError(422, 'Reranking provider ranker_b (openai) is not configured: set LLM_BASE_URL and LLM_MODEL', {
      field: 'reranking_config.reranking_provider',
      needs: ['LLM_BASE_URL', 'LLM_MODEL'],
    });
  if ((provider === 'svc_enhanced' || provider === 'svc_max') && !available.graph)
    throw new AppError(422, `Reranking provider ${provider} is not available in this deployment`, {
      field: 'reranking_config.reranking_provider',
    });
  return { provider };
}
