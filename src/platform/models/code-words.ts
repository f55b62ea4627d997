/**
 * Code words: a small model that reads code (issue #20). Each word of a query or a function —
 * identifiers split into their parts (`readFile` → read, file; `is_iterable` → is, iterable) —
 * has a learned vector; a text's vector is the idf-weighted mean of its words' vectors, and a
 * query and a function are close when the words of one are what the other's are usually
 * written with ("copy a file" ~ shutil, copyfile, dst; "iterable" ~ iter, hasattr).
 *
 * It is trained here, offline, by scripts/train-code-words.ts: the first paragraph of each
 * docstring of the Python functions installed on the build machine and of every python3 package
 * of Debian's archive (scripts/fetch-python-corpus.sh), paired with its function's code without
 * the docstring, in-batch contrastive (docs/transform.md, "Code words"). The weights are
 * committed (code-words.weights.json: int8 rows, one scale each) and read once.
 */
import committed from './code-words.weights.json' with { type: 'json' };
import { CODE_WORDS_READ, codeWords, unit } from './code-words.tokens.ts';

export { codeWords } from './code-words.tokens.ts';

export interface CodeWordsWeights {
  dim: number;
  /** Words, in row order (row 0 of the matrix is the first word). */
  vocab: string[];
  /** Per word: inverse document frequency in the training pairs. */
  idf: number[];
  /** Per row: the scale of its int8 values. */
  scale: number[];
  /** The int8 matrix, row-major, base64. */
  rows: string;
}

export interface CodeWordsModel {
  dim: number;
  /** The unit vector of a text (zero when none of its words is known). */
  vector(text: string, query?: boolean): Float32Array;
}

export function codeWordsModel(w: CodeWordsWeights = committed as CodeWordsWeights): CodeWordsModel {
  const index = new Map(w.vocab.map((t, i) => [t, i]));
  const bytes = Buffer.from(w.rows, 'base64');
  const int8 = new Int8Array(bytes.buffer, bytes.byteOffset, bytes.length);
  const { dim } = w;
  return {
    dim,
    vector(text, query = false) {
      const counts = new Map<number, number>();
      for (const t of codeWords(text, query, CODE_WORDS_READ).slice(0, CODE_WORDS_READ)) {
        const i = index.get(t);
        if (i !== undefined) counts.set(i, (counts.get(i) ?? 0) + 1);
      }
      const x = new Float32Array(dim);
      for (const [i, k] of counts) {
        const s = w.idf[i] * (1 + Math.log(k)) * w.scale[i];
        for (let d = 0, o = i * dim; d < dim; d++) x[d] += s * int8[o + d];
      }
      return unit(x);
    },
  };
}

let shared: CodeWordsModel | null = null;
/** The committed model, built on first use. */
export function committedCodeWords(): CodeWordsModel {
  return (shared ??= codeWordsModel());
}
