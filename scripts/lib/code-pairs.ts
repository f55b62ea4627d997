/**
 * The training pairs of the code models (scripts/train-code-words.ts,
 * scripts/train-code-translation.ts), read the same way for both: every documented Python
 * function under the roots — the docstring's first paragraph as the query's words, the function's
 * code without its docstring as the code's words (the first CODE_WORDS_READ) — the same code or
 * the same (summary, name) once only, and every function of the evaluation corpus (`exclude`, by
 * default CoSQA's) left out, so a model never sees a function it is measured on. No query of any
 * benchmark is read.
 *
 * Left out too are near copies of the corpus's functions: the same name with the same summary, or
 * with at least half of the same code words (Jaccard). With the whole Debian archive's Python
 * (scripts/fetch-python-corpus.sh) many of CoSQA's functions appear in another version of their
 * library, and a model that has read a corpus function's own docstring beside its code would be
 * measured on what it memorised rather than on what it learned.
 */
import fs from 'node:fs';
import { CODE_WORDS_READ, codeWords } from '../../src/platform/models/code-words.tokens.ts';
import { codeKey, documentedFunctions, pythonFiles } from './python-functions.ts';

export interface CodePair {
  query: string[];
  code: string[];
}

/**
 * Where the machine's Python lives (pyenv's versions, Debian's installed packages, the Google
 * Cloud SDK), and the whole archive's python3 packages when scripts/fetch-python-corpus.sh has
 * fetched them.
 */
export const DEFAULT_ROOTS = [
  '/root/.pyenv/versions',
  '/usr/lib/python3',
  '/usr/lib/python3.11',
  '/usr/lib/google-cloud-sdk',
  `${process.env.CODE_CORPUS_DIR || '/var/tmp/engram-python'}/root/usr`,
];
/** CoSQA's functions by default (the corpus the models are measured on), when the file is here. */
export const DEFAULT_EXCLUDE =
  process.env.CODE_EXCLUDE || `${process.env.COSQA_DIR || '/work/shared/data/cosqa'}/corpus.jsonl`;
/** A word seen in fewer training pairs is left out of a model's vocabulary. */
export const MIN_PAIRS = 3;

/** The roots named on the command line, or the default ones that exist. */
export const rootsOf = (argv: string[]) => (argv.length ? argv : DEFAULT_ROOTS.filter((r) => fs.existsSync(r)));

export function readPairs(
  roots: string[],
  exclude = DEFAULT_EXCLUDE,
  log: (s: string) => void = (s) => console.error(s),
): CodePair[] {
  const excluded = new Set<string>();
  const near = new Map<string, { summary: string; words: Set<string> }[]>();
  if (fs.existsSync(exclude))
    for (const line of fs.readFileSync(exclude, 'utf8').split('\n')) {
      if (!line.trim()) continue;
      const text = (JSON.parse(line) as { text: string }).text;
      excluded.add(codeKey(text));
      for (const f of documentedFunctions(text)) {
        const same = near.get(f.name) ?? near.set(f.name, []).get(f.name)!;
        same.push({ summary: summaryKey(f.summary), words: new Set(codeWords(f.code)) });
      }
    }
  const nearCopy = (f: { name: string; summary: string; code: string }) => {
    const same = near.get(f.name);
    if (!same) return false;
    const summary = summaryKey(f.summary);
    const words = new Set(codeWords(f.code));
    return same.some((x) => x.summary === summary || jaccard(x.words, words) >= 0.5);
  };
  const seen = new Set<string>();
  const pairs: CodePair[] = [];
  let files = 0;
  let left = 0;
  let copies = 0;
  for (const file of pythonFiles(roots)) {
    let source: string;
    try {
      if (fs.statSync(file).size > 2_000_000) continue;
      source = fs.readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    files++;
    for (const f of documentedFunctions(source)) {
      const key = codeKey(f.whole);
      if (excluded.has(key)) {
        left++;
        continue;
      }
      if (nearCopy(f)) {
        copies++;
        continue;
      }
      const named = `${f.summary.toLowerCase()}\u0000${f.name}`;
      if (seen.has(key) || seen.has(named)) continue;
      seen.add(key).add(named);
      const query = codeWords(f.summary, true);
      const code = codeWords(f.code, false, CODE_WORDS_READ).slice(0, CODE_WORDS_READ);
      if (query.length && code.length) pairs.push({ query, code });
    }
  }
  log(
    `${files} files, ${pairs.length} pairs; left out: ${left} functions of the excluded corpus, ${copies} near copies`,
  );
  return pairs;
}

const summaryKey = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();

function jaccard(a: Set<string>, b: Set<string>): number {
  let both = 0;
  for (const x of a) if (b.has(x)) both++;
  return both / (a.size + b.size - both || 1);
}

/** The words of at least MIN_PAIRS pairs, most frequent first (ties by spelling), with their pair counts. */
export function vocabulary(pairs: CodePair[]): [string, number][] {
  const df = new Map<string, number>();
  for (const p of pairs) for (const t of new Set([...p.query, ...p.code])) df.set(t, (df.get(t) ?? 0) + 1);
  return [...df].filter(([, n]) => n >= MIN_PAIRS).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
}
