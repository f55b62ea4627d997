/**
 * Train the code-words model (src/platform/models/code-words.ts) on the Python installed here
 * and, when scripts/fetch-python-corpus.sh has fetched it, every python3 package of Debian's
 * archive.
 *
 * Pairs (scripts/lib/code-pairs.ts): every documented Python function under the roots — the
 * docstring's first paragraph as the query, the function's code without its docstring as the
 * document; the same code or the same (summary, name) once only; every function of the
 * evaluation corpus in CODE_EXCLUDE (by default CoSQA's, COSQA_DIR/corpus.jsonl) left out, so the
 * model never sees a function it is measured on. No query of any benchmark is read.
 *
 * Model: one vector per word (shared by queries and code, so a word matches itself); a text is
 * the idf-weighted mean of its words' vectors, unit length. Loss: in-batch softmax both ways
 * (each summary against the batch's functions and each function against the summaries) at
 * temperature 0.05; Adam on the rows a batch touches. Words seen in fewer than 3 pairs are
 * left out of training, and words of fewer than CODE_KEEP_PAIRS (20) out of the file: on the
 * whole Debian archive's Python, 60,795 words are trained and 17,970 written; writing every row
 * made the file 3.4 times larger and moved CoSQA dev by less than 0.002 (docs/transform.md).
 * Written as int8 rows with a scale each (code-words.weights.json).
 *
 *   npx tsx scripts/train-code-words.ts [root …]          (default: code-pairs.ts's roots that exist)
 *   CODE_DIM=256 CODE_EPOCHS=6 CODE_OUT=/tmp/w.json …
 */
import fs from 'node:fs';
import path from 'node:path';
import { unit } from '../src/platform/models/code-words.tokens.ts';
import type { CodeWordsWeights } from '../src/platform/models/code-words.ts';
import { dot } from '../src/platform/models/embedder.ts';
import { prng } from '../bench/lib/corpus.ts';
import { type CodePair, readPairs, rootsOf, vocabulary } from './lib/code-pairs.ts';

const DIM = Number(process.env.CODE_DIM || 256);
const EPOCHS = Number(process.env.CODE_EPOCHS || 6);
const OUT = process.env.CODE_OUT || path.resolve(import.meta.dirname, '../src/platform/models/code-words.weights.json');
/** A word's row is written only when it was in at least this many training pairs (footprint). */
const KEEP = Number(process.env.CODE_KEEP_PAIRS || 20);
const BATCH = 256;
const TAU = 0.05;
const LR = 2e-3;
const log = (s: string) => console.error(s);

/** Normal deviates from a seeded uniform stream (Box–Muller), so a training is repeatable. */
function random(seed: number) {
  const next = prng(seed);
  const normal = () => Math.sqrt(-2 * Math.log(next() + 1e-12)) * Math.cos(2 * Math.PI * next());
  return { next, normal };
}

interface Encoded {
  y: Float32Array[];
  norm: number[];
  terms: { row: number; weight: number }[][];
}

function train(pairs: CodePair[]): CodeWordsWeights {
  const vocab = vocabulary(pairs);
  const index = new Map(vocab.map(([t], i) => [t, i]));
  const idf = vocab.map(([, n]) => Math.log(1 + (2 * pairs.length) / n));
  log(`${vocab.length} words`);
  const rng = random(20);
  const E = new Float32Array(vocab.length * DIM).map(() => 0.1 * rng.normal());
  const m = new Float32Array(E.length);
  const v = new Float32Array(E.length);
  const bag = (words: string[]) => {
    const counts = new Map<number, number>();
    for (const t of words) {
      const i = index.get(t);
      if (i !== undefined) counts.set(i, (counts.get(i) ?? 0) + 1);
    }
    return [...counts].map(([row, k]) => ({ row, weight: idf[row] * (1 + Math.log(k)) }));
  };
  const data = pairs.map((p) => ({ q: bag(p.query), c: bag(p.code) })).filter((p) => p.q.length && p.c.length);
  const encode = (bags: { row: number; weight: number }[][]): Encoded => {
    const y: Float32Array[] = [];
    const norm: number[] = [];
    for (const b of bags) {
      const x = new Float32Array(DIM);
      for (const { row, weight } of b) for (let d = 0, o = row * DIM; d < DIM; d++) x[d] += weight * E[o + d];
      let n = 0;
      for (const a of x) n += a * a;
      norm.push(Math.sqrt(n) + 1e-8);
      y.push(unit(x));
    }
    return { y, norm, terms: bags };
  };
  let step = 0;
  for (let epoch = 0; epoch < EPOCHS; epoch++) {
    const order = data.map((_, i) => i);
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(rng.next() * (i + 1));
      [order[i], order[j]] = [order[j], order[i]];
    }
    let loss = 0;
    let batches = 0;
    for (let b = 0; b + BATCH <= order.length; b += BATCH) {
      const batch = order.slice(b, b + BATCH);
      const q = encode(batch.map((i) => data[i].q));
      const c = encode(batch.map((i) => data[i].c));
      const { grad, value } = batchGradient(q, c);
      loss += value;
      batches++;
      step++;
      adam(E, m, v, grad, step);
    }
    log(`epoch ${epoch + 1}: loss ${(loss / batches).toFixed(4)}`);
  }
  const kept = vocab.flatMap(([, n], i) => (n >= KEEP ? [i] : []));
  const rows = new Float32Array(kept.length * DIM);
  kept.forEach((i, r) => rows.set(E.subarray(i * DIM, (i + 1) * DIM), r * DIM));
  log(`${kept.length} words written (in at least ${KEEP} pairs)`);
  return quantised(
    kept.map((i) => vocab[i][0]),
    kept.map((i) => idf[i]),
    rows,
  );
}

