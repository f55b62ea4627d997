import { STOP_WORDS } from '../../platform/text-analyzer.ts';

/**
 * The speaker-aware signal (issue #24; docs/retrieval.md, "Speakers"): a query that names a
 * speaker of the candidates ("What did Caroline research?") prefers what that speaker said.
 * In a two-person conversation half the turns are the other person's, and they often name the
 * asked-about person too ("Thanks, Caroline!"), which text overlap rewards. Names are matched
 * against the candidates' own speaker labels; nothing changes when no candidate has a speaker, when
 * the query names none, or when it names every speaker present (then the name tells the candidates
 * nothing apart).
 */

/**
 * Whether the query may name someone: a capitalised word that is not a stop word ("What",
 * "When" are). Searches without one skip the speaker lookup (a statement); a query written all
 * in lower case therefore names nobody — the cost of not looking up every search's candidates.
 */
export function mayNameSomeone(query: string): boolean {
  return (query.match(/\p{Lu}[\p{L}'’-]*/gu) ?? []).some(
    (w) => !STOP_WORDS.has(w.toLowerCase().replace(/['’]s$/u, '')),
  );
}

/**
 * Words of a lowercased text, possessives dropped ("caroline's" → "caroline"); with
 * `possessives: false`, the possessive words left out instead.
 */
function wordsOf(text: string, opts = { possessives: true }): Set<string> {
  const words = text.toLowerCase().match(/[\p{L}\p{N}][\p{L}\p{N}.'’-]*/gu) ?? [];
  return new Set(
    words.filter((w) => opts.possessives || !/['’]s$/u.test(w)).map((w) => w.replace(/['’]s$|[.'’-]+$/u, '')),
  );
}

/** Whether the query names `speaker`: its full label, or its first word, as whole words of the query. */
function names(query: Set<string>, queryText: string, speaker: string): boolean {
  const first = speaker.split(/\s+/)[0];
  if (first.length >= 2 && query.has(first)) return true;
  return speaker.includes(' ') && ` ${queryText.toLowerCase()} `.includes(` ${speaker} `);
}

/**
 * Candidates said by a speaker the query names: the ids that get the speaker bonus. Empty when
 * the query names no speaker, or names all of those present.
 */
export function namedSpeakerMatches(query: string, speakers: Map<string, string>): Set<string> {
  const present = new Set(speakers.values());
  if (present.size === 0) return new Set();
  const namedIn = (words: Set<string>) => new Set([...present].filter((s) => names(words, query, s)));
  let named = namedIn(wordsOf(query));
  // Every speaker named, one of them only as an owner ("What did Jon say about Gina's store?"):
  // the one named otherwise is who speaks; the owner is what is spoken of.
  if (named.size === present.size) named = namedIn(wordsOf(query, { possessives: false }));
  if (named.size === 0 || named.size === present.size) return new Set();
  return new Set([...speakers].filter(([, s]) => named.has(s)).map(([id]) => id));
}

/**
 * Whether the question asks for a person's several things or a count of them ("What books has
 * Tim read?", "Which cities has Jon visited?", "How many tournaments has Nate won?"): its answer
 * is gathered from many of that person's own turns rather than found in one.
 */
export function asksForMany(query: string): boolean {
  return /^\s*(?:how\s+many\s+\p{L}+|(?:what|which)\s+(?:[\p{L}+-]+\s+){0,2}\p{Ll}+[^s'’\s]s\s+(?:has|have|does|do|did)\b)/iu.test(
    query,
  );
}
