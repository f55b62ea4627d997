/**
 * Turns that recount what their speaker did (docs/retrieval.md, "Turns that recount"): a
 * first-person subject ("I", "we", "my husband and I") and a verb in the past tense or the present
 * perfect ("I went", "we've been", "I finally finished"). A question about the past ("What did
 * Melanie paint?", "When has John been to Seattle?") is answered by a turn that tells what
 * happened more often than by one that reacts to the other's news ("Wow, that sounds amazing!"):
 * on LoCoMo dev 46–75 % of each category's evidence turns recount, against 26–56 % of the other
 * turns in its top 10 and 20 % of all turns.
 */

/** English irregular past tenses (the common ones): regular ones end in -ed. */
const IRREGULAR_PAST = [
  'arose awoke was were bore beat became began bent bet bit bled blew broke brought built burnt bought',
  'caught chose came cost crept cut dealt dug did drew dreamt drank drove ate fell fed felt fought',
  'found fled flew forgot forgave froze got gave went grew hung had heard hid hit held hurt kept knelt',
  'knew laid led leant leapt learnt left lent let lay lit lost made meant met paid put quit read rode',
  'rang rose ran said saw sought sold sent set shook shone shot showed shut sang sank sat slept slid',
  'spoke spent spun split spread sprang stood stole stuck stung struck swore swept swam swung took',
  'taught tore told thought threw understood woke wore wove wept won wound wrote',
].join(' ');
/** Past participles that are not the past tense. */
const PARTICIPLES = [
  'been done seen gone taken begun grown known given written ridden eaten drunk driven flown swum run',
  'won made found become broken chosen fallen forgotten frozen hidden risen shaken spoken stolen sworn',
  'thrown worn woken',
].join(' ');
const SUBJECT = String.raw`(?:I|we|\p{L}+ and I|me and \p{L}+|my (?:\p{L}+ )?and I)`;
/** A regular past ("painted", "tried"; not "need", "feed"), or an irregular one. */
const PAST = String.raw`(?:\p{L}{2,}(?<!e)ed|${IRREGULAR_PAST.split(' ').join('|')})`;
const PARTICIPLE = String.raw`(?:${PAST}|${PARTICIPLES.split(' ').join('|')})`;
const PERFECT = String.raw`(?:\s+have|\s+had|['’]ve|['’]d)\s+(?:\p{L}+\s+)?${PARTICIPLE}`;
const ADVERB = String.raw`(?:just|finally|recently|also|actually|even|really|all|both|once|already|never|ever)`;
const RECOUNTS = new RegExp(
  String.raw`(?<![\p{L}'’])${SUBJECT}(?:\s+(?:${ADVERB}\s+)?${PAST}|${PERFECT})(?![\p{L}'’])`,
  'iu',
);

/** Whether `content` recounts something its writer or speaker did. */
export function recounts(content: string): boolean {
  return RECOUNTS.test(content);
}

/**
 * Whether a question asks about the past (or up to now): its auxiliary is "did", "was", "were",
 * "had", "has" or "have". A question in the present ("What are Joanna's hobbies?", "What does
 * Melanie do to destress?") is answered by how things are, not by what happened. Not the memories
 * module's ASKS_PAST, which asks whether a question is about an earlier time ("in 2021", "before")
 * so that no current fact answers it: "What has John cooked?" is about the past here, and up to now there.
 */
export function asksAboutPast(query: string): boolean {
  return /\b(?:did|was|were|had|has|have)\b/i.test(query);
}