/** The loss of one batch and its gradient on the rows it touched. */
function batchGradient(q: Encoded, c: Encoded) {
  const B = q.y.length;
  const S = q.y.map((a) => c.y.map((b) => dot(a, b) / TAU));
  const rows = softmaxRows(S);
  const cols = softmaxRows(S[0].map((_, j) => S.map((r) => r[j])));
  let value = 0;
  // d loss / d S[i][j], the two directions' mean cross-entropy summed.
  const gS = S.map((r, i) =>
    r.map((_, j) => (rows[i][j] - (i === j ? 1 : 0) + cols[j][i] - (i === j ? 1 : 0)) / B / TAU),
  );
  for (let i = 0; i < B; i++) value -= (Math.log(rows[i][i] + 1e-9) + Math.log(cols[i][i] + 1e-9)) / B;
  const grad = new Map<number, Float32Array>();
  const back = (side: Encoded, other: Encoded, transpose: boolean) => {
    for (let i = 0; i < B; i++) {
      const gy = new Float32Array(DIM);
      for (let j = 0; j < B; j++) {
        const g = transpose ? gS[j][i] : gS[i][j];
        if (g) for (let d = 0; d < DIM; d++) gy[d] += g * other.y[j][d];
      }
      // Through the unit norm: the part along y does not change the direction.
      const y = side.y[i];
      const along = dot(gy, y);
      for (let d = 0; d < DIM; d++) gy[d] = (gy[d] - along * y[d]) / side.norm[i];
      for (const { row, weight } of side.terms[i]) {
        let g = grad.get(row);
        if (!g) grad.set(row, (g = new Float32Array(DIM)));
        for (let d = 0; d < DIM; d++) g[d] += weight * gy[d];
      }
    }
  };
  back(q, c, false);
  back(c, q, true);
  return { grad, value };
}

function softmaxRows(S: number[][]): number[][] {
  return S.map((r) => {
    const top = Math.max(...r);
    const e = r.map((s) => Math.exp(s - top));
    const sum = e.reduce((a, b) => a + b, 0);
    return e.map((x) => x / sum);
  });
}

/** Adam on the touched rows only (rows a batch does not use keep their moments as they were). */
function adam(E: Float32Array, m: Float32Array, v: Float32Array, grad: Map<number, Float32Array>, step: number) {
  const c1 = 1 - 0.9 ** step;
  const c2 = 1 - 0.999 ** step;
  for (const [row, g] of grad)
    for (let d = 0, o = row * DIM; d < DIM; d++) {
      m[o + d] = 0.9 * m[o + d] + 0.1 * g[d];
      v[o + d] = 0.999 * v[o + d] + 0.001 * g[d] * g[d];
      E[o + d] -= (LR * (m[o + d] / c1)) / (Math.sqrt(v[o + d] / c2) + 1e-8);
    }
}

function quantised(vocab: string[], idf: number[], E: Float32Array): CodeWordsWeights {
  const bytes = new Int8Array(E.length);
  const scale = vocab.map((_, i) => {
    let top = 0;
    for (let d = 0; d < DIM; d++) top = Math.max(top, Math.abs(E[i * DIM + d]));
    const s = top / 127 || 1;
    for (let d = 0; d < DIM; d++) bytes[i * DIM + d] = Math.round(E[i * DIM + d] / s);
    return Number(s.toPrecision(6));
  });
  return {
    dim: DIM,
    vocab,
    idf: idf.map((x) => Number(x.toFixed(4))),
    scale,
    rows: Buffer.from(bytes.buffer).toString('base64'),
  };
}

const roots = rootsOf(process.argv.slice(2));
log(`reading ${roots.join(', ')}`);
const weights = train(readPairs(roots));
fs.writeFileSync(OUT, JSON.stringify(weights));
log(`wrote ${OUT} (${(fs.statSync(OUT).size / 1e6).toFixed(1)} MB)`);
