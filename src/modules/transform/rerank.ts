/**
 * Ranking document artifacts for a query artifact (POST /v1/graph/rerank, and the svc_enhanced
 * search provider): the method's score (score.ts), band filters, top_k. Request-level band
 * names are checked against the domain, so a misspelt filter is a 422, not a silent no-op.
 */
import { AppError } from '../../shared/errors.ts';
import { bandWeights, type Artifact } from './artifact.ts';
import type { Domain } from './bands.ts';
import { byBandName } from './domains.validate.ts';
import { scoreArtifact, type ArtifactScore } from './score.ts';

export const RERANK_METHODS = ['fast', 'enhanced'] as const;

export interface RerankOptions {
  method?: string;
  topK?: number;
  /** Band name (or frequency) → minimum band score; a document below any is dropped. */
  signalFilters?: Record<string, number>;
  /** Band name (or frequency) → weight multiplier (numbers ≥ 0). */
  signalMultipliers?: Record<string, unknown>;
  texts?: string[];
  queryText?: string;
}

export interface Ranked {
  index: number;
  relevance: number;
  score: ArtifactScore;
  extra?: Record<string, number>;
}

/**
 * A request's band map (names or frequencies) keyed by band name; values must be numbers, or
 * numeric strings (the client types multipliers as number | string), ≥ 0 when `min0`.
 */
function bandNumbers(domain: Domain, map: Record<string, unknown> | undefined, field: string, min0: boolean) {
  const named = byBandName(domain.signals, map ?? {}, field);
  const out: Record<string, number> = {};
  for (const [k, v] of Object.entries(named)) {
    const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
    if (!(typeof n === 'number' && Number.isFinite(n) && (!min0 || n >= 0)))
      throw new AppError(422, `${field}.${k} must be a number${min0 ? ' ≥ 0' : ''}`, { field: `${field}.${k}` });
    out[k] = n;
  }
  return out;
}

export function rankArtifacts(domain: Domain, query: Artifact, docs: Artifact[], opts: RerankOptions) {
  const method = opts.method ?? 'enhanced';
  if (!(RERANK_METHODS as readonly string[]).includes(method))
    throw new AppError(422, `Unknown rerank method "${method}"; use ${RERANK_METHODS.join(' or ')}`, {
      field: 'method',
    });
  const multipliers = bandNumbers(domain, opts.signalMultipliers, 'signal_multipliers', true);
  const signalFilters = bandNumbers(domain, opts.signalFilters, 'signal_filters', false);
  for (const d of docs)
    if (d.bands[0]?.q.length !== query.bands[0]?.q.length)
      throw new AppError(422, 'Query and documents were made with different signal embedders (band widths differ)', {
        field: 'documents',
      });
  const weights = bandWeights(domain, multipliers);
  const filters = Object.entries(signalFilters).map(([name, min]) => ({
    k: domain.signals.findIndex((s) => s.name === name),
    min,
  }));
  const results: Ranked[] = [];
  docs.forEach((d, index) => {
    const score = scoreArtifact(query, d, weights);
    if (filters.some((f) => score.bands[f.k] < f.min)) return;
    results.push({ index, relevance: method === 'fast' ? score.fast : score.enhanced, score });
  });
  results.sort((a, b) => b.relevance - a.relevance || a.index - b.index);
  return { method, weights, results: results.slice(0, opts.topK ?? results.length) };
}
