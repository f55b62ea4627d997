/**
 * The code models (src/platform/models/code-words.ts, code-translation.ts) alone on CoSQA dev, and
 * beside BM25: MRR@10 of BM25 (k1 0.9, b 0.4 over the models' own words), of the code-words cosine
 * alone, of the two z-scored within each query and summed (the cosine at weights 0.5, 1, 2), of the
 * translation likelihood alone and z-summed with the others. A development
 * aid: what search does with the model is measured by scripts/train-ranker.ts (svc_max, held out)
 * and `npm run bench:rerank`.
 *
 *   npx tsx bench/code-words.ts
 *   CODE_WEIGHTS=/tmp/w.json CODE_TRANSLATION=/tmp/t.json npx tsx bench/code-words.ts   (other weights)
 */
import fs from 'node:fs';
import { codeTranslationModel, type CodeTranslationWeights } from '../src/platform/models/code-translation.ts';
import { codeWords, codeWordsModel, type CodeWordsWeights } from '../src/platform/models/code-words.ts';
import { mrrAt } from './lib/beir.ts';
import { COSQA_DIR } from './lib/dev-sets.ts';

const dir = COSQA_DIR;
const model = process.env.CODE_WEIGHTS
  ? codeWordsModel(JSON.parse(fs.readFileSync(process.env.CODE_WEIGHTS, 'utf8')) as CodeWordsWeights)
  : codeWordsModel();
const translation = process.env.CODE_TRANSLATION
  ? codeTranslationModel(JSON.parse(fs.readFileSync(process.env.CODE_TRANSLATION, 'utf8')) as CodeTranslationWeights)
  : codeTranslationModel();
const lines = (f: string) => fs.readFileSync(`${dir}/${f}`, 'utf8').split('\n').filter(Boolean);
const docs = lines('corpus.jsonl').map((l) => JSON.parse(l) as { _id: string; text: string });
const queries = new Map(lines('queries.jsonl').map((l) => [JSON.parse(l)._id, JSON.parse(l).text as string]));
const gold = lines('qrels/dev.tsv')
  .slice(1)
  .map((l) => l.split('\t'))
  .map(([q, d]) => ({ text: queries.get(q)!, doc: docs.findIndex((x) => x._id === d) }));

const words = docs.map((d) => codeWords(d.text));
const vectors = docs.map((d) => model.vector(d.text));
const df = new Map<string, number>();
for (const w of words) for (const t of new Set(w)) df.set(t, (df.get(t) ?? 0) + 1);
const tf = words.map((w) => w.reduce((m, t) => m.set(t, (m.get(t) ?? 0) + 1), new Map<string, number>()));
const avg = words.reduce((a, w) => a + w.length, 0) / words.length;
const bm25 = (q: string[]) =>
  tf.map((f, j) => {
    let s = 0;
    for (const t of new Set(q)) {
      const n = f.get(t);
      if (!n) continue;
      const idf = Math.log(1 + (docs.length - df.get(t)! + 0.5) / (df.get(t)! + 0.5));
      s += (idf * n * 1.9) / (n + 0.9 * (0.6 + (0.4 * words[j].length) / avg));
    }
    return s;
  });
const z = (x: number[]) => {
  const mean = x.reduce((a, b) => a + b, 0) / x.length;
  const sd = Math.sqrt(x.reduce((a, b) => a + (b - mean) ** 2, 0) / x.length) || 1;
  return x.map((v) => (v - mean) / sd);
};
/** The reciprocal rank of the gold function in the first ten (ties in corpus order), as bench:retrieval scores it. */
const rr = (scores: number[], doc: number) => {
  const top = scores
    .map((s, i) => [s, i])
    .sort((a, b) => b[0] - a[0] || a[1] - b[1])
    .slice(0, 10);
  return mrrAt(
    top.map(([, i]) => String(i)),
    new Set([String(doc)]),
  );
};

const rows = gold.map(({ text, doc }) => {
  const q = model.vector(text, true);
  const cos = vectors.map((v) => v.reduce((a, x, d) => a + x * q[d], 0));
  const likely = translation.scorer(text);
  return { doc, lexical: bm25(codeWords(text, true)), cos, trans: docs.map((d) => likely(d.text)) };
});
const mrr = (f: (r: (typeof rows)[number]) => number[]) =>
  (rows.reduce((a, r) => a + rr(f(r), r.doc), 0) / rows.length).toFixed(4);
console.log(`CoSQA dev MRR@10 (${rows.length} queries, ${docs.length} functions)`);
console.log(`  bm25 ${mrr((r) => r.lexical)}   code words ${mrr((r) => r.cos)}`);
for (const w of [0.5, 1, 2]) {
  const fused = mrr((r) => {
    const a = z(r.lexical);
    const b = z(r.cos);
    return a.map((x, i) => x + w * b[i]);
  });
  console.log(`  bm25 + ${w} × code words ${fused}`);
}
const sum = (...xs: number[][]) => xs.map(z).reduce((a, b) => a.map((x, i) => x + b[i]));
console.log(`  code translation ${mrr((r) => r.trans)}   code words + translation ${mrr((r) => sum(r.cos, r.trans))}`);
console.log(`  bm25 + code words + translation ${mrr((r) => sum(r.lexical, r.cos, r.trans))}`);
