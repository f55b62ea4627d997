/**
 * USE lite on ONNX Runtime against the TF.js original, on the same texts, in one run:
 *  - tokenisation: the port (use-lite.tokenizer.ts) against @energetic-ai/embeddings' tokenizer;
 *  - vectors: cosine between the two embedders' output for each text (target ≥ 0.9999);
 *  - speed: bare query embedding (one text per call) p50/p95, and indexing throughput
 *    (texts/s in batches) for both runtimes.
 *
 *   npm run bench:use-lite            (2,000 texts; EQUALITY_TEXTS to change)
 *
 * Env: EQUALITY_TEXTS (2000), EQUALITY_QUERIES (300 single-text calls per runtime),
 * USE_THREADS (ONNX intra-op threads, 1).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createUseLiteEmbedder } from '../src/platform/models/use-lite.ts';
import { UseLiteTokenizer } from '../src/platform/models/use-lite.tokenizer.ts';
import { readUseLiteVocabulary } from '../src/platform/models/use-lite.weights.ts';
import { createTfjsUseLiteEmbedder } from '../test/use-lite-tfjs.ts';
import { variedTexts } from './lib/varied-texts.ts';
import { median, percentile } from './stats.ts';

const COUNT = Number(process.env.EQUALITY_TEXTS || 2000);
const QUERIES = Number(process.env.EQUALITY_QUERIES || 300);
const THREADS = Number(process.env.USE_THREADS || 1);

/** The original tokenizer class, evaluated from the package's bundle without loading TF.js. */
function originalTokenizer(vocabulary: [string, number][]): { encode(t: string): number[] } {
  const require = createRequire(import.meta.url);
  const bundle = readFileSync(require.resolve('@energetic-ai/embeddings'), 'utf8');
  const code = bundle.slice(bundle.indexOf('// lib/stringToChars.ts'), bundle.lastIndexOf('// lib/index.ts'));
  const Tokenizer = new Function(`${code}; return Tokenizer;`)() as new (v: [string, number][]) => {
    encode(t: string): number[];
  };
  return new Tokenizer(vocabulary);
}

const cosine = (a: number[], b: number[]) => {
  let d = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    d += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return d / Math.sqrt(na * nb);
};

const texts = variedTexts(COUNT);
const vocabulary = await readUseLiteVocabulary();
const port = new UseLiteTokenizer(vocabulary);
const original = originalTokenizer(vocabulary);
const tokenMismatches = texts.filter((t) => JSON.stringify(port.encode(t)) !== JSON.stringify(original.encode(t)));

const onnx = createUseLiteEmbedder({ threads: THREADS });
const tfjs = createTfjsUseLiteEmbedder();
await Promise.all([onnx.load(), tfjs.load()]);

async function throughput(e: {
  embed(t: string[]): Promise<number[][]>;
}): Promise<{ vectors: number[][]; rate: number }> {
  const t0 = performance.now();
  const vectors = await e.embed(texts);
  return { vectors, rate: texts.length / ((performance.now() - t0) / 1000) };
}
const a = await throughput(onnx);
const b = await throughput(tfjs);
const cosines = texts.map((_, i) => cosine(a.vectors[i], b.vectors[i]));
const worst = cosines.map((c, i) => ({ c, i })).sort((x, y) => x.c - y.c)[0];

async function queryLatency(e: { embed(t: string[]): Promise<number[][]> }): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < QUERIES; i++) {
    const text = texts[(i * 7) % texts.length].slice(0, 200); // query-sized
    const t0 = performance.now();
    await e.embed([text]);
    times.push(performance.now() - t0);
  }
  return times;
}
const qa = await queryLatency(onnx);
const qb = await queryLatency(tfjs);

console.log(
  `texts: ${texts.length} (mean ${Math.round(texts.reduce((s, t) => s + t.length, 0) / texts.length)} chars)`,
);
console.log(`tokenizer: ${texts.length - tokenMismatches.length}/${texts.length} identical`);
for (const t of tokenMismatches.slice(0, 5)) console.log(`  differs: ${JSON.stringify(t.slice(0, 80))}`);
console.log(
  `cosine ONNX vs TF.js: min ${worst.c.toFixed(7)} (1 − min ${(1 - worst.c).toExponential(1)}) ` +
    `(text ${worst.i}), p1 ${percentile(cosines, 1).toFixed(7)}, ` +
    `median ${median(cosines).toFixed(7)}; below 0.9999: ${cosines.filter((c) => c < 0.9999).length}`,
);
console.log('');
const row = (name: string, q: number[], rate: number) =>
  `| ${name} | ${median(q).toFixed(2)} ms | ${percentile(q, 95).toFixed(2)} ms | ${rate.toFixed(0)} |`;
console.log('| runtime | query p50 | query p95 | batch texts/s |');
console.log('|---|---|---|---|');
console.log(row(`ONNX Runtime (${THREADS} thread)`, qa, a.rate));
console.log(row('TF.js WASM', qb, b.rate));
console.log(
  `speed-up: query p50 ×${(median(qb) / median(qa)).toFixed(1)}, throughput ×${(a.rate / b.rate).toFixed(1)}`,
);
if (tokenMismatches.length > 0 || worst.c < 0.9999) process.exitCode = 1;
