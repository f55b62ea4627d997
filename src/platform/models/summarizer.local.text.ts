/**
 * Turns → candidate sentences for the local summarizer: split, stripped of chat filler
 * ("Wow, thanks Mel!"), analysed into BM25 terms, and tagged with what makes a sentence worth
 * keeping in a summary (names, dates, numbers) or not (questions, pleasantries).
 */
import { analyze } from '../text-analyzer.ts';
import { speakerOf, type SummaryTurn } from './summarizer.ts';

/** One candidate sentence. */
export interface Sentence {
  /** The sentence as selected, filler stripped; first person until rendered. */
  text: string;
  /** Who said it ('' for a sentence of an earlier summary, already attributed). */
  speaker: string;
  /** Chronological key: earlier summaries first, then turn index, then position in the turn. */
  order: number;
  /** Stemmed content terms (stop words dropped), as BM25 search sees them. */
  terms: string[];
  words: number;
  question: boolean;
  /** Named entities, dates and numbers in the sentence. */
  specifics: number;
  /** How many session sentences this one stands for (1, or more for an earlier summary's sentence). */
  mass: number;
  /** True for a sentence of an earlier summary: kept verbatim, never re-attributed. */
  summary: boolean;
}

// Abbreviations whose full stop does not end a sentence.
const ABBREVIATION =
  /\b(?:Mr|Mrs|Ms|Dr|Prof|Sr|Jr|St|vs|etc|e\.g|i\.e|approx|Inc|Ltd|Co|No|Vol|Fig|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)\.$/i;

