/**
 * Who said it: a selected chat sentence ("I went to a support group yesterday") becomes a
 * third-person summary sentence ("Caroline went to a support group yesterday").
 *
 * Why rewrite rather than prefix ("Caroline: I went…"): on the LoCoMo dev sessions
 * (bench/summaries.ts, long_term against the reference session summaries, no embedder) the
 * rewrite scored ROUGE-1/2/L F1 36.8 / 8.5 / 21.9 and the prefix 34.4 / 7.5 / 21.0. Summaries
 * name people where chat says I/me/my, and a prefix spends words on both; the rewrite also
 * reads as a summary rather than a transcript. 'prefix' stays for that comparison.
 */
import { nlp } from './nlp.ts';

/** How sentences are attributed to their speaker. */
export type Attribution = 'rewrite' | 'prefix';

/** What a role-only speaker is called in a summary. */
function displayName(speaker: string): string {
  return /^(?:user|assistant|system|tool|human|ai|bot)$/i.test(speaker) ? `the ${speaker.toLowerCase()}` : speaker;
}

const capitalise = (s: string) => (s ? s[0].toUpperCase() + s.slice(1) : s);

/** "watch" → "watches", "try" → "tries", "go" → "goes": the third-person singular of a base verb. */
export function thirdPersonVerb(verb: string): string {
  const v = verb.toLowerCase();
  const irregular: Record<string, string> = { am: 'is', are: 'is', were: 'was', have: 'has', do: 'does', be: 'is' };
  if (irregular[v]) return irregular[v];
  if (/(?:s|sh|ch|x|z|o)$/.test(v)) return `${verb}es`;
  if (/[^aeiou]y$/.test(v)) return `${verb.slice(0, -1)}ies`;
  return `${verb}s`;
}

