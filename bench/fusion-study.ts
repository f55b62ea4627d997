/**
 * Offline fusion study over the raw signal lists of bench/signals.ts: fusion schemes replayed on
 * all three dev sets at once (SciFact dev nDCG@10, CoSQA dev MRR@10, LoCoMo dev evidence
 * recall@10, first stage only: no session-neighbour loan), beside each signal alone. A scheme's
 * free parameter is never chosen on the figure it is reported with: it is picked on LoCoMo by
 * leave-one-conversation-out (the LoCoMo column is the held-out conversations' figure), and the
 * pick on all five conversations is applied unchanged to SciFact and CoSQA, which choose nothing.
 *
 *   npx tsx bench/fusion-study.ts [/tmp/engram-signals.jsonl]
 */
import fs from 'node:fs';
import { absentOf, fuse } from '../src/modules/search/fusion.ts';
import { mrrAt } from './lib/beir.ts';
import { recallAt } from './lib/locomo-data.ts';
import { ndcgAt } from './lib/scifact.ts';

type List = [string, number][];
interface Q {
  set: string;
  qid: string;
  group: string;
  category?: number;
  text: string;
  relevant: string[];
  lists: { bm25: List; dense: List; dense2: List };
}

const file = process.argv[2] || '/tmp/engram-signals.jsonl';
const queries: Q[] = fs
  .readFileSync(file, 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((l) => JSON.parse(l) as Q)
  .filter((q) => q.lists);

const metric = (q: Q, ranked: string[]) =>
  q.set === 'scifact'
    ? ndcgAt(ranked, new Set(q.relevant), 10)
    : q.set === 'cosqa'
      ? mrrAt(ranked, new Set(q.relevant), 10)
      : recallAt(q.relevant, ranked, 10);

// ---- normalisations ------------------------------------------------------------------------------
/** `complete`: the list holds every candidate the retriever matched (fewer than it was asked for). */
type Norm = (scores: number[], complete: boolean) => { values: number[]; missing: number };
const minmax: Norm = (s) => {
  const [lo, hi] = [Math.min(...s), Math.max(...s)];
  return { values: s.map((x) => (hi > lo ? (x - lo) / (hi - lo) : 1)), missing: 0 };
};
/** Divide by the maximum (a floor of 0: BM25 ≥ 0; cosines of these models are > 0 in practice). */
const maxNorm =
  (impute: 'zero' | 'min' | 'cut'): Norm =>
  (s, complete) => {
    const hi = Math.max(...s);
    const values = s.map((x) => (hi > 0 ? x / hi : 0));
    const floor = impute === 'min' || (impute === 'cut' && !complete);
    return { values, missing: floor ? Math.min(...values) : 0 };
  };
const zscore: Norm = (s) => {
  const mu = s.reduce((a, b) => a + b, 0) / s.length;
  const sd = Math.sqrt(s.reduce((a, b) => a + (b - mu) ** 2, 0) / s.length) || 1;
  const values = s.map((x) => (x - mu) / sd);
  return { values, missing: Math.min(...values) };
};

function fuseLists(lists: { list: List; weight: number; norm: Norm; depth?: number }[]): string[] {
  const total = new Map<string, number>();
  const missing: number[] = [];
  const normed = lists.map(({ list, weight, norm, depth }) => {
    const l = list.slice(0, depth ?? 100);
    if (!l.length || weight <= 0) return { map: new Map<string, number>(), weight: 0, missing: 0 };
    const { values, missing } = norm(
      l.map(([, s]) => s),
      list.length < (depth ?? 100),
    );
    return { map: new Map(l.map(([id], i) => [id, values[i]])), weight, missing };
  });
  for (const n of normed) for (const id of n.map.keys()) total.set(id, 0);
  void missing;
  for (const id of total.keys())
    total.set(
      id,
      normed.reduce((s, n) => s + n.weight * (n.map.get(id) ?? n.missing), 0),
    );
  return [...total.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([id]) => id);
}

type Scheme = (q: Q, p: number) => string[];
const three =
  (norm: Norm, split = [0.7, 0.3]): Scheme =>
  (q, p) =>
    fuseLists([
      { list: q.lists.bm25, weight: 1 - p, norm },
      { list: q.lists.dense, weight: split[0] * p, norm },
      { list: q.lists.dense2, weight: split[1] * p, norm },
    ]);

// ---- evaluation ----------------------------------------------------------------------------------
const sets = ['scifact', 'cosqa', 'locomo'];
const dev = (set: string) => queries.filter((q) => q.set === set && (set !== 'scifact' || q.group === 'dev'));
const mean = (qs: Q[], rank: (q: Q) => string[]) =>
  qs.length ? qs.reduce((s, q) => s + metric(q, rank(q)), 0) / qs.length : NaN;

function report(name: string, rank: (q: Q) => string[]) {
  const cells = sets.map((s) => mean(dev(s), rank).toFixed(4));
  console.log(`${name.padEnd(52)} ${cells.join('   ')}`);
}

const argmax = (grid: number[], f: (p: number) => number) => {
  let best = grid[0];
  let bestV = -Infinity;
  for (const p of grid) {
    const v = f(p);
    if (v > bestV + 1e-12) [best, bestV] = [p, v];
  }
  return best;
};

/** LoCoMo leave-one-conversation-out for p; SciFact and CoSQA with the all-LoCoMo pick. */
function crossValidated(name: string, scheme: Scheme, grid: number[]) {
  const loco = dev('locomo');
  const convs = [...new Set(loco.map((q) => q.group))];
  let sum = 0;
  const picks: number[] = [];
  for (const held of convs) {
    const train = loco.filter((q) => q.group !== held);
    const best = argmax(grid, (p) => mean(train, (q) => scheme(q, p)));
    picks.push(best);
    sum += loco.filter((q) => q.group === held).reduce((s, q) => s + metric(q, scheme(q, best)), 0);
  }
  const pick = argmax(grid, (p) => mean(loco, (q) => scheme(q, p)));
  const cells = [
    mean(dev('scifact'), (q) => scheme(q, pick)).toFixed(4),
    mean(dev('cosqa'), (q) => scheme(q, pick)).toFixed(4),
    (sum / loco.length).toFixed(4),
  ];
  console.log(`${`${name} [p=${pick}; folds ${picks.join(',')}]`.padEnd(52)} ${cells.join('   ')}`);
}

console.log(`${'scheme'.padEnd(52)} scifact     cosqa      locomo (R@10, LOCO-CV where p)`);
report('bm25 alone', (q) => q.lists.bm25.map(([id]) => id));
report('dense alone', (q) => q.lists.dense.map(([id]) => id));
report('dense2 alone', (q) => q.lists.dense2.map(([id]) => id));
report('minmax 0.5/0.35/0.15 (before)', (q) => three(minmax, [0.7, 0.3])(q, 0.5));
const served = (l: List, weight: number) => ({
  scores: new Map(l.slice(0, 100)),
  weight,
  absent: absentOf({ scores: new Map(), complete: l.length < 100 }),
});
report('the service: fuse() 0.4/0.42/0.18 (now)', (q) =>
  fuse([served(q.lists.bm25, 0.4), served(q.lists.dense, 0.42), served(q.lists.dense2, 0.18)]).map((f) => f.id),
);
for (const p of (process.env.STUDY_PS ?? '0.1,0.2,0.3,0.4,0.5').split(',').map(Number)) {
  report(`minmax p=${p}`, (q) => three(minmax)(q, p));
  report(`max(zero) p=${p}`, (q) => three(maxNorm('zero'))(q, p));
  report(`max(min) p=${p}`, (q) => three(maxNorm('min'))(q, p));
  report(`zscore p=${p}`, (q) => three(zscore)(q, p));
}
const grid = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7];
crossValidated('minmax', three(minmax), grid);
crossValidated('max(zero)', three(maxNorm('zero')), grid);
crossValidated('max(min)', three(maxNorm('min')), grid);
crossValidated('zscore', three(zscore), grid);

