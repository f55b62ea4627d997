/**
 * Whom a memory or a question is about: the writer (`self`, or a speaker's name), the owner by
 * name, someone else ("my sister", "Tom"), or nobody we can tell (a pronoun).
 */
import { FILLERS, PARTNER_NOUNS } from './facts.lexicon.ts';

/** The subject of a verb from the words before it in its clause; null when it is a pronoun we cannot resolve. */
export function subjectOf(pre: string, self: string, selfNames: Set<string>): string | null {
  const parts = pre.split(/[,;:]/);
  const tail = parts.pop() ?? '';
  const tokens = (tail.match(/[\p{L}\p{N}'’-]+/gu) ?? []).map((w) => w.replace(/’/g, "'"));
  // "… my mum, who lives in Dublin": a relative pronoun's subject is the person before it.
  if (
    /^(?:who|whose)$/i.test(tokens[0] ?? '') &&
    !tokens.slice(1).some((_, i) => subjectWord(tokens, i + 1, self, selfNames))
  )
    return parts.length ? subjectOf(parts.join(','), self, selfNames) : null;
  for (let i = tokens.length - 1; i >= 0; i--) {
    const found = subjectWord(tokens, i, self, selfNames);
    if (found !== undefined) return found;
    // "I left Google and joined Stripe": the second verb shares the first one's subject.
    if (/^(?:and|then|&)$/i.test(tokens[i])) {
      for (let j = 0; j < i; j++) {
        const first = subjectWord(tokens, j, self, selfNames);
        if (first !== undefined) return first;
      }
      return self;
    }
  }
  return self; // "Moved to Porto last week.": a diary's clause without a subject is the writer's
}

/** tokens[i] as a subject: self, another person, null (a pronoun we cannot resolve) or undefined (not one). */
export function subjectWord(
  tokens: string[],
  i: number,
  self: string,
  selfNames: Set<string>,
): string | null | undefined {
  const w = tokens[i];
  const lw = w.toLowerCase();
  // "My plugins for VS Code …": a bare "my" before the match is the writer's.
  if (/^(?:i|i'm|i've|i'd|i'll|we|we're|we've|me|myself|my|our)$/.test(lw)) return self;
  // "Made it to work by bus": the idiom's "it" is no one.
  if (lw === 'it' && /^made$/i.test(tokens[i - 1] ?? '')) return undefined;
  if (/^(?:he|she|they|he's|she's|they're|it|you|you're|someone|everyone|people)$/.test(lw)) return null;
  if (FILLERS.has(lw) || /^\d+$/.test(lw)) return undefined;
  // A diary's clause that starts with its verb ("Parked my Golf…", "Getting to the office…"): the
  // capital is the sentence's, not a name's (names ending so — "Alfred", "Mildred" — are kept).
  if (i === 0 && /^\p{Lu}\p{Ll}{2,}(?:ed|ing)$/u.test(w) && !/(?:fred|dred|fried)$/.test(lw)) return undefined;
  if (/^\p{Lu}/u.test(w)) {
    // A name, folded: the owner's own first name is the owner; anyone else is their whole name
    // ("Ana Silva" and "Ana Silvaa" are two people).
    let j = i;
    while (j > 0 && /^\p{Lu}/u.test(tokens[j - 1]) && !FILLERS.has(tokens[j - 1].toLowerCase())) j--;
    const first = tokens[j].toLowerCase().replace(/'s$/, '');
    if (selfNames.has(first)) return self;
    return tokens
      .slice(j, i + 1)
      .map((t) => t.toLowerCase().replace(/'s$/, ''))
      .join(' ');
  }
  // "my sister", "the team", "her husband": someone else. A bare word ("got", "finally") is not a subject.
  const det = i > 0 ? tokens[i - 1].toLowerCase() : '';
  if (det === 'my' || det === 'our') return OTHERS.test(lw) || PARTNER_NOUNS.has(lw) ? `my ${lw}` : self;
  if (/^(?:his|her|their|the|a|an|your)$/.test(det)) return null;
  return undefined;
}

/** A speaker's line ("Caroline said, "…"", "Caroline: …"): the speaker is its first person. */
export function speakerOf(content: string): { speaker: string | null; text: string } {
  const said =
    /^\s*([A-Z][\p{L}'-]+(?:\s+[A-Z][\p{L}'-]+)?)\s+(?:said|says|wrote|asked)[,:]?\s*["“]?([\s\S]*?)["”]?\s*$/u.exec(
      content,
    );
  if (said) return { speaker: said[1].toLowerCase(), text: said[2] };
  const colon = /^\s*([A-Z][\p{L}'-]+(?:\s+[A-Z][\p{L}'-]+)?):\s+([\s\S]*)$/u.exec(content);
  if (colon) return { speaker: colon[1].toLowerCase(), text: colon[2] };
  return { speaker: null, text: content };
}

const KIN_WORDS =
  'ex|sister|brother|mum|mom|mother|dad|father|parents?|son|daughter|kids?|children|child|friend|friends|colleague|' +
  'coworker|co-worker|roommate|flatmate|neighbou?r|manager|boss|cousin|aunt|uncle|niece|nephew|grandma|grandpa|' +
  'grandmother|grandfather|team|teammate|classmate|landlord|in-laws?|family|sibling|siblings';

/**
 * Where, in a sentence whose grammatical subject is the writer, another person's state begins, or
 * null: a relative clause of a person ("Got a postcard from my mum, who lives in Dublin") from
 * there on; something done for a person, helping them or got from them, a thing "that my cousin
 * bought", "their favourite", "their office" — the whole sentence ("Picked up a latte for my
 * dad", "Cooked tacos for my neighbour, it's their favourite"). Such a sentence's meaning is near
 * an attribute, but not the writer's (facts.claims.ts).
 */
export function othersStateFrom(content: string): number | null {
  if (OTHERS_THING.test(content)) return 0;
  return OTHERS_CLAUSE.exec(content)?.index ?? null;
}
const PERSON = `(?:my|our)\\s+(?:(?:best|close|old|new|little|big|older|younger)\\s+)?(?:${KIN_WORDS})`;
const OTHERS_CLAUSE = new RegExp(`\\b${PERSON}(?:\\s+[A-Z][\\p{L}'-]+)?,?\\s+(?:who|whose)\\b`, 'iu');
const OTHERS_THING = new RegExp(
  `\\b(?:for|helped|helping|help|from|that)\\s+${PERSON}\\b|` +
    `\\b(?:their|his|her)\\s+(?:own\\s+)?(?:favou?rite|go-to|usual|office|workplace)\\b`,
  'iu',
);

/** Kin, friends and others a possessive names ("my sister"): someone else, unlike "my car" or "my girlfriend". */
export const OTHERS = new RegExp(`^(?:${KIN_WORDS})$`, 'i');

/**
 * Whom a short memory is about, from its first words: `self` (I, we, my car, a diary's "Moved to
 * Porto"), the owner by name, someone else ("my sister", "Tom"), or null (he, she, they: we
 * cannot tell who).
 */
export function sentenceSubject(content: string, selfNames: string[] = []): string | null {
  const { speaker, text } = speakerOf(content);
  const self = speaker ?? 'self';
  const names = new Set(selfNames.map((n) => n.toLowerCase()));
  if (speaker) names.add(speaker.split(/\s+/)[0]);
  // After a leading phrase set off by a comma ("These days, …", "Since March, …") when there is one.
  const lead = /^([^,]{0,30}),\s+(.*)$/s.exec(text.trim());
  const body =
    lead && lead[1].split(/\s+/).every((w) => FILLERS.has(w.toLowerCase()) || /^\d+$/.test(w)) ? lead[2] : text;
  const tokens = (body.match(/[\p{L}\p{N}'’-]+/gu) ?? []).map((w) => w.replace(/’/g, "'"));
  // "Radiohead became my favourite band", "Tacos are my go-to": the writer's taste, whatever comes first.
  if (/\b(?:is|are|became|has become|remains|stays)\s+(?:now\s+|still\s+)?my\b/i.test(body)) return self;
  for (let i = 0; i < tokens.length && i < 6; i++) {
    const w = tokens[i];
    const lw = w.toLowerCase();
    if (/^(?:i|i'm|i've|i'd|i'll|we|we're|we've|our|ours|me|myself)$/.test(lw)) return self;
    if (/^(?:he|she|they|he's|she's|they're|his|her|their|you|your|it|it's)$/.test(lw)) return null;
    if (lw === 'my') {
      // "my sister('s)", "my partner commutes": someone else; "my car", "my favourite food": the writer's.
      let j = i + 1;
      while (
        /^(?:best|close|old|older|younger|little|big|twin|baby|eldest|oldest|youngest|dear|good|great)$/i.test(
          tokens[j] ?? '',
        )
      )
        j++;
      const next = (tokens[j] ?? '').toLowerCase().replace(/'s$/, '');
      return OTHERS.test(next) || PARTNER_NOUNS.has(next) ? `my ${next}` : self;
    }
    if (FILLERS.has(lw) || /^\d+$/.test(lw)) continue;
    if (/^\p{Lu}/u.test(w) && i + 1 < tokens.length) {
      const first = lw.replace(/'s$/, '');
      // The whole name ("Ana Silva works …"): the words after it decide.
      let end = i;
      while (end + 1 < tokens.length && /^\p{Lu}/u.test(tokens[end + 1]) && !/'s$/.test(tokens[end])) end++;
      const name = tokens
        .slice(i, end + 1)
        .map((t) => t.toLowerCase().replace(/'s$/, ''))
        .join(' ');
      // "Nadia and I …": the writer is among the subjects.
      if (/^and$/i.test(tokens[end + 1] ?? '') && /^(?:i|me)$/i.test(tokens[end + 2] ?? '')) return self;
      if (names.has(first)) return self;
      // A capitalised first word that is a name, not a sentence's first word ("Bought a Kia."):
      // a name is followed by a verb or a possessive; a verb-first diary line is the writer's.
      if (
        /'s$/.test(tokens[end]) ||
        /^(?:is|was|has|got|now|just|and|works|lives|moved|joined|drives|uses|prefers|loves|likes|started|became|switched|is|eats|drinks|codes|went|takes|rides|bought|left|quit)$/i.test(
          tokens[end + 1] ?? '',
        )
      )
        return name;
      return self;
    }
    return self; // "Moved to Porto", "Bought a Kia": a diary's line is its writer's
  }
  return self;
}

/**
 * Whom a question asks about: "Where does Maya live?" (the owner, by name), "What do I drive?"
 * (self), "Where does my sister live?" (someone else); null when it cannot tell ("Where does she
 * live?").
 */
export function questionSubject(query: string, selfNames: string[] = []): string | null {
  const names = new Set(selfNames.map((n) => n.toLowerCase()));
  const tokens = (query.match(/[\p{L}\p{N}'’-]+/gu) ?? []).map((w) => w.replace(/’/g, "'"));
  for (let i = 0; i < tokens.length; i++) {
    const w = tokens[i];
    const lw = w.toLowerCase();
    if (/^(?:i|i'm|i've|me|my|mine|we|our|us)$/.test(lw)) {
      if (lw !== 'my' && lw !== 'our') return 'self';
      const next = (tokens[i + 1] ?? '').toLowerCase().replace(/'s$/, '');
      return OTHERS.test(next) ? `my ${next}` : 'self';
    }
    if (/^(?:he|she|they|him|her|them|his|their)$/.test(lw)) return null;
    if (i > 0 && /^\p{Lu}/u.test(w)) {
      const first = lw.replace(/'s$/, '');
      return names.has(first) ? 'self' : first;
    }
  }
  return null;
}