/** Contractions of a first- or second-person subject, spelled out so the verb can agree. */
function expandContractions(text: string): string {
  return text
    .replace(/\b(I|you)['’]m\b/gi, '$1 am')
    .replace(/\b(you)['’]re\b/gi, '$1 are')
    .replace(/\b(I|you)['’]ve\b/gi, '$1 have')
    .replace(/\b(I|you)['’]ll\b/gi, '$1 will')
    .replace(/\b(I|you)['’]d(?=\s+(?:been|had|gone|done|seen|never|already|just)\b)/gi, '$1 had')
    .replace(/\b(I|you)['’]d\b/gi, '$1 would')
    .replace(/\b(I|you)\s+don['’]t\b/gi, '$1 do not');
}

interface Term {
  pre: string;
  text: string;
  post: string;
  tags: string[];
}

/**
 * Rewrite first person ('I', 'me', 'my', 'mine') as the speaker and, when the conversation
 * has exactly one other participant, second person ('you', 'your') as them; the verb right
 * after a replaced subject is made to agree ('I am' → 'Caroline is', 'I love' → 'Caroline loves').
 * compromise tags the words, so 'I went' stays past and 'I paint' becomes 'paints'.
 */
export function thirdPerson(sentence: string, speaker: string, other?: string): string {
  const self = displayName(speaker);
  const you = other ? displayName(other) : undefined;
  const text = expandContractions(sentence);
  const terms = (nlp(text).json() as { terms: Term[] }[]).flatMap((s) => s.terms);
  // compromise keeps every character in pre/text/post; if it did not, rewriting would lose some.
  if (terms.map((t) => t.pre + t.text + t.post).join('') !== text) return `${capitalise(self)}: ${sentence}`;
  let agreeNext = false;
  let theyNext = false;
  let selfNamed = false;
  // The speaker is named once, then 'they' (singular: the conversation does not give a gender).
  // Measured against repeating the name: ROUGE equal within ±0.5 (R-1 up, R-2 down), and
  // "Joanna wrapped up their script" reads better than "Joanna wrapped up Joanna's script".
  const selfAs = (name: string, pronoun: string) => (selfNamed ? pronoun : ((selfNamed = true), name));
  const out = terms.map((t, i) => {
    const lower = t.text.toLowerCase();
    let word = t.text;
    if (t.text === 'I' || (you && lower === 'you' && isSubject(terms, i))) {
      const they = t.text === 'I' && selfNamed;
      agreeNext = !they && agrees(terms, i);
      theyNext = they;
      return t.pre + (t.text === 'I' ? selfAs(self, 'they') : you!) + t.post;
    }
    if (theyNext && t.tags.includes('Verb')) {
      theyNext = false;
      if (lower === 'am') word = 'are';
      else if (lower === 'was') word = 'were';
      return t.pre + word + t.post;
    }
    if (!t.tags.includes('Adverb') && !t.tags.includes('Negative')) theyNext = false;
    if (lower === 'me') word = selfAs(self, 'them');
    else if (lower === 'my') word = selfAs(`${self}'s`, 'their');
    else if (lower === 'mine') word = selfAs(`${self}'s`, 'theirs');
    // Reflexives: 'Caroline treated herself' needs a gender the conversation does not give.
    else if (lower === 'myself' || (you && lower === 'yourself')) word = 'themself';
    else if (you && lower === 'you') word = you;
    else if (you && (lower === 'your' || lower === 'yours')) word = `${you}'s`;
    else if (agreeNext && t.tags.includes('Verb')) {
      const modal = t.tags.includes('Modal') || /^(?:did|had|was|could|would|should|might|must|can)$/.test(lower);
      const base = t.tags.includes('Infinitive') || /^(?:am|are|were|have|do)$/.test(lower);
      if (!modal && base && !t.tags.includes('Gerund')) word = thirdPersonVerb(t.text);
      agreeNext = false;
    } else if (!t.tags.includes('Adverb') && !t.tags.includes('Negative')) agreeNext = false;
    return t.pre + word + t.post;
  });
  return capitalise(out.join(''));
}

/**
 * Whether the verb after the subject at `i` takes the third person: not in a question's
 * inversion ('Can I help', 'do you go') nor in a compound subject ('My sister and I paint').
 */
function agrees(terms: Term[], i: number): boolean {
  const prev = terms[i - 1];
  if (!prev || /[,;:.!?]/.test(prev.post)) return true;
  const inverted = prev.tags.includes('Auxiliary') || prev.tags.includes('Modal') || prev.tags.includes('Copula');
  if (inverted || (prev.tags.includes('Verb') && /\?\W*$/.test(terms[terms.length - 1].post))) return false;
  const before = terms[i - 2];
  const compound = /^(?:and|or)$/i.test(prev.text) && before && !/[,;:.!?]/.test(before.post);
  return !(compound && before.tags.includes('Noun') && !before.tags.includes('Pronoun'));
}

/** Verbs whose object takes a bare verb ('help you deploy', 'let you know'): 'you' after them is an object. */
const CAUSATIVE = /^(?:help|helps|helped|let|lets|make|makes|made|have|has|had|see|saw|watch|hear|heard|feel|felt)$/i;

/**
 * 'you' as a subject: followed by a verb (possibly after adverbs), and not the object of a
 * preposition ('for you') or of a causative verb ('help you deploy'); after another verb it
 * starts a clause ('hope you have', 'think you are').
 */
function isSubject(terms: Term[], i: number): boolean {
  const prev = terms[i - 1];
  if (prev && !/[,;:.!?]/.test(prev.post) && (prev.tags.includes('Preposition') || CAUSATIVE.test(prev.text)))
    return false;
  for (let j = i + 1; j < terms.length; j++) {
    if (terms[j].tags.includes('Adverb') || terms[j].tags.includes('Negative')) continue;
    return terms[j].tags.includes('Verb') && !terms[j].tags.includes('Gerund');
  }
  return false;
}

/** A selected sentence as the summary shows it. */
export function attribute(sentence: string, speaker: string, other: string | undefined, mode: Attribution): string {
  if (!speaker) return sentence;
  if (mode === 'prefix') return `${capitalise(displayName(speaker))}: ${sentence}`;
  return thirdPerson(sentence, speaker, other);
}