/**
 * p chosen on all three sets at once, cross-validated: five folds per set (LoCoMo by
 * conversation, SciFact and CoSQA by query position); for each fold p maximises the mean over the
 * sets of the gain relative to BM25 alone on the other four folds of every set, and is scored on
 * the held-out fold. What a new corpus of any of the three kinds would see.
 */
function crossValidatedAll(name: string, scheme: Scheme, grid: number[]) {
  const fold = (q: Q, i: number) =>
    q.set === 'locomo' ? ['conv-26', 'conv-30', 'conv-41', 'conv-42', 'conv-43'].indexOf(q.group) : i % 5;
  const bySet = sets.map((s) => dev(s).map((q, i) => ({ q, f: fold(q, i) })));
  const bm25 = (q: Q) => q.lists.bm25.map(([id]) => id);
  const held = sets.map(() => 0);
  const picks: number[] = [];
  for (let k = 0; k < 5; k++) {
    const train = bySet.map((xs) => xs.filter((x) => x.f !== k).map((x) => x.q));
    const base = train.map((qs) => mean(qs, bm25));
    const best = argmax(grid, (p) => train.reduce((s, qs, i) => s + mean(qs, (q) => scheme(q, p)) / base[i], 0));
    picks.push(best);
    bySet.forEach((xs, i) => {
      for (const x of xs) if (x.f === k) held[i] += metric(x.q, scheme(x.q, best));
    });
  }
  const cells = held.map((h, i) => (h / bySet[i].length).toFixed(4));
  console.log(`${`${name} [all-sets CV; folds p ${picks.join(',')}]`.padEnd(52)} ${cells.join('   ')}`);
}
const wide = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9];
crossValidatedAll('minmax', three(minmax), wide);
crossValidatedAll('max(min)', three(maxNorm('min')), wide);
crossValidatedAll('max(cut): floor only for a cut list', three(maxNorm('cut')), wide);
crossValidatedAll('zscore', three(zscore), wide);
if (process.env.STUDY_SPLITS === '1')
  for (const split of [
    [0.5, 0.5],
    [0.6, 0.4],
    [0.8, 0.2],
  ])
    crossValidatedAll(`max(min) split ${split}`, three(maxNorm('min'), split), wide);

