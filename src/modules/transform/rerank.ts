/**
 * Ranking document artifacts for a query artifact (POST /v1/graph/rerank, and the svc_enhanced
 * search provider): the method's score (score.ts), band filters, top_k. Request-level band
 * names are checked against the domain, so a misspelt filter is a 422, not a silent no-op.
 */
import { AppError } from '../../shared/errors.ts';
import { bandWeights, type Artifact } from './artifact.ts';
import type { Domain } from './bands.ts';
import { scoreArtifact, type ArtifactScore } from './score.ts';

export const RERANK_METHODS = ['fast', 'enhanced'] as const;

export interface RerankOptions {
  method?: string;
  topK?: number;
  /** Band name → minimum band score; a document below any is dropped. */
  signalFilters?: Record<string, number>;
  /** Band name → weight multiplier (numbers ≥ 0). */
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

function checkBands(domain: Domain, map: Record<string, unknown> | undefined, field: string, number: boolean) {
  const names = new Set(domain.signals.map((s) => s.name));
  for (const [k, v] of Object.entries(map ?? {})) {
    if (!names.has(k))
      throw new AppError(422, `${field}.${k}: domain ${domain.domain_id} has no band "${k}"`, {
        field: `${field}.${k}`,
        bands: [...names],
      });
    if (number && !(typeof v === 'number' && Number.isFinite(v) && v >= 0))
      throw new AppError(422, `${field}.${k} must be a number ≥ 0`, { field: `${field}.${k}` });
  }
}

export function rankArtifacts(domain: Domain, query: Artifact, docs: Artifact[], opts: RerankOptions) {
  const method = opts.method ?? 'enhanced';
  if (!(RERANK_METHODS as readonly string[]).includes(method))
    throw new AppError(422, `Unknown rerank method "${method}"; use ${RERANK_METHODS.join(' or ')}`, {
      field: 'method',
    });
  checkBands(domain, opts.signalMultipliers, 'signal_multipliers', true);
  checkBands(domain, opts.signalFilters, 'signal_filters', false);
  for (const d of docs)
    if (d.bands[0]?.q.length !== query.bands[0]?.q.length)
      throw new AppError(422, 'Query and documents were made with different signal embedders (band widths differ)', {
        field: 'documents',
      });
  const weights = bandWeights(domain, opts.signalMultipliers);
  const filters = Object.entries(opts.signalFilters ?? {}).map(([name, min]) => ({
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
