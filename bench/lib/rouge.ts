/**
 * ROUGE (Lin 2004) F1 for one candidate against one reference, as Google's `rouge-score`
 * computes `rouge1`, `rouge2` and `rougeL` with `use_stemmer=True`: lowercase, tokens are runs
 * of a–z and 0–9 (everything else separates), Porter-stemmed (the `stemmer` package), no
 * stop words removed; ROUGE-N counts clipped n-gram overlaps; ROUGE-L is the longest common
 * subsequence over the whole texts (not the per-sentence "Lsum" variant).
 */
import { stemmer } from 'stemmer';

/** Precision, recall and F1 of one comparison. */
export interface Prf {
  p: number;
  r: number;
  f: number;
}

/** Lowercased alphanumeric tokens, Porter-stemmed unless `stem` is false. */
export function rougeTokens(text: string, stem = true): string[] {
  const tokens = text
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  // rouge-score stems only tokens longer than 3 characters.
  return stem ? tokens.map((t) => (t.length > 3 ? stemmer(t) : t)) : tokens;
}

function prf(overlap: number, candidate: number, reference: number): Prf {
  const p = candidate ? overlap / candidate : 0;
  const r = reference ? overlap / reference : 0;
  return { p, r, f: p + r ? (2 * p * r) / (p + r) : 0 };
}

function ngrams(tokens: string[], n: number): Map<string, number> {
  const out = new Map<string, number>();
  for (let i = 0; i + n <= tokens.length; i++) {
    const key = tokens.slice(i, i + n).join(' ');
    out.set(key, (out.get(key) ?? 0) + 1);
  }
  return out;
}

/** ROUGE-N between token lists. */
export function rougeN(candidate: string[], reference: string[], n: number): Prf {
  const c = ngrams(candidate, n);
  const r = ngrams(reference, n);
  let overlap = 0;
  for (const [g, k] of c) overlap += Math.min(k, r.get(g) ?? 0);
  return prf(overlap, Math.max(0, candidate.length - n + 1), Math.max(0, reference.length - n + 1));
}

/** Length of the longest common subsequence (O(m·n) time, O(n) memory). */
export function lcsLength(a: string[], b: string[]): number {
  let prev = new Array<number>(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    const cur = new Array<number>(b.length + 1).fill(0);
    for (let j = 1; j <= b.length; j++)
      cur[j] = a[i - 1] === b[j - 1] ? prev[j - 1] + 1 : Math.max(prev[j], cur[j - 1]);
    prev = cur;
  }
  return prev[b.length];
}

/** ROUGE-L between token lists. */
export function rougeL(candidate: string[], reference: string[]): Prf {
  return prf(lcsLength(candidate, reference), candidate.length, reference.length);
}

/** ROUGE-1, ROUGE-2 and ROUGE-L of a candidate text against a reference text. */
export function rouge(candidate: string, reference: string, stem = true) {
  const c = rougeTokens(candidate, stem);
  const r = rougeTokens(reference, stem);
  return { r1: rougeN(c, r, 1), r2: rougeN(c, r, 2), rl: rougeL(c, r) };
}