/** Split text into sentences: at . ! ? (and …) followed by a space, and at line breaks. */
export function splitSentences(text: string): string[] {
  const out: string[] = [];
  for (const line of text.split(/\n+/)) {
    let current = '';
    for (const piece of line.split(/(?<=[.!?…]["')\]]?)\s+/)) {
      current = current ? `${current} ${piece}` : piece;
      // '3.5 km' and 'index.ts' never reach here (no space after the dot); 'Dr. Smith' does.
      if (!ABBREVIATION.test(current) && !/\b\p{Lu}\.$/u.test(current)) {
        if (current.trim()) out.push(current.trim());
        current = '';
      }
    }
    if (current.trim()) out.push(current.trim());
  }
  return out;
}

// Interjections that open a chat sentence: the first set is filler wherever it stands, the
// second only when punctuation follows ("Right, …" is filler, "Right now I…" is not).
const FILLER_WORD = 'wow|whoa|oh+|ah+|aw+|hey|hi|hello|yeah|yep|yup|haha+|hah|lol|omg|hmm+|um+|uh|btw';
const FILLER_BEFORE_PUNCT =
  'yes|no|nope|ok|okay|well|so|thanks|thank you|thx|cool|great|nice|awesome|sure|absolutely|totally|' +
  'definitely|indeed|right|really|true|exactly|congrats|congratulations|amazing|sweet|gosh|anyway|by the way';
const VOCATIVE = '(?:[,\\s]+\\p{Lu}\\p{Ll}+(?=[,!.…]))?';
/** Leading interjections, each with an optional vocative: "Wow, thanks Mel! " / "Yeah, " / "Hey Caroline, ". */
const LEADING_FILLER = new RegExp(
  `^(?:(?:${FILLER_WORD})\\b${VOCATIVE}[\\s,!.…-]*|` +
    `(?:${FILLER_BEFORE_PUNCT})(?:\\s+(?:so much|a lot|for sharing|for asking))?${VOCATIVE}[,!.…]+\\s*)+`,
  'iu',
);
/** Sentences that are pleasantries whatever their length. */
const PLEASANTRY =
  /^(?:(?:it was |it's |so )?(?:good|great|nice) (?:to|talking|chatting)|take care|see you|talk (?:to you )?soon|bye|have a (?:good|great|nice)|how (?:have|are|were) you(?: been| doing)?\W*$|how['’]s it going|what['’]s up|long time no see)/i;

/**
 * Remove what carries no content in a summary: leading interjections ("Wow, that's…" →
 * "That's…") and a trailing vocative naming a participant (", Caroline!"). Returns '' when
 * nothing of substance is left.
 */
export function stripFiller(sentence: string, names: ReadonlySet<string>): string {
  let s = sentence.replace(LEADING_FILLER, '');
  s = s.replace(/,?\s+(\p{Lu}\p{Ll}+)(?=[.!?…]+$)/u, (m: string, name: string) => (names.has(name) ? '' : m));
  s = s.replace(/^[\s,;:-]+/, '');
  if (!/[\p{L}\p{N}]/u.test(s) || PLEASANTRY.test(s)) return '';
  return s[0].toUpperCase() + s.slice(1);
}

const MONTH = 'jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|';
const DATE_WORDS = new RegExp(
  `\\b(?:${MONTH}oct(?:ober)?|nov(?:ember)?|dec(?:ember)?|monday|tuesday|wednesday|thursday|friday|saturday|` +
    `sunday|yesterday|today|tomorrow|tonight|weekend|(?:last|next|this) (?:week|month|year|summer|winter|spring|` +
    `fall|autumn)|\\d{4}-\\d{2}-\\d{2})\\b`,
  'gi',
);
const NUMBER = /\b\d[\d,.:]*(?:k|km|kg|%)?\b|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|twenty|hundred)\b/gi;
const SENTENCE_START_WORDS = /^(?:I|I'm|I've|I'll|I'd|The|A|An|It|It's|That|This|We|My|You)$/;

/** Count names (capitalised words not at the start, not 'I'), dates and numbers in a sentence. */
export function countSpecifics(sentence: string): number {
  const words = sentence.split(/\s+/);
  let names = 0;
  for (let i = 1; i < words.length; i++) {
    const w = words[i].replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');
    if (/^\p{Lu}/u.test(w) && !SENTENCE_START_WORDS.test(w) && !/[.!?]$/.test(words[i - 1])) names++;
  }
  return names + (sentence.match(DATE_WORDS)?.length ?? 0) + (sentence.match(NUMBER)?.length ?? 0);
}

/** Candidate sentences of `turns`, in order; `orderBase` offsets their chronological key. */
export function turnSentences(turns: SummaryTurn[], names: ReadonlySet<string>, orderBase = 0): Sentence[] {
  const out: Sentence[] = [];
  turns.forEach((turn, t) => {
    splitSentences(turn.content).forEach((raw, i) => {
      const text = stripFiller(raw, names);
      if (!text) return;
      const sentence = makeSentence(text, speakerOf(turn), orderBase + t + i / 100, false);
      // The summary will name the speaker where the turn says I/me/my: similarity should see it already.
      if (/\b(?:I|me|my|mine)\b/.test(text)) sentence.terms.push(...analyze(speakerOf(turn)));
      out.push(sentence);
    });
  });
  return out;
}

/** The sentences of an earlier summary, each standing for `mass` session sentences. */
export function summarySentences(summary: string, mass: number): Sentence[] {
  return splitSentences(summary).map((text, i) => ({ ...makeSentence(text, '', i - 1e6, true), mass }));
}

function makeSentence(text: string, speaker: string, order: number, summary: boolean): Sentence {
  return {
    text,
    speaker,
    order,
    terms: analyze(text),
    words: text.split(/\s+/).length,
    question: /\?["')\]]?$/.test(text),
    specifics: countSpecifics(text),
    mass: 1,
    summary,
  };
}

/** Names of the people in a conversation (speakers that are names, not roles), and their first names. */
export function participantNames(turns: SummaryTurn[]): Set<string> {
  const names = new Set<string>();
  for (const t of turns) {
    const s = t.speaker?.trim();
    if (!s) continue;
    names.add(s);
    names.add(s.split(/\s+/)[0]);
    // "Mel" for Melanie: a vocative is often a shortened first name.
    if (s.length > 4) names.add(s.slice(0, 3));
  }
  return names;
}
