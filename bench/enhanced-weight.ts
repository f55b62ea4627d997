/**
 * The weight of the transform score in svc_enhanced (src/modules/search/rerank-stage.ts,
 * ENHANCED_WEIGHT), chosen like the fusion's weights (docs/transform.md, "svc_enhanced"): the order
 * z(first stage) + w · z(enhanced) is replayed over the candidates that scripts/train-ranker.ts
 * cached (TRAIN_CACHE: first-stage score and transform score of each query's top 100), for SciFact
 * dev (nDCG@10), CoSQA dev (MRR@10) and LoCoMo dev (R@10). Printed: each set at every w (in
 * sample), then five folds (LoCoMo by conversation, the others by query position) whose w is chosen
 * on the other four folds of all three sets at once — the mean over the sets of the figure relative
 * to w = 0 — and the held-out figures. Seconds; no store needed once the cache exists.
 *
 *   npx tsx bench/enhanced-weight.ts                TRAIN_CACHE=/tmp/rank-new.json npx tsx bench/enhanced-weight.ts
 */
import fs from 'node:fs';
import { mrrAt, ndcgAt } from '../scripts/lib/rank-train.ts';
import { standardise } from '../src/modules/search/features.ts';

interface Hit {
  key: string;
  f: Record<string, number>;
}
interface Query {
  set: string;
  group: string;
  relevant: string[];
  hits: Hit[];
}

const CACHE = process.env.TRAIN_CACHE || '/tmp/engram-ranker.json';
const WEIGHTS = [0, 0.05, 0.1, 0.15, 0.2, 0.3, 0.5, 0.75, 1];
const SETS = ['scifact', 'cosqa', 'locomo'];
const { queries } = JSON.parse(fs.readFileSync(CACHE, 'utf8')) as { queries: Query[] };
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);

/** The query's figure with the candidates ordered by z(first stage) + w · z(enhanced). */
function figure(q: Query, w: number): number {
  const z = standardise(q.hits.map((h) => [h.f.first_stage, h.f.enhanced]));
  const score = z.map(([f, e]) => f + w * e);
  const order = q.hits.map((_, i) => i).sort((a, b) => score[b] - score[a] || a - b);
  const rel = new Set(q.relevant);
  const labels = q.hits.map((h) => (rel.has(h.key) ? 1 : 0));
  if (q.set === 'locomo') return rel.size ? order.slice(0, 10).filter((i) => labels[i]).length / rel.size : 1;
  return q.set === 'cosqa' ? mrrAt(order, labels) : ndcgAt(order, labels, rel.size);
}

// SciFact's train claims are the ranker's training data; the dev claims are what is measured.
const evaluated = SETS.flatMap((set) =>
  queries.filter((q) => q.set === set && (set !== 'scifact' || q.group === 'dev')),
);
const conversations = [...new Set(evaluated.filter((q) => q.set === 'locomo').map((q) => q.group))].sort();
const position = new Map<Query, number>();
for (const set of SETS) evaluated.filter((q) => q.set === set).forEach((q, i) => position.set(q, i));
const foldOf = (q: Query) => (q.set === 'locomo' ? conversations.indexOf(q.group) % 5 : position.get(q)! % 5);

for (const w of WEIGHTS)
  console.log(
    `w ${String(w).padEnd(5)}`,
    SETS.map((s) => `${s} ${mean(evaluated.filter((q) => q.set === s).map((q) => figure(q, w))).toFixed(4)}`).join(
      '  ',
    ),
  );

const held: Record<string, number[]> = Object.fromEntries(SETS.map((s) => [s, []]));
const picks: number[] = [];
for (let k = 0; k < 5; k++) {
  const train = evaluated.filter((q) => foldOf(q) !== k);
  const relative = (w: number) =>
    mean(
      SETS.map((s) => {
        const qs = train.filter((q) => q.set === s);
        return mean(qs.map((q) => figure(q, w))) / mean(qs.map((q) => figure(q, 0)));
      }),
    );
  const best = WEIGHTS.reduce((b, w) => (relative(w) > relative(b) + 1e-12 ? w : b), 0);
  picks.push(best);
  for (const q of evaluated.filter((q) => foldOf(q) === k)) held[q.set].push(figure(q, best));
}
console.log(
  `cross-validated: w per fold ${picks.join(', ')}; held out`,
  SETS.map((s) => `${s} ${mean(held[s]).toFixed(4)}`).join('  '),
);
