/**
 * Code translation: how likely a query about code is as a description of a function (issue #20),
 * a translation language model (Berger & Lafferty 1999; Xue, Jeon & Croft 2008). Beside the
 * code-words model's vectors (code-words.ts), which say whether a query and a function are about
 * the same thing as a whole, this reads word by word: each query word must be explained by the
 * function, either written in it or "translated" from one of its words (`iterable` from `iter`,
 * `hasattr`; `clipboard` from `xclip`, `paste`), and the score is the log-likelihood of the whole
 * query.
 *
 *   P(q | d) = (1 − λ) · (α · P(q | d) + (1 − α) · Σ_w t(q | w) · P(w | d)) + λ · P(q | C)
 *   score(query, d) = Σ_{q in query} log P(q | d)
 *
 * P(w | d) is the share of the function's words that are w; P(q | C) the word's share of the
 * training functions' words (a background that works as an idf); α = 0.5 mixes the word itself
 * with its translations (a translation table alone under-weights a word matching itself), λ = 0.2
 * (Jelinek–Mercer smoothing, which on CoSQA favoured short functions as its own data do).
 *
 * The table t(q | w) is learned by IBM Model 1 (scripts/train-code-translation.ts): docstring
 * summaries of the Python functions installed on the build machine and in Debian's python3
 * packages translated from their code, with the same pairs and words as the code-words model
 * (CoSQA's functions and their near copies left out). Committed pruned (t ≥ 0.01) and
 * log-quantised (code-translation.weights.json).
 */
import committed from './code-translation.weights.json' with { type: 'json' };
import { codeWords } from './code-words.tokens.ts';

export interface CodeTranslationWeights {
  /** Words, in index order. */
  vocab: string[];
  /** Per word: its count among the training functions' words (the background model). */
  background: number[];
  /** Words of the training functions in all, the background's denominator. */
  total: number;
  /** The smallest probability kept; stored values are log-quantised between it and 1. */
  floor: number;
  /**
   * Per query word (in vocab order), its translations: a base64 run of 3-byte entries — the
   * source word's index (uint16, little-endian) and the quantised t(q | w) (uint8) — and where
   * each query word's run starts (entries, not bytes; `starts.length` = vocab.length + 1).
   */
  entries: string;
  starts: number[];
}

export interface CodeTranslationModel {
  /** A scorer for one query: the log-likelihood of the query given each text it is called on. */
  scorer(query: string): (text: string) => number;
}

/** Self-translation mix and smoothing (see the header). */
export const TRANSLATION_ALPHA = 0.5;
export const TRANSLATION_LAMBDA = 0.2;
/** Quantisation steps between the floor and 1, on a log scale. */
const STEPS = 255;

export const quantise = (t: number, floor: number) =>
  Math.max(0, Math.min(STEPS, Math.round((Math.log(t / floor) / -Math.log(floor)) * STEPS)));
export const dequantise = (k: number, floor: number) => floor * Math.exp((k / STEPS) * -Math.log(floor));

export function codeTranslationModel(
  w: CodeTranslationWeights = committed as CodeTranslationWeights,
): CodeTranslationModel {
  const index = new Map(w.vocab.map((t, i) => [t, i]));
  const bytes = Buffer.from(w.entries, 'base64');
  const level = Array.from({ length: STEPS + 1 }, (_, k) => dequantise(k, w.floor));
  /** The translations of query word `q`: source word index → t(q | w). */
  const translations = (q: number) => {
    const m = new Map<number, number>();
    for (let e = w.starts[q]; e < w.starts[q + 1]; e++) m.set(bytes.readUInt16LE(3 * e), level[bytes[3 * e + 2]]);
    return m;
  };
  // Half a count more for every word: one outside the vocabulary (seen in fewer than 3 training
  // pairs) is rare, not impossible.
  const background = (q: string) => ((w.background[index.get(q) ?? -1] ?? 0) + 0.5) / (w.total + 1);
  return {
    scorer(query) {
      const words = codeWords(query, true).map((q) => ({
        q,
        pc: background(q),
        t: index.has(q) ? translations(index.get(q)!) : null,
      }));
      return (text) => {
        const counts = new Map<string, number>();
        for (const x of codeWords(text)) counts.set(x, (counts.get(x) ?? 0) + 1);
        let length = 0;
        for (const k of counts.values()) length += k;
        length = Math.max(length, 1);
        const known: [number, number][] = [];
        for (const [x, k] of counts) if (index.has(x)) known.push([index.get(x)!, k / length]);
        let score = 0;
        for (const { q, pc, t } of words) {
          let translated = 0;
          if (t) for (const [row, share] of known) translated += (t.get(row) ?? 0) * share;
          const direct = (counts.get(q) ?? 0) / length;
          const mixed = TRANSLATION_ALPHA * direct + (1 - TRANSLATION_ALPHA) * translated;
          score += Math.log((1 - TRANSLATION_LAMBDA) * mixed + TRANSLATION_LAMBDA * pc);
        }
        return score;
      };
    },
  };
}

let shared: CodeTranslationModel | null = null;
/** The committed model, built on first use. */
export function committedCodeTranslation(): CodeTranslationModel {
  return (shared ??= codeTranslationModel());
}
