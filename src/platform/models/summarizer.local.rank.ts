/**
 * Which sentences a summary keeps: centrality (how close a sentence is to what the window is
 * mostly about), informativeness (names, dates, numbers; not questions or small talk), then
 * maximal marginal relevance so a second sentence saying the same thing is not picked.
 *
 * Similarity between sentences is lexical (BM25-weighted term vectors, cosine): it sees the
 * shared names and numbers that make two sentences say the same thing. An embedder, when given,
 * adds to centrality only (see `similarity` for why and what was measured).
 */
import { dot } from './embedder.ts';
import type { Sentence } from './summarizer.local.text.ts';

/** How much a selection may hold. */
export interface Budget {
  sentences: number;
  words: number;
}

/** Pairwise similarity of a window's sentences, and how central each is. */
export interface Similarity {
  /** sim[i][j] in [0, 1]. */
  sim: number[][];
  /** Closeness of each sentence to the mass-weighted centroid of the window, in [0, 1]. */
  central: number[];
}

const K1 = 1.2;
const B = 0.75;
/** Weight of the embedding in centrality; lexical carries the rest (see `similarity`). */
const DENSE_WEIGHT = 0.25;

/** A sparse term vector. */
type Sparse = Map<string, number>;

/**
 * BM25-weighted term vectors of the sentences (idf from the sentences themselves), L2-normalised,
 * with the norm each had before: how much weighted content the sentence carries.
 */
export function lexicalVectors(sentences: Sentence[]): { vectors: Sparse[]; norms: number[] } {
  const df = new Map<string, number>();
  for (const s of sentences) for (const t of new Set(s.terms)) df.set(t, (df.get(t) ?? 0) + 1);
  const n = sentences.length;
  const avgLen = sentences.reduce((a, s) => a + s.terms.length, 0) / Math.max(1, n) || 1;
  const norms: number[] = [];
  const vectors = sentences.map((s) => {
    const tf = new Map<string, number>();
    for (const t of s.terms) tf.set(t, (tf.get(t) ?? 0) + 1);
    const v: Sparse = new Map();
    let sq = 0;
    for (const [t, f] of tf) {
      const idf = Math.log(1 + (n - df.get(t)! + 0.5) / (df.get(t)! + 0.5));
      const w = (idf * (f * (K1 + 1))) / (f + K1 * (1 - B + (B * s.terms.length) / avgLen));
      v.set(t, w);
      sq += w * w;
    }
    const norm = Math.sqrt(sq);
    for (const [t, w] of v) v.set(t, norm > 0 ? w / norm : 0);
    norms.push(norm);
    return v;
  });
  return { vectors, norms };
}

function sparseDot(a: Sparse, b: Sparse): number {
  if (a.size > b.size) [a, b] = [b, a];
  let s = 0;
  for (const [t, w] of a) s += w * (b.get(t) ?? 0);
  return s;
}

/** Cosine of each sparse vector to the mass-weighted centroid of all, clamped to [0, 1]. */
function sparseCentroidCosines(vectors: Sparse[], masses: number[]): number[] {
  const c: Sparse = new Map();
  vectors.forEach((v, i) => v.forEach((w, t) => c.set(t, (c.get(t) ?? 0) + masses[i] * w)));
  const norm = Math.sqrt([...c.values()].reduce((a, w) => a + w * w, 0)) || 1;
  return vectors.map((v) => Math.max(0, sparseDot(v, c) / norm));
}

/** Cosine of each dense vector to the mass-weighted centroid of all, clamped to [0, 1]. */
function denseCentroidCosines(vectors: number[][], masses: number[]): number[] {
  if (vectors.length === 0) return [];
  const c = new Array<number>(vectors[0].length).fill(0);
  vectors.forEach((v, i) => v.forEach((x, d) => (c[d] += masses[i] * x)));
  const norm = Math.sqrt(c.reduce((a, x) => a + x * x, 0)) || 1;
  return vectors.map((v) => Math.max(0, dot(v, c) / norm));
}

/**
 * Similarities and centrality of a window (measured with bench/summaries.ts on the LoCoMo dev
 * sessions, ROUGE-1 F1 of long_term).
 *
 * Lexical centrality is MEAD's centroid score: the sentence's weighted terms summed against the
 * centroid (cosine times the sentence's term-vector norm), so a sentence saying more about the
 * session's main subjects outranks a short one that only touches them; `sentenceValue` caps
 * what length can buy. It beat the plain cosine by about 1 point; LexRank (PageRank over the
 * similarity graph) scored the same as the cosine.
 *
 * Embeddings are a minor signal, a quarter of centrality, taken after their common component is
 * removed (as SIF does): chat sentences share a "chat" direction that makes every one look
 * central. With USE lite an equal share, or no removal, scored 1–3 points below lexical alone,
 * and embedding similarity in the redundancy test cost 0.4; as wired, USE lite is level with
 * lexical alone (USE finds the topic, not the claim; ARCHITECTURE.md §7). The port stays so a
 * stronger embedder can be measured.
 */