// ---- exploratory variants (printed after the main table) -----------------------------------------
if (process.env.STUDY_MORE === '1') {
  const deep =
    (norm: Norm, depth: number, split = [0.7, 0.3]): Scheme =>
    (q, p) =>
      fuseLists([
        { list: q.lists.bm25, weight: 1 - p, norm, depth },
        { list: q.lists.dense, weight: split[0] * p, norm, depth },
        { list: q.lists.dense2, weight: split[1] * p, norm, depth },
      ]);
  /** min-max whose floor is the minimum of the deeper list (between minmax and max). */
  const floorAt =
    (frac: number): Norm =>
    (s) => {
      const hi = Math.max(...s);
      const lo = Math.min(...s) * frac;
      const values = s.map((x) => (hi > lo ? (x - lo) / (hi - lo) : 1));
      return { values, missing: Math.min(...values) };
    };
  for (const split of [
    [1, 0],
    [0.5, 0.5],
    [0.7, 0.3],
  ])
    crossValidated(`max(min) split ${split}`, three(maxNorm('min'), split), grid);
  crossValidated('max(min) depth 200', deep(maxNorm('min'), 200), grid);
  crossValidated('max(min) depth 50', deep(maxNorm('min'), 50), grid);
  for (const f of [0.5, 0.8, 0.9]) crossValidated(`floor ${f}·min`, three(floorAt(f)), grid);
}
