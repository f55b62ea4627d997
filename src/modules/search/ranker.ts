/**
 * The learned ranker of svc_max: a linear model over the standardised candidate features
 * (features.ts), trained offline by scripts/train-ranker.ts with a pairwise logistic loss and
 * committed as ranker.weights.json (the training data, folds and cross-validated figures are
 * recorded in the file and in docs/transform.md). Linear on purpose: a few dozen weights that
 * can be read, that train in seconds, and that cannot memorise a dev set's documents.
 */
import { FEATURE_NAMES, standardise } from './features.ts';
// Bundled into the build (a JSON import), so dist/ needs no file beside it.
import committed from './ranker.weights.json' with { type: 'json' };

export interface RankerModel {
  features: string[];
  weights: number[];
  /** Provenance: training sets, folds, cross-validated metrics. */
  trained?: Record<string, unknown>;
}

/** Weights in FEATURE_NAMES order (a feature the file does not name weighs 0). */
export function linearRanker(model: RankerModel) {
  const byName = new Map(model.features.map((f, i) => [f, model.weights[i]]));
  const w = FEATURE_NAMES.map((f) => byName.get(f) ?? 0);
  return {
    model,
    /** Scores of a query's candidates from their raw feature rows. */
    score(rows: number[][]): number[] {
      return standardise(rows).map((z) => z.reduce((s, x, j) => s + x * w[j], 0));
    },
  };
}
export type LinearRanker = ReturnType<typeof linearRanker>;

/** The committed model (ranker.weights.json). */
export const committedRanker = (): LinearRanker => linearRanker(committed as RankerModel);