export function similarity(sentences: Sentence[], embeddings?: number[][]): Similarity {
  const dense = embeddings && removeCommonComponent(embeddings);
  const { vectors, norms } = lexicalVectors(sentences);
  const masses = sentences.map((s) => s.mass);
  const n = sentences.length;
  const sim = Array.from({ length: n }, () => new Array<number>(n).fill(0));
  for (let i = 0; i < n; i++)
    for (let j = i + 1; j < n; j++) {
      sim[i][j] = sim[j][i] = sparseDot(vectors[i], vectors[j]);
    }
  const maxNorm = Math.max(...norms, 1e-9);
  const lexCentral = sparseCentroidCosines(vectors, masses).map((c, i) => (c * norms[i]) / maxNorm);
  if (!dense) return { sim, central: lexCentral };
  const denseCentral = denseCentroidCosines(dense, masses);
  return { sim, central: lexCentral.map((c, i) => (1 - DENSE_WEIGHT) * c + DENSE_WEIGHT * denseCentral[i]) };
}

/** Project out the vectors' first principal component (power iteration) and renormalise. */
function removeCommonComponent(vectors: number[][]): number[][] {
  if (vectors.length < 3) return vectors;
  const d = vectors[0].length;
  let u = new Array<number>(d).fill(0);
  for (const v of vectors) for (let k = 0; k < d; k++) u[k] += v[k];
  for (let iteration = 0; iteration < 20; iteration++) {
    const next = new Array<number>(d).fill(0);
    for (const v of vectors) {
      const p = dot(v, u);
      for (let k = 0; k < d; k++) next[k] += p * v[k];
    }
    const norm = Math.sqrt(next.reduce((a, x) => a + x * x, 0)) || 1;
    u = next.map((x) => x / norm);
  }
  return vectors.map((v) => {
    const p = dot(v, u);
    const w = v.map((x, k) => x - p * u[k]);
    const norm = Math.sqrt(w.reduce((a, x) => a + x * x, 0)) || 1;
    return w.map((x) => x / norm);
  });
}

/** Openings that point back at something the summary will not show ("They always look so relaxed"). */
const DANGLING = /^(?:it|it's|it['’]s|they|they're|they['’]re|that|that's|that['’]s|this|these|those|he|she)\b/i;

/**
 * How much a sentence is worth keeping, before redundancy: centrality times an informativeness
 * factor. Names, dates and numbers are what a summary is read for (each adds 15 %, up to three);
 * questions and sentences with little content rarely state anything (halved); a sentence that
 * opens with a pronoun leans on context the summary leaves out (×0.7, measured +1 ROUGE-1 on
 * the LoCoMo dev sessions); and a sentence longer than 30 words costs budget two short ones
 * could use, so its value is divided by how far it runs over.
 */
export function sentenceValue(s: Sentence, centrality: number): number {
  let v = centrality * (1 + 0.15 * Math.min(3, s.specifics));
  if (s.question) v *= 0.5;
  if (DANGLING.test(s.text)) v *= 0.7;
  if (new Set(s.terms).size < 3) v *= 0.5;
  if (s.words > 30) v *= 30 / s.words;
  return v;
}

/** Above this similarity to a kept sentence a candidate is taken to repeat it, whatever its value. */
const DUPLICATE = 0.6;
/** MMR trade-off: value against novelty (1 would ignore redundancy). */
const LAMBDA = 0.7;

/** Restrictions on a selection. */
export interface SelectOptions {
  /** Only these sentences may be picked. */
  eligible?: (i: number) => boolean;
  /** At least `slots` sentences (when there are fitting ones) come from `group`. */
  reserve?: { group: (i: number) => boolean; slots: number };
}

/**
 * Pick sentences by maximal marginal relevance until the budget is full; returns indexes in
 * chronological order (a summary reads in the order things happened). Reserved slots are
 * filled first, from their group, then the rest from every eligible sentence.
 */
export function selectSentences(
  sentences: Sentence[],
  sims: Similarity,
  budget: Budget,
  options: SelectOptions = {},
): number[] {
  const eligible = options.eligible ?? (() => true);
  const values = sentences.map((s, i) => sentenceValue(s, sims.central[i]));
  const top = Math.max(...sentences.flatMap((_, i) => (eligible(i) ? [values[i]] : [])), 1e-9);
  const chosen: number[] = [];
  let words = 0;
  const greedy = (candidates: number[], limit: number) => {
    const open = new Set(candidates.filter((i) => !chosen.includes(i)));
    while (chosen.length < limit && open.size > 0) {
      let best = -1;
      let bestScore = -Infinity;
      for (const i of open) {
        const redundancy = chosen.reduce((m, j) => Math.max(m, sims.sim[i][j]), 0);
        if (redundancy > DUPLICATE || words + sentences[i].words > budget.words || values[i] <= 0) {
          open.delete(i);
          continue;
        }
        const score = LAMBDA * (values[i] / top) - (1 - LAMBDA) * redundancy;
        if (score > bestScore) [best, bestScore] = [i, score];
      }
      if (best < 0) break;
      chosen.push(best);
      open.delete(best);
      words += sentences[best].words;
    }
  };
  const all = sentences.flatMap((_, i) => (eligible(i) ? [i] : []));
  if (options.reserve) {
    const { group, slots } = options.reserve;
    greedy(
      all.filter((i) => group(i)),
      Math.min(slots, budget.sentences),
    );
  }
  greedy(all, budget.sentences);
  return chosen.sort((a, b) => sentences[a].order - sentences[b].order);
}
