import { stemmer } from 'stemmer';

/**
 * English stop words: the NLTK list (179 words). The full list matters for BM25 on
 * conversational memories: measured +6 R@10 on LoCoMo over Lucene's 33-word list
 * (ARCHITECTURE.md §7), because chat turns are dense in pronouns and auxiliaries.
 */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  `i me my myself we our ours ourselves you you're you've you'll you'd your yours yourself yourselves he him his
  himself she she's her hers herself it it's its itself they them their theirs themselves what which who whom this
  that that'll these those am is are was were be been being have has had having do does did doing a an the and but
  if or because as until while of at by for with about against between into through during before after above below
  to from up down in out on off over under again further then once here there when where why how all any both each
  few more most other some such no nor not only own same so than too very s t can will just don don't should
  should've now d ll m o re ve y ain aren aren't couldn couldn't didn didn't doesn doesn't hadn hadn't hasn hasn't
  haven haven't isn isn't ma mightn mightn't mustn mustn't needn needn't shan shan't shouldn shouldn't wasn wasn't
  weren weren't won won't wouldn wouldn't`.split(/\s+/),
);

const WORD = /[\p{L}\p{N}]+(?:['’][\p{L}]+)*/gu;

/**
 * Text → BM25 terms: lowercase, Unicode words, stop words dropped, Porter-stemmed.
 * The same function analyses documents at write time and queries at search time,
 * so both sides always agree.
 */
export function analyze(text: string): string[] {
  const out: string[] = [];
  for (const match of text.toLowerCase().matchAll(WORD)) {
    const word = match[0].replace(/’/g, "'");
    if (STOP_WORDS.has(word)) continue;
    const base = word.replace(/'s$/, '').replace(/'/g, '');
    if (!base || STOP_WORDS.has(base)) continue;
    const term = stemmer(base);
    // tsvector lexemes are limited to 2 KB; no real word is that long.
    if (term.length <= 100) out.push(term);
  }
  return out;
}

/** Distinct terms of a query, in first-seen order. */
export function queryTerms(text: string): string[] {
  return [...new Set(analyze(text))];
}
