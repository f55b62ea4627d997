/**
 * Training the svc_max linear ranker (src/modules/search/ranker.ts): a pairwise logistic loss
 * (RankNet with a linear scorer) over standardised features, L2-regularised, full-batch
 * gradient descent — deterministic, seconds on a few thousand queries. Cross-validation by
 * query groups, so a reported figure never comes from queries the weights were fitted on.
 */
import { standardise } from '../../src/modules/search/features.ts';

/** One query's candidates: raw feature rows and graded relevance (0 = not relevant). */
export interface Group {
  id: string;
  /** Which data set the query comes from (scifact, locomo …): folds and reports are per set. */
  set: string;
  rows: number[][];
  labels: number[];
}

export interface TrainOptions {
  l2?: number;
  epochs?: number;
  rate?: number;
  /** Negatives sampled per positive (all when the list is short). */
  negatives?: number;
}

/** Pairs (positive, negative) of a group, negatives chosen deterministically (every k-th). */
function pairs(g: Group, negatives: number): [number, number][] {
  const pos = g.labels.map((l, i) => (l > 0 ? i : -1)).filter((i) => i >= 0);
  const neg = g.labels.map((l, i) => (l > 0 ? -1 : i)).filter((i) => i >= 0);
  const step = Math.max(1, Math.floor(neg.length / negatives));
  const chosen = neg.filter((_, k) => k % step === 0).slice(0, negatives);
  return pos.flatMap((p) => chosen.map((n) => [p, n] as [number, number]));
}

/** Fit weights; groups without a relevant candidate teach nothing and are skipped. */
export function trainPairwise(groups: Group[], opts: TrainOptions = {}): number[] {
  const { l2 = 1e-3, epochs = 300, rate = 0.5, negatives = 30 } = opts;
  const m = groups.find((g) => g.rows.length)?.rows[0].length ?? 0;
  // Every pair's feature difference, precomputed once in one flat array (the loss only sees differences).
  const diffs: number[] = [];
  for (const g of groups) {
    if (!(g.labels.some((l) => l > 0) && g.labels.some((l) => l <= 0))) continue;
    const z = standardise(g.rows);
    for (const [p, n] of pairs(g, negatives)) for (let j = 0; j < m; j++) diffs.push(z[p][j] - z[n][j]);
  }
  const d = Float64Array.from(diffs);
  const total = d.length / Math.max(1, m) || 1;
  const w = new Float64Array(m);
  const grad = new Float64Array(m);
  for (let e = 0; e < epochs; e++) {
    for (let j = 0; j < m; j++) grad[j] = l2 * w[j];
    for (let o = 0; o < d.length; o += m) {
      let s = 0;
      for (let j = 0; j < m; j++) s += d[o + j] * w[j];
      const g = -1 / (1 + Math.exp(s)) / total; // d/ds of log(1 + e^-s), averaged over pairs
      for (let j = 0; j < m; j++) grad[j] += g * d[o + j];
    }
    for (let j = 0; j < m; j++) w[j] -= rate * grad[j];
  }
  return Array.from(w);
}

/** Candidates ordered by the linear score (ties: input order, i.e. the first stage's). */
export function rankGroup(g: Group, w: number[]): number[] {
  const z = standardise(g.rows);
  return z
    .map((r, i) => ({ i, s: r.reduce((a, x, j) => a + x * w[j], 0) }))
    .sort((a, b) => b.s - a.s || a.i - b.i)
    .map((x) => x.i);
}

/** nDCG@k of an order over binary/graded labels, against `totalRelevant` (relevant documents, found or not). */
export function ndcgAt(order: number[], labels: number[], totalRelevant: number, k = 10): number {
  const dcg = order.slice(0, k).reduce((s, i, r) => s + (labels[i] > 0 ? 1 / Math.log2(r + 2) : 0), 0);
  let ideal = 0;
  for (let r = 0; r < Math.min(k, totalRelevant); r++) ideal += 1 / Math.log2(r + 2);
  return ideal ? dcg / ideal : 0;
}

export function mrrAt(order: number[], labels: number[], k = 10): number {
  const r = order.slice(0, k).findIndex((i) => labels[i] > 0);
  return r < 0 ? 0 : 1 / (r + 1);
}

/** Deterministic k folds by query id hash, so reruns split alike. */
export function foldOf(id: string, k: number): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 0x01000193) >>> 0;
  return h % k;
}
