/**
 * The corpus-dependent half of SIF (Arora et al., "A Simple but Tough-to-Beat Baseline for
 * Sentence Embeddings", ICLR 2017): word probabilities p(w) and the common component.
 *
 * Choices, measured with GloVe SIF alone (a = 1e-3) on the dev sets
 * (SciFact nDCG@10 | LoCoMo R@5/10/25):
 *   p(w) Zipf from rank, no component removed   0.213 | 32.2/44.4/57.3   (the unfitted default)
 *   p(w) Zipf from rank, component removed      0.228 | 33.0/43.3/59.1
 *   p(w) from the corpus (add-one), removed     0.251 | 38.6/50.0/64.4
 *   same, fitted on only 300 texts              0.241 | 34.4/43.8/59.7
 *   corpus counts + 10k Zipf pseudo-tokens      0.250 | 39.1/51.1/64.4   (chosen)
 *   same, fitted on only 300 texts              0.250 | 39.5/51.0/64.2
 * So p(w) comes from a sample of the indexed texts, smoothed toward the Zipf prior with
 * 10,000 pseudo-tokens (robust to small samples), and the first principal component of that
 * sample's SIF vectors is removed. GloVe's own counts are not shipped, hence the Zipf prior
 * p(rank r) = 1 / ((r + 1) · H_V) over the source vocabulary V (GloVe 6B ranks by frequency).
 */
import { createHash } from 'node:crypto';

/** A persisted corpus fit: sparse word counts and the unit common component. */
export interface SifFit {
  format: 1;
  /** Zipf pseudo-tokens mixed into the counts. */
  priorTokens: number;
  /** Texts and in-vocabulary tokens in the sample. */
  texts: number;
  tokens: number;
  /** [rank, count] pairs for every vocabulary word seen in the sample. */
  counts: [number, number][];
  /** First principal component of the sample's SIF vectors (unit length). */
  component: number[];
  fittedAt: string;
}

/** Pseudo-tokens of the Zipf prior mixed into corpus counts (see the table above). */
export const PRIOR_TOKENS = 10_000;

/** Zipf estimate of p(w) for the word of 0-based `rank` in a vocabulary of `vocabularySize`. */
function zipfProbability(rank: number, vocabularySize: number): number {
  const harmonic = Math.log(vocabularySize) + 0.5772156649 + 1 / (2 * vocabularySize);
  return 1 / ((rank + 1) * harmonic);
}

/**
 * SIF weights a / (a + p(w)) for ranks 0..size-1, from the Zipf prior alone or from a
 * fit's counts mixed with it: p = (count + μ·zipf) / (tokens + μ).
 */
export function sifWeights(
  size: number,
  vocabularySize: number,
  a: number,
  fit?: Pick<SifFit, 'counts' | 'tokens' | 'priorTokens'>,
): Float32Array {
  const counts = new Float64Array(size);
  for (const [rank, count] of fit?.counts ?? []) if (rank < size) counts[rank] = count;
  const mu = fit ? fit.priorTokens : 1;
  const tokens = fit ? fit.tokens : 0;
  const weights = new Float32Array(size);
  for (let r = 0; r < size; r++) {
    const p = (counts[r] + mu * zipfProbability(r, vocabularySize)) / (tokens + mu);
    weights[r] = a / (a + p);
  }
  return weights;
}

/** Count in-vocabulary tokens over the sample, as the sparse pairs a fit stores. */
export function countTokens(samples: number[][]): { counts: [number, number][]; tokens: number } {
  const counts = new Map<number, number>();
  let tokens = 0;
  for (const ids of samples) {
    for (const id of ids) counts.set(id, (counts.get(id) ?? 0) + 1);
    tokens += ids.length;
  }
  return { counts: [...counts].sort((x, y) => x[0] - y[0]), tokens };
}

/**
 * First principal component (uncentred, as in the SIF paper's TruncatedSVD) of `rows`,
 * by power iteration on the d×d Gram matrix, which is cheap at d = 100. The sign is fixed
 * (largest-magnitude entry positive) so equal samples give byte-equal fits.
 */
export function firstPrincipalComponent(rows: Float64Array[], dimensions: number): number[] {
  const gram = new Float64Array(dimensions * dimensions);
  for (const x of rows) {
    for (let i = 0; i < dimensions; i++) {
      const xi = x[i];
      if (xi === 0) continue;
      for (let j = 0; j < dimensions; j++) gram[i * dimensions + j] += xi * x[j];
    }
  }
  let u = new Float64Array(dimensions).fill(1 / Math.sqrt(dimensions));
  for (let iter = 0; iter < 300; iter++) {
    const next = new Float64Array(dimensions);
    for (let i = 0; i < dimensions; i++) {
      let s = 0;
      for (let j = 0; j < dimensions; j++) s += gram[i * dimensions + j] * u[j];
      next[i] = s;
    }
    const norm = Math.hypot(...next);
    if (norm === 0) throw new RangeError('firstPrincipalComponent: all rows are zero');
    let delta = 0;
    for (let i = 0; i < dimensions; i++) {
      next[i] /= norm;
      delta += Math.abs(next[i] - u[i]);
    }
    u = next;
    if (delta < 1e-12) break;
  }
  let peak = 0;
  for (let i = 0; i < dimensions; i++) if (Math.abs(u[i]) > Math.abs(u[peak])) peak = i;
  const sign = u[peak] < 0 ? -1 : 1;
  return Array.from(u, (x) => x * sign);
}

/** Short content hash of a fit; part of the embedder id so re-fitting is a visible model change. */
export function fitFingerprint(fit: SifFit): string {
  const h = createHash('sha256');
  h.update(JSON.stringify([fit.priorTokens, fit.tokens, fit.counts, fit.component]));
  return h.digest('hex').slice(0, 8);
}
