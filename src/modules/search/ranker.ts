/**
 * The learned ranker of svc_max: linear models over the standardised candidate features
 * (features.ts), trained offline by scripts/train-ranker.ts with a pairwise logistic loss and
 * committed as ranker.weights.json (the training data, folds and cross-validated figures are
 * recorded in the file and in docs/transform.md). Linear on purpose: a few dozen weights that
 * can be read, that train in seconds, and that cannot memorise a dev set's documents.
 *
 * One model per family of domains, because what ranks well differs by kind of text and one
 * model fitted to all of them was worse on each than its own (docs/transform.md): `general`
 * (conversations and personal memories: LoCoMo), `documents` (claims against abstracts: SciFact),
 * `code` (questions against functions: CoSQA). A search's `domain_id` picks the family
 * (`domains` in the file maps built-in short names; a full id `<name>:<short>:<version>` by its
 * short name); custom and unknown domains get the `default` model.
 */
import {
  ARTIFACT_FEATURES,
  CODE_FEATURES,
  FEATURE_NAMES,
  POOL_FEATURES,
  standardise,
  type PoolFeature,
} from './features.ts';
// Bundled into the build (a JSON import), so dist/ needs no file beside it.
import committed from './ranker.weights.json' with { type: 'json' };

/**
 * A wider pool for a family whose own features find what the first stage misses (code: the
 * code models read identifiers and their translations, which BM25 and a sentence encoder do not):
 * the first stage's top `depth` candidates are narrowed to `keep` by the z-sum of the `by`
 * features (scores of a candidate alone, not relative to the others), and the model reranks those.
 */
export interface RankerPool {
  depth: number;
  keep: number;
  by: PoolFeature[];
  /**
   * Words of the query the first stage does not read, though the features do (code: "python", the
   * language every question of a Python corpus names, which tells no function from another but
   * which a sentence encoder reads as the question's topic).
   */
  ignore?: string[];
}

/** The query without the pool's ignored words (whole words, any case); the query itself if nothing else is left. */
export function firstStageQuery(query: string, pool?: RankerPool): string {
  if (!pool?.ignore?.length) return query;
  const words = new Set(pool.ignore.map((w) => w.toLowerCase()));
  const kept = query
    .split(/\s+/)
    .filter((w) => !words.has(w.toLowerCase().replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '')));
  return kept.join(' ').trim() || query;
}

export interface RankerModel {
  features: string[];
  weights: number[];
  pool?: RankerPool;
  /** Provenance: training sets, folds, cross-validated metrics. */
  trained?: Record<string, unknown>;
}

/** The weights file: models by family, which built-in domains use which, and the default family. */
export interface RankerFile {
  models: Record<string, RankerModel>;
  domains: Record<string, string>;
  default: string;
}

/** Weights in FEATURE_NAMES order (a feature the file does not name weighs 0). */
export function linearRanker(model: RankerModel) {
  const byName = new Map(model.features.map((f, i) => [f, model.weights[i]]));
  const w = FEATURE_NAMES.map((f) => byName.get(f) ?? 0);
  for (const f of model.pool?.by ?? [])
    if (!POOL_FEATURES.includes(f))
      throw new Error(`ranker weights: pool by unknown ${f} (a pool is narrowed by ${POOL_FEATURES.join(', ')})`);
  return {
    model,
    /** The wider pool this model reranks, if any (RankerPool). */
    pool: model.pool,
    /** Whether a weight reads a graph-transform score (else the candidates need no transform). */
    usesArtifacts: ARTIFACT_FEATURES.some((f) => (byName.get(f) ?? 0) !== 0),
    /** Whether a weight reads a code model's score (else the candidates need no code scoring). */
    usesCode: CODE_FEATURES.some((f) => (byName.get(f) ?? 0) !== 0),
    /** Scores of a query's candidates from their raw feature rows. */
    score(rows: number[][]): number[] {
      return standardise(rows).map((z) => z.reduce((s, x, j) => s + x * w[j], 0));
    },
  };
}
export type LinearRanker = ReturnType<typeof linearRanker>;

/** The model of each domain family; `for(domainId)` picks one. */
export function rankerSet(file: RankerFile) {
  const models = new Map(Object.entries(file.models).map(([family, m]) => [family, linearRanker(m)]));
  const fallback = models.get(file.default);
  if (!fallback) throw new Error(`ranker weights: the default family ${file.default} has no model`);
  return {
    file,
    /** The model for a search in `domainId` (none: the default domain's, `general`). */
    for(domainId = 'general'): LinearRanker {
      const parts = domainId.split(':');
      const short = parts.length === 3 ? parts[1] : domainId;
      return models.get(file.domains[short] ?? file.default) ?? fallback;
    },
  };
}
export type RankerSet = ReturnType<typeof rankerSet>;

/** The committed models (ranker.weights.json). */
export const committedRanker = (): RankerSet => rankerSet(committed as RankerFile);
