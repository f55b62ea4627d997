/**
 * The list fields of a local summary: topics (frequent noun phrases), key decisions, next
 * steps and technical details (sentences matching cue patterns), and the files mentioned.
 * Each is merged with the previous summary's, so, like long_term, it covers the whole session
 * without re-reading it.
 */
import { nlp } from './nlp.ts';
import { analyze } from '../text-analyzer.ts';
import type { SummaryTurn } from './summarizer.ts';

/** Sentences that settle something. */
export const DECISION =
  /\b(?:we|I)\s+(?:have\s+|['’]ve\s+|finally\s+)?(?:decided|agreed|chose|settled on|opted|concluded|committed to)\b|\blet['’]s go with\b|\b(?:we|I)(?:['’]ll| will)\s+go with\b|\bwe(?:['’]re| are) going with\b|\bthe (?:decision|plan) is\b|\bdecision:/i;

/** Sentences that say what comes next. */
export const NEXT_STEP =
  /\b(?:I|we)(?:['’]ll|\s+will|['’]m going to|\s+am going to|['’]re going to|\s+are going to|\s+plan to|\s+need to|\s+have to|\s+intend to|['’]m planning to|\s+am planning to|\s+want to|['’]d like to)\b|\blet['’]s\b|\bnext (?:step|week|month|time|up)\b|\bTODO\b|\bto-do\b|\bfollow[- ]up\b|\bplan(?:s|ning)? to\b|\bgoing to\b/i;

/** Files with an extension, alone or with a directory; URLs, e-mail addresses and numbers excluded. */
const FILE_PATH =
  /(?<![\w@/.:-])((?:~|\.{1,2})?\/?(?:[\w@.-]+\/)*[\w@-][\w@.-]*\.(?:[a-z][a-z0-9]{0,7}))(?![\w/@-]|\.[a-z])/gi;
/** Extensions a bare file name (no directory) must have to count: 'example.com' and 'e.g' are not files. */
const FILE_EXTENSIONS = new Set(
  (
    'ts tsx js jsx mjs cjs json md mdx py rb go rs java kt c h cc cpp hpp cs swift php sql sh bash zsh ps1 ' +
    'yaml yml toml ini cfg conf env lock txt csv tsv xml html htm css scss vue svelte proto graphql gql ' +
    'ipynb r scala lua pl dockerfile tf gradle pdf docx xlsx png jpg jpeg svg log'
  ).split(' '),
);

/** Code, paths, URLs, versions, identifiers, errors, flags: what makes a sentence technical. */
export const TECHNICAL =
  /`[^`]+`|https?:\/\/\S+|(?:^|\s)(?:\.{0,2}\/)?[\w.-]+\/[\w./-]+|\bv?\d+\.\d+(?:\.\d+)+\b|\b[A-Z][\w+-]* v?\d+\.\d+\b|\bv\d+(?:\.\d+)?\b|\b[a-z_$][\w$]*\([^)]*\)|\b[a-z]+[A-Z]\w*\b|\b\w+_\w+\b|(?:^|\s)--?[a-z][\w-]+|\b\w+(?:Error|Exception)\b|\b(?:HTTP|status|error|returns?)\s+[1-5]\d\d\b|\bport \d+\b/;

/** File paths mentioned in the turns, path → number of mentions. */
export function filesMentioned(turns: SummaryTurn[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const t of turns) {
    for (const m of t.content.matchAll(FILE_PATH)) {
      const path = m[1].replace(/[.,;:!?]+$/, '');
      const ext = path.slice(path.lastIndexOf('.') + 1).toLowerCase();
      if (!path.includes('/') && !FILE_EXTENSIONS.has(ext)) continue;
      if (/^\d+(?:\.\d+)+$/.test(path)) continue;
      counts.set(path, (counts.get(path) ?? 0) + 1);
    }
  }
  return counts;
}

/** Nouns that name no topic. */
const GENERIC = new Set(
  (
    'thing things time times lot lots way ways day days stuff kind kinds bit something anything everything ' +
    'nothing one ones guy guys idea ideas today tomorrow yesterday week weeks month months year years moment ' +
    'moments part parts place sort people person everyone someone anyone life world feeling feelings news ' +
    'question questions chance sense end start kid kids ton tons bunch doubt luck fun look looks pic pics photo ' +
    'photos picture pictures mind deal hope glad'
  ).split(' '),
);

/**
 * Topics of the turns: noun phrases (compromise) and their head nouns, counted once per turn,
 * participants' names and generic nouns left out. A phrase is ranked by the turns it occurs in,
 * a two- or three-word phrase weighing 1.5 times a single noun (more specific, as topics should
 * be); a single noun must occur in two turns to count. The previous summary's topics follow the
 * new ones, so topics span the session.
 */
export function topicsOf(turns: SummaryTurn[], names: ReadonlySet<string>, previous: string[], max = 8): string[] {
  const counts = new Map<string, { surface: string; turns: number; words: number; first: number }>();
  turns.forEach((turn, t) => {
    const seen = new Set<string>();
    const doc = nlp(turn.content);
    const phrases = (doc.match('#Noun+').not('(#Pronoun|#Date|#Value|#Possessive)').out('array') as string[])
      .map((p) =>
        p
          .replace(/['’]s\b/g, '')
          .replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '')
          .toLowerCase(),
      )
      // Paths and URLs are files_accessed's and technical_details' business, not topics.
      .filter((p) => p && !/[/\\]|\.\w/.test(p) && !names.has(p[0].toUpperCase() + p.slice(1)));
    for (const phrase of phrases) {
      const words = phrase.split(/\s+/).filter((w) => /\p{L}/u.test(w) && !GENERIC.has(w));
      if (words.length === 0 || words.length > 3) continue;
      // The phrase and, for a compound, its head noun ('support group' → also 'group').
      const forms = words.length > 1 ? [words.join(' '), words[words.length - 1]] : words;
      for (const form of forms) {
        const key = analyze(form).join(' ');
        if (!key || seen.has(key) || [...names].some((n) => n.toLowerCase() === form)) continue;
        seen.add(key);
        const c = counts.get(key) ?? { surface: form, turns: 0, words: form.split(' ').length, first: t };
        c.turns++;
        counts.set(key, c);
      }
    }
  });
  const weight = (c: { turns: number; words: number }) => c.turns * (c.words > 1 ? 1.5 : 1);
  const ranked = [...counts.entries()]
    .filter(([, c]) => c.turns >= 2 || c.words > 1)
    .sort((a, b) => weight(b[1]) - weight(a[1]) || a[1].first - b[1].first || a[0].localeCompare(b[0]));
  const out: string[] = [];
  const keys = new Set<string>();
  for (const [key, c] of ranked) {
    // A head noun whose compound is already listed adds nothing ('group' after 'support group').
    if (out.length >= max || [...keys].some((k) => k.endsWith(` ${key}`) || key.endsWith(` ${k}`))) continue;
    out.push(c.surface);
    keys.add(key);
  }
  for (const p of previous) {
    const key = analyze(p).join(' ');
    if (out.length < max + 2 && key && !keys.has(key)) {
      out.push(p);
      keys.add(key);
    }
  }
  return out;
}

/** Append `fresh` to `previous`, dropping near-duplicates (same content terms), keeping the last `max`. */
export function mergeItems(previous: string[], fresh: string[], max: number): string[] {
  const out: string[] = [];
  const seen: Set<string>[] = [];
  for (const item of [...previous, ...fresh]) {
    const terms = new Set(analyze(item));
    const dup = seen.findIndex((s) => jaccard(s, terms) >= 0.7);
    if (dup >= 0) {
      // The later wording replaces the earlier one, at the later position.
      out.splice(dup, 1);
      seen.splice(dup, 1);
    }
    out.push(item);
    seen.push(terms);
  }
  return out.slice(-max);
}

function jaccard(a: Set<string>, b: Set<string>): number {
  if (a.size === 0 && b.size === 0) return 1;
  let inter = 0;
  for (const t of a) if (b.has(t)) inter++;
  return inter / (a.size + b.size - inter);
}
