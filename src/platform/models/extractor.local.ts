/**
 * The default extractor: no model, no network. compromise tags the words (people,
 * organisations, places, dates, nouns); rules on top find products, events and salient topics,
 * resolve relative dates and the speaker ('I'/'my'), and read relationships off each sentence.
 * Precision over recall: a wrong edge misleads graph search more than a missing one, so the
 * typed patterns are narrow and co-occurrence (MENTIONED_WITH) is the capped fallback.
 *
 * Pipeline per memory: speaker → compromise parse → spans per sentence (dates, products,
 * names, noun phrases) → nodes (deduplicated, aliases merged) → relationships per sentence.
 */
import nlp from 'compromise';
import { eng as STOPWORDS } from 'stopword';
import {
  canonicalName,
  restrictToSchema,
  type ExtractedNode,
  type ExtractedRelationship,
  type Extraction,
  type ExtractionInput,
  type Extractor,
  type PropertyValue,
} from './extractor.ts';

/** Options of {@link createLocalExtractor}. */
export interface LocalExtractorOptions {
  /** Topic/Event noun phrases kept per memory, most salient first (default 5). */
  maxTopics?: number;
  /** MENTIONED_WITH edges per memory (default 12); 4 per sentence at most. */
  maxCooccurrences?: number;
}

/** Build the compromise-based extractor (id 'local-rules-1'; bump it when the output changes). */
export function createLocalExtractor(options: LocalExtractorOptions = {}): Extractor {
  return {
    id: 'local-rules-1',
    async extract(input) {
      return restrictToSchema(extractLocal(input, options), input.schema);
    },
  };
}

/** The whole pipeline, synchronous (compromise is); without schema restriction. */
export function extractLocal(input: ExtractionInput, options: LocalExtractorOptions = {}): Extraction {
  const { speaker, text } = splitSpeaker(input);
  const doc = nlp(text);
  doc.compute('root');
  const sentences = doc.document.map((terms) => (terms as RawTerm[]).map(toTok).filter((t) => t.text || t.norm));
  const spans = sentences.map((toks) => findSpans(toks, input.createdAt));
  keepSalientTopics(spans.flat(), options.maxTopics ?? 5);
  const registry = new NodeRegistry(speaker);
  for (const s of spans.flat()) if (!s.dropped) s.key = registry.add(s);
  const rels = new Relations(options.maxCooccurrences ?? 12);
  sentences.forEach((toks, i) => relateSentence(toks, spans[i], registry.speakerKey, rels));
  return registry.finish(rels.list());
}

// ── tokens and speaker ────────────────────────────────────────────────────────────────

interface RawTerm { text: string; normal: string; implicit?: string; root?: string; tags?: Set<string>; post: string }
/** A token as the rules read it; `norm` is lowercase with contractions expanded ("I'm" → i, am). */
interface Tok { text: string; norm: string; root: string; tags: Set<string>; post: string }

function toTok(t: RawTerm): Tok {
  const norm = (t.implicit || t.normal).toLowerCase().replace(/['’]s$/, '');
  return { text: t.text, norm, root: t.root || norm, tags: t.tags ?? new Set(), post: t.post };
}
const has = (t: Tok | undefined, ...tags: string[]) => !!t && tags.some((x) => t.tags.has(x));
const isCap = (t: Tok | undefined) => !!t && /^\p{Lu}/u.test(t.text);
/** Punctuation after a token ends any phrase running through it. */
const breaksAfter = (t: Tok) => /[,;:!?()"“”–—]|\.\s|\.$|\s-/.test(t.post) && !has(t, 'Abbreviation', 'Honorific');
const surfaceOf = (toks: Tok[]) => toks.map((t, i) => t.text + (i < toks.length - 1 ? t.post : '')).join('').trim();

/** "Caroline said, "…"" or "Caroline: …" at the start of a memory names who is speaking. */
const SAID_PREFIX = /^\s*(\p{Lu}[\p{L}'.-]*(?:\s+\p{Lu}[\p{L}'.-]*){0,2})\s+(?:said|says|wrote|writes|asked|asks|replied|replies)\s*[,:]?\s*/u;
const COLON_PREFIX = /^\s*(\p{Lu}[\p{L}'.-]*(?:\s+\p{Lu}[\p{L}'.-]*){0,2}):\s+/u;
const SELF_INTRO = /\b([Mm]y name is|[Cc]all me|I am|I'm)\s+(\p{Lu}\p{Ll}+(?:\s+\p{Lu}\p{Ll}+)?)/u;

/**
 * Who 'I' is: the explicit `speaker`, else a "Name said," / "Name:" prefix (stripped, with the
 * quotes around what was said), else a self-introduction in the content or an earlier user turn.
 */
export function splitSpeaker(input: ExtractionInput): { speaker?: string; text: string } {
  let text = input.content;
  let speaker = input.speaker?.trim() || undefined;
  // "Caroline said," names a speaker whatever the name; "Reminder:" or "TODO:" does not, so a
  // colon prefix counts only when compromise knows it as a person's name.
  const colon = COLON_PREFIX.exec(text);
  const prefix = SAID_PREFIX.exec(text) ?? (colon && nlp(colon[1]).has('#Person') ? colon : null);
  if (prefix && !/^(?:I|We|You|He|She|They|It)$/.test(prefix[1])) {
    speaker ??= prefix[1];
    // Quotes would make compromise treat the whole utterance as one odd sentence.
    const quoted = /^["“]([\s\S]*?)["”]([\s\S]*)$/.exec(text.slice(prefix[0].length));
    text = quoted ? `${quoted[1]}${quoted[2]}` : text.slice(prefix[0].length);
  }
  const turns = [text, ...(input.context ?? []).filter((t) => t.role === 'user').map((t) => t.content).reverse()];
  for (const turn of speaker ? [] : turns) {
    const m = SELF_INTRO.exec(turn);
    // "my name is X" is explicit; "I'm X" only counts when X is a known name (not "I'm Happy").
    if (m && (/name|call/i.test(m[1]) || nlp(m[2]).has('#Person'))) return { speaker: m[2], text };
  }
  return { speaker, text };
}

// ── spans: dates, products, names, noun phrases ──────────────────────────────────────

interface Span {
  start: number;
  end: number;
  type: string;
  name: string;
  surface: string;
  props: Record<string, PropertyValue>;
  possessive: boolean;
  /** Claimed tokens that make no node (an unresolvable date, a topic below the cap). */
  dropped?: boolean;
  key?: string;
}

/** Non-overlapping spans of one sentence, in order; dates and products claim their tokens first. */
function findSpans(toks: Tok[], ref: Date | undefined): Span[] {
  const taken = new Array<boolean>(toks.length).fill(false);
  const spans: Span[] = [];
  const tense = tenseOf(toks);
  const matchers = [(i: number) => matchDate(toks, i, ref, tense), (i: number) => matchProduct(toks, i), (i: number) => matchName(toks, i), (i: number) => matchNounPhrase(toks, i, taken)];
  for (const match of matchers) {
    for (let i = 0; i < toks.length; i++) {
      if (taken[i]) continue;
      const s = match(i);
      if (!s || taken.slice(s.start, s.end).some(Boolean)) continue;
      taken.fill(true, s.start, s.end);
      spans.push(s);
      i = s.end - 1;
    }
  }
  return spans.sort((a, b) => a.start - b.start);
}

function span(toks: Tok[], start: number, end: number, type: string, name: string, props: Record<string, PropertyValue> = {}): Span {
  const last = toks[end - 1];
  const possessive = has(last, 'Possessive') || /['’]s?$/.test(last.text);
  return { start, end, type, name, surface: surfaceOf(toks.slice(start, end)), props, possessive };
}

type Tense = 'past' | 'present' | 'future';
function tenseOf(toks: Tok[]): Tense {
  const words = ` ${toks.map((t) => t.norm).join(' ')} `;
  if (/ (?:will|gonna|tomorrow|next|plan to|planning to|going to \w+) /.test(words)) return 'future';
  return toks.some((t) => has(t, 'PastTense')) ? 'past' : 'present';
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];
/** Word tables without a prototype, so a token such as 'constructor' finds nothing in them. */
const table = <T>(entries: Record<string, T>): Record<string, T> => Object.assign(Object.create(null) as Record<string, T>, entries);
const RELATIVE_DAYS = table({ yesterday: -1, today: 0, tonight: 0, tomorrow: 1 });
const SHIFT = table({ last: -1, past: -1, this: 0, next: 1, coming: 1 });
const QUANTITY = table({ a: 1, an: 1, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10 });
const DAY_MS = 86_400_000;

const monthOf = (t: Tok | undefined) => (t && has(t, 'Month') && isCap(t) ? MONTHS.indexOf(t.norm.slice(0, 3)) : -1);
const weekdayOf = (t: Tok | undefined) => (t && isCap(t) ? WEEKDAYS.indexOf(t.norm) : -1);
/** Also 'Tues', 'Thurs'…, accepted only after last/next/this/on, where they cannot be anything else. */
const weekdayAbbrevOf = (t: Tok | undefined) =>
  t && isCap(t) && /^(?:sun|mon|tue|tues|wed|thu|thur|thurs|fri|sat)$/.test(t.norm) ? WEEKDAYS.findIndex((d) => d.startsWith(t.norm.slice(0, 3))) : weekdayOf(t);
const dayOf = (t: Tok | undefined) => {
  const m = /^(\d{1,2})(?:st|nd|rd|th)?$/.exec(t?.norm ?? '');
  return m && +m[1] >= 1 && +m[1] <= 31 ? +m[1] : undefined;
};
const yearOf = (t: Tok | undefined) => (t && /^(?:1[89]|20)\d\d$/.test(t.norm) ? +t.norm : undefined);

const pad = (n: number) => String(n).padStart(2, '0');
const addDays = (d: Date, n: number) => new Date(d.getTime() + n * DAY_MS);
const isoDay = (d: Date) => d.toISOString().slice(0, 10);
/** 'YYYY-MM' of the month `shift` months from `d`. */
const isoMonth = (d: Date, shift = 0) => {
  const m = d.getUTCFullYear() * 12 + d.getUTCMonth() + shift;
  return `${Math.floor(m / 12)}-${pad((m % 12) + 1)}`;
};
/** ISO-8601 week ('2023-W19'): weeks start on Monday, week 1 holds the year's first Thursday. */
function isoWeek(d: Date): string {
  const thursday = addDays(d, 4 - (d.getUTCDay() || 7));
  const jan1 = Date.UTC(thursday.getUTCFullYear(), 0, 1);
  return `${thursday.getUTCFullYear()}-W${pad(Math.ceil(((thursday.getTime() - jan1) / DAY_MS + 1) / 7))}`;
}
/** The weekday `wd` before (dir -1), after (1) or on-or-after (0) `ref`. */
function weekdayNear(ref: Date, wd: number, dir: number): Date {
  let diff = wd - ref.getUTCDay();
  if (dir < 0 && diff >= 0) diff -= 7;
  else if (dir > 0 && diff <= 0) diff += 7;
  else if (dir === 0 && diff < 0) diff += 7;
  return addDays(ref, diff);
}
/** The Saturday of the weekend `shift` weekends from the current (or, on weekdays, the coming) one. */
function weekendOf(ref: Date, shift: number): Date {
  const lastSaturday = addDays(ref, -((ref.getUTCDay() + 1) % 7));
  const current = ref.getUTCDay() === 6 || ref.getUTCDay() === 0 ? lastSaturday : addDays(lastSaturday, 7);
  return addDays(current, 7 * shift);
}
/** A year for a month (and day) given without one: the nearest occurrence in the sentence's tense. */
function yearFor(ref: Date, month: number, day: number | undefined, tense: Tense): number {
  const when = month * 32 + (day ?? 0);
  const now = ref.getUTCMonth() * 32 + (day === undefined ? 0 : ref.getUTCDate());
  return ref.getUTCFullYear() + (tense === 'past' && when > now ? -1 : tense === 'future' && when < now ? 1 : 0);
}

/**
 * A date expression starting at token i, resolved against `ref` to an ISO name (day, week,
 * weekend, month or year). Unresolvable ones (relative, without `ref`) still claim their
 * tokens, so 'yesterday' never becomes a topic, but make no node.
 */
function matchDate(toks: Tok[], i: number, ref: Date | undefined, tense: Tense): Span | undefined {
  const t = toks[i];
  const n = t.norm;
  const next = toks[i + 1];
  let end = i + 1;
  let value: [string, string] | undefined; // [iso name, granularity]
  const ago = matchAgo(toks, i);
  const season = SEASONS[next?.norm ?? ''];
  if (n in RELATIVE_DAYS) {
    if (/^(?:morning|afternoon|evening|night)$/.test(next?.norm ?? '')) end++;
    if (ref) value = [isoDay(addDays(ref, RELATIVE_DAYS[n])), 'day'];
  } else if (n in SHIFT && next && (/^(?:week|weekend|month|year)$/.test(next.norm) || weekdayAbbrevOf(next) >= 0)) {
    end = i + 2;
    const k = SHIFT[n];
    if (!ref) value = undefined; // claimed, but nothing to resolve against
    else if (next.norm === 'week') value = [isoWeek(addDays(ref, 7 * k)), 'week'];
    else if (next.norm === 'weekend') value = [isoDay(weekendOf(ref, k)), 'weekend'];
    else if (next.norm === 'month') value = [isoMonth(ref, k), 'month'];
    else if (next.norm === 'year') value = [String(ref.getUTCFullYear() + k), 'year'];
    else value = [isoDay(weekdayNear(ref, weekdayAbbrevOf(next), k === 0 ? (tense === 'past' ? -1 : 0) : k)), 'day'];
  } else if (n in SHIFT && season !== undefined) {
    // "last summer": the latest one that has ended; "next summer": the first one not yet begun. Named by its year.
    end = i + 2;
    const [y, m] = [ref?.getUTCFullYear() ?? 0, ref?.getUTCMonth() ?? 0];
    const k = SHIFT[n];
    const year = k < 0 ? (m > season + 2 ? y : y - 1) : k > 0 ? (m < season ? y : y + 1) : y;
    if (ref) value = [String(year), 'season'];
  } else if (ago) {
    const { q, unit } = ago;
    end = ago.end;
    if (ref && unit === 'day') value = [isoDay(addDays(ref, -q)), 'day'];
    else if (ref && unit === 'week') value = [isoWeek(addDays(ref, -7 * q)), 'week'];
    else if (ref && unit === 'month') value = [isoMonth(ref, -q), 'month'];
    else if (ref) value = [String(ref.getUTCFullYear() - q), 'year'];
  } else if (dayOf(t) && (monthOf(next) >= 0 || (next?.norm === 'of' && monthOf(toks[i + 2]) >= 0))) {
    const m = next.norm === 'of' ? i + 2 : i + 1; // "7 May 2023", "the 5th of May"
    const year = yearOf(toks[m + 1]);
    end = year ? m + 2 : m + 1;
    value = dayValue(ref, monthOf(toks[m]), dayOf(t)!, year, tense);
  } else if (monthOf(t) >= 0) {
    const day = dayOf(next);
    const year = yearOf(day ? toks[i + 2] : next);
    end = i + 1 + (day ? 1 : 0) + (year ? 1 : 0);
    if (day) value = dayValue(ref, monthOf(t), day, year, tense);
    else if (year || ref) value = [`${year ?? yearFor(ref!, monthOf(t), undefined, tense)}-${pad(monthOf(t) + 1)}`, 'month'];
  } else if (weekdayOf(t) >= 0 || (toks[i - 1]?.norm === 'on' && weekdayAbbrevOf(t) >= 0)) {
    if (ref) value = [isoDay(weekdayNear(ref, weekdayAbbrevOf(t), tense === 'past' ? -1 : tense === 'future' ? 1 : 0)), 'day'];
  } else if (yearOf(t) && (has(t, 'Year') || /^(?:in|since|of|from|until|by)$/.test(toks[i - 1]?.norm ?? ''))) {
    value = [String(yearOf(t)), 'year'];
  } else return undefined;
  const s = span(toks, i, end, 'Date', value?.[0] ?? '', value ? { granularity: value[1], text: surfaceOf(toks.slice(i, end)) } : {});
  return value ? s : { ...s, dropped: true };
}

const SEASONS = table({ spring: 2, summer: 5, fall: 8, autumn: 8, winter: 11 }); // first month, 0-based

/** "two days ago", "a couple of weeks ago", "3 years ago". */
function matchAgo(toks: Tok[], i: number): { q: number; unit: string; end: number } | undefined {
  const n = toks[i].norm;
  let u = i + 1;
  let q = QUANTITY[n] ?? (/^\d+$/.test(n) ? +n : NaN);
  if (n === 'couple' || toks[u]?.norm === 'couple') {
    u = n === 'couple' ? u : u + 1;
    [q, u] = [2, toks[u]?.norm === 'of' ? u + 1 : u];
  }
  const unit = /^(day|week|month|year)s?$/.exec(toks[u]?.norm ?? '')?.[1];
  return unit && toks[u + 1]?.norm === 'ago' && q > 0 ? { q, unit, end: u + 2 } : undefined;
}

function dayValue(ref: Date | undefined, month: number, day: number, year: number | undefined, tense: Tense): [string, string] | undefined {
  const y = year ?? (ref ? yearFor(ref, month, day, tense) : undefined);
  if (y === undefined) return undefined;
  const d = new Date(Date.UTC(y, month, day));
  return d.getUTCDate() === day ? [isoDay(d), 'day'] : undefined;
}

/** Verbs (lemmas) whose capitalised object is a product: "bought a new iPhone 15", "we use Microsoft Teams". */
const PRODUCT_VERBS = new Set(['buy', 'purchase', 'order', 'get', 'use', 'launch', 'release', 'own', 'drive', 'install', 'download', 'try', 'play', 'upgrade', 'switch', 'unveil']);
/** Product-looking words wherever they occur: iPhone, eReader, PS5, GPT-4, MacBook, AirPods. */
const PRODUCT_WORD = /^(?:[a-z]{1,2}[A-Z][\w-]*|[A-Z][A-Za-z]*-?\d+[A-Za-z]*|Mac[Bb]ook|AirPods?|Xbox|Kindle|ChatGPT|PlayStation|Nintendo)$/;
const PRODUCT_SUFFIX = /^(?:\d+\w*|Pro|Max|Plus|Mini|Ultra|Air|SE|Lite|Series|XL)$/;
const productToken = (t: Tok | undefined) =>
  !!t && (isCap(t) || /\d/.test(t.text) || PRODUCT_WORD.test(t.text)) && !has(t, 'Pronoun', 'Person', 'Place', 'Date', 'Month', 'WeekDay', 'Expression');

function matchProduct(toks: Tok[], i: number): Span | undefined {
  let start = i;
  let end = i;
  if (PRODUCT_WORD.test(toks[i].text) && !has(toks[i], 'Date', 'Person', 'Place')) {
    end = i + 1;
    while (end < toks.length && !breaksAfter(toks[end - 1]) && PRODUCT_SUFFIX.test(toks[end].text)) end++;
  } else if (has(toks[i], 'Verb') && PRODUCT_VERBS.has(toks[i].root)) {
    start = i + 1;
    while (start < i + 4 && has(toks[start], 'Determiner', 'Possessive', 'Adjective') && !isCap(toks[start])) start++;
    if (toks[start]?.norm === 'to') start++; // "upgraded to", "switched to"
    end = start;
    while (end < toks.length && productToken(toks[end]) && (end === start || !breaksAfter(toks[end - 1]))) end++;
    const run = toks.slice(start, end);
    if (!run.length || !(isCap(run[0]) || PRODUCT_WORD.test(run[0].text)) || run.every((t) => has(t, 'Organization'))) return undefined;
  } else return undefined;
  return span(toks, start, end, 'Product', canonicalName(surfaceOf(toks.slice(start, end))));
}

/** A run of capitalised tokens tagged Person, Organization or Place (another ProperNoun run is a Topic). */
function matchName(toks: Tok[], i: number): Span | undefined {
  const t = toks[i];
  const type = has(t, 'Person', 'Honorific') ? 'Person' : has(t, 'Organization') ? 'Organization' : has(t, 'Place') ? 'Place' : has(t, 'ProperNoun') && i > 0 ? 'Topic' : '';
  if (!type || !isCap(t) || has(t, 'Pronoun', 'Date', 'Expression')) return undefined;
  const tag = type === 'Topic' ? 'ProperNoun' : type;
  let end = i + 1;
  while (end < toks.length && !breaksAfter(toks[end - 1]) && !has(toks[end - 1], 'Possessive') && isCap(toks[end]) && has(toks[end], tag) && !has(toks[end], 'Date', 'Pronoun')) end++;
  const title = has(t, 'Honorific') ? surfaceOf([t]) + (t.post.startsWith('.') ? '.' : '') : undefined;
  const nameToks = toks.slice(title ? i + 1 : i, end);
  if (!nameToks.length) return undefined;
  // "an LGBTQ conference": a name that only modifies a noun is part of that noun phrase.
  if (type === 'Topic' && !breaksAfter(toks[end - 1]) && nounToken(toks[end]) && !isCap(toks[end])) return undefined;
  return span(toks, i, end, type, canonicalName(surfaceOf(nameToks)), title ? { title } : {});
}

const words = (list: string) => new Set(list.split(' '));
const GENERIC_NOUNS = words(
  'thing stuff time lot way day bit kind sort something anything everything nothing someone anyone everyone one ones people guy guys person fun idea question moment life world part year week month weekend morning night evening afternoon today tonight yesterday lol haha hey hi wow thanks thank congrats congratulations yes yeah ok okay sure glad experience lots others other reason chance news place home hand end point matter case fact best favorite favourite look care anytime fan difference blast photo pic picture image shot selfie bunch anyway need needs being having getting doing going seeing making taking trying',
);
const GENERIC_ADJECTIVES = words(
  'new great good bad big small little old nice awesome amazing cool fun lovely beautiful wonderful same other own last next first whole real such much many few several different special favorite favourite huge long hard tough sure glad happy excited busy best better lot fantastic incredible super important really true right wrong',
);
const STOP = new Set(STOPWORDS);
/** Heads that make a noun phrase an Event rather than a Topic. */
const EVENT_HEADS = words(
  'party wedding concert festival race marathon conference parade trip vacation holiday camp game match tournament ceremony graduation funeral workshop class lesson exhibition show event gala fundraiser hike picnic reunion seminar retreat competition contest interview appointment celebration birthday anniversary performance recital meetup convention summit expo fair protest rally tour',
);
/** Verb forms the relationship rules read, which compromise may tag as nouns ("works", "visits"). */
const VERB_FORMS = words('work works live lives visit visits use uses love loves like likes manage manages run runs lead leads join joins attend attends');
/** Verbs whose gerund object is an activity worth a topic: "I love painting and hiking", "went camping". */
const ACTIVITY_VERBS = words('love like enjoy hate prefer start begin try keep practice go quit miss adore up');
const nounToken = (t: Tok | undefined) => !!t && has(t, 'Noun', 'Acronym') && !has(t, 'Pronoun', 'Date', 'Value', 'Expression', 'QuestionWord') && !!t.text;

/** "love playing pro ball": a gerund with an object is a verb; its object is the topic. */
const objectAfter = (toks: Tok[], i: number) =>
  !breaksAfter(toks[i]) && has(toks[i + 1], 'Determiner', 'Noun', 'Adjective', 'ProperNoun', 'Pronoun', 'Possessive', 'Value') && !/^(?:and|or)$/.test(toks[i + 1]?.norm ?? '');

/** "love painting", "go hiking", "enjoy running and swimming": the gerund is an activity. */
function activityAt(toks: Tok[], i: number): boolean {
  let j = i - 1;
  while (j >= 0 && (toks[j].norm === 'and' || toks[j].norm === 'or' || has(toks[j], 'Gerund'))) j--;
  return j >= 0 && ACTIVITY_VERBS.has(toks[j].root);
}

/** A lowercase noun phrase (one optional adjective + nouns), lemmatised: a Topic, or an Event by its head. */
function matchNounPhrase(toks: Tok[], i: number, taken: boolean[]): Span | undefined {
  if (has(toks[i], 'Gerund') && !has(toks[i], 'Noun') && activityAt(toks, i) && !objectAfter(toks, i) && !GENERIC_NOUNS.has(toks[i].norm)) {
    return span(toks, i, i + 1, 'Topic', canonicalName(toks[i].norm));
  }
  const adj = has(toks[i], 'Adjective') && !GENERIC_ADJECTIVES.has(toks[i].norm) && !breaksAfter(toks[i]) ? 1 : 0;
  let end = i + adj;
  let common = false; // capitalised modifiers ("LGBTQ", "Pride") may only precede the common nouns
  while (end < toks.length && !taken[end] && nounToken(toks[end]) && !(common && isCap(toks[end]) && has(toks[end], 'ProperNoun'))) {
    common ||= !isCap(toks[end]);
    end++;
    if (breaksAfter(toks[end - 1]) || has(toks[end - 1], 'Possessive')) break;
  }
  if (end === i + adj) return undefined;
  const weak = (t: Tok) => GENERIC_NOUNS.has(t.root) || GENERIC_NOUNS.has(t.norm) || STOP.has(t.norm) || t.norm.length < 3 || KIN[t.root] !== undefined;
  let first = i;
  let last = end - 1;
  while (first <= last && weak(toks[first])) first++;
  while (last >= first && weak(toks[last])) last--;
  if (first > last || (first === last && has(toks[first], 'Adjective'))) return undefined;
  const phrase = toks.slice(first, last + 1);
  if (phrase.length === 1) {
    const t = phrase[0];
    // compromise sometimes reads "…, works for Acme" as a noun; the relationship rules need the verb.
    if (VERB_FORMS.has(t.norm) && !has(toks[first - 1], 'Determiner', 'Possessive', 'Adjective')) return undefined;
    // "Oof, John" / "Looks like…": a lone sentence-initial word is an interjection or a mis-tag.
    if (first === 0) return undefined;
    // "great hearing from you", "having a great time": -ing nouns count only as a thing or an activity.
    if (/ing$/.test(t.norm) && !has(toks[first - 1], 'Determiner', 'Possessive') && (!activityAt(toks, first) || objectAfter(toks, first))) return undefined;
  }
  const lemma = phrase.map((t, k) => (/\p{Lu}/u.test(t.text.slice(1)) ? t.text : k === phrase.length - 1 ? t.root : t.norm)).join(' ');
  const type = EVENT_HEADS.has(phrase[phrase.length - 1].root) ? 'Event' : 'Topic';
  return { ...span(toks, i, end, type, canonicalName(lemma)), surface: surfaceOf(phrase) };
}

/** Keep the `max` most salient Topic/Event phrases (repeated, then longer, then earlier); drop the rest. */
function keepSalientTopics(spans: Span[], max: number): void {
  const phrases = spans.filter((s) => (s.type === 'Topic' || s.type === 'Event') && !s.dropped);
  const count = new Map<string, number>();
  for (const s of phrases) count.set(s.name, (count.get(s.name) ?? 0) + 1);
  const keep = new Set(
    [...count.keys()]
      .map((name, order) => ({ name, order, score: count.get(name)! * 2 + name.split(' ').length }))
      .sort((a, b) => b.score - a.score || a.order - b.order)
      .slice(0, max)
      .map((r) => r.name),
  );
  for (const s of phrases) if (!keep.has(s.name)) s.dropped = true;
}

// ── nodes ─────────────────────────────────────────────────────────────────────────────

const NAMED_TYPES = new Set(['Person', 'Organization', 'Place', 'Product']);
const slug = (s: string) => s.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '-').replace(/^-|-$/g, '');

/** Nodes of one extraction, deduplicated case-insensitively; a named entity wins over a same-named topic. */
class NodeRegistry {
  private readonly nodes = new Map<string, ExtractedNode>();
  private readonly byName = new Map<string, string>();
  readonly speakerKey: string | null = null;

  constructor(speaker: string | undefined) {
    if (!speaker) return;
    const name = canonicalName(speaker);
    this.speakerKey = 'speaker';
    this.nodes.set('speaker', { key: 'speaker', type: 'Person', name, properties: {}, mentions: [speaker.trim()] });
    this.byName.set(`named:${name.toLowerCase()}`, 'speaker');
    this.byName.set(`named:${name.toLowerCase().split(' ')[0]}`, 'speaker');
  }

  add(s: Span): string {
    const lower = s.name.toLowerCase();
    const lookup = NAMED_TYPES.has(s.type) ? `named:${lower}` : `${s.type}:${lower}`;
    const key = this.byName.get(lookup) ?? (NAMED_TYPES.has(s.type) || s.type === 'Date' ? undefined : this.byName.get(`named:${lower}`));
    if (key) {
      const node = this.nodes.get(key)!;
      if (!node.mentions.includes(s.surface)) node.mentions.push(s.surface);
      node.properties = { ...s.props, ...node.properties };
      return key;
    }
    let fresh = `${s.type.toLowerCase()}:${slug(s.name) || 'x'}`;
    for (let n = 2; this.nodes.has(fresh); n++) fresh = `${s.type.toLowerCase()}:${slug(s.name)}-${n}`;
    this.nodes.set(fresh, { key: fresh, type: s.type, name: s.name, properties: { ...s.props }, mentions: [s.surface] });
    this.byName.set(lookup, fresh);
    return fresh;
  }

  /** Merge 'Smith' / 'Dr. Smith' into the one 'John Smith' they can name, then remap and dedupe edges. */
  finish(rels: ExtractedRelationship[]): Extraction {
    const alias = new Map<string, string>();
    const people = [...this.nodes.values()].filter((n) => n.type === 'Person');
    for (const short of people.filter((n) => !n.name.includes(' ') && n.key !== 'speaker')) {
      const word = short.name.toLowerCase();
      const full = people.filter((n) => n.name.includes(' ') && [n.name.split(' ')[0], n.name.split(' ').at(-1)].some((w) => w!.toLowerCase() === word));
      if (full.length !== 1) continue;
      alias.set(short.key, full[0].key);
      full[0].mentions.push(...short.mentions.filter((m) => !full[0].mentions.includes(m)));
      full[0].properties = { ...short.properties, ...full[0].properties };
      this.nodes.delete(short.key);
    }
    const seen = new Set<string>();
    const relationships: ExtractedRelationship[] = [];
    for (const r of rels) {
      const source = alias.get(r.source) ?? r.source;
      const target = alias.get(r.target) ?? r.target;
      const id = `${source}|${r.type}|${target}`;
      if (source === target || seen.has(id)) continue;
      seen.add(id);
      relationships.push({ ...r, source, target });
    }
    return { nodes: [...this.nodes.values()], relationships };
  }
}

// ── relationships ─────────────────────────────────────────────────────────────────────

/** Kinship and role nouns: "my sister Jane", "Bob is my manager". `toNamed` false: the named person is the source. */
const KIN = table<{ type: string; toNamed: boolean }>({});
const kin = (type: string, toNamed: boolean, words: string) => words.split(' ').forEach((w) => (KIN[w] = { type, toNamed }));
kin('FAMILY', true, 'mother mom mum father dad parent sister brother sibling son daughter child kid grandmother grandma grandfather grandpa grandparent grandson granddaughter grandchild aunt uncle cousin niece nephew stepmom stepdad stepson stepdaughter');
kin('FRIEND', true, 'friend buddy pal bestie bff roommate');
kin('MARRIED_TO', true, 'wife husband spouse');
kin('PARTNER', true, 'partner boyfriend girlfriend fiance fiancee fiancé fiancée');
kin('COLLEAGUE', true, 'colleague coworker co-worker teammate');
kin('MANAGES', false, 'manager boss supervisor');
kin('MANAGES', true, 'employee assistant');
kin('MENTORS', false, 'mentor coach teacher');
const KIN_MODIFIER = '(?:(?:best|close|old|older|younger|little|big|twin|baby|eldest|oldest|youngest|ex|dear|good|great|new) )?';
/** "my [best] friend [is|named] Jane": the words between the possessor and the name. */
const KIN_BEFORE_NAME = new RegExp(`^${KIN_MODIFIER}(\\S+)(?: (?:is|was|named|called))?$`);
/** "Jane, my [best] friend": the words right after the possessor. */
const KIN_AFTER_POSSESSOR = new RegExp(`^${KIN_MODIFIER}(\\S+)`);

/** Words the verb patterns may carry before the verb ("has just moved to", "was recently married to"). */
const AUX = '(?:(?:am|is|are|was|were|be|been|has|have|had|just|also|still|now|already|finally|recently|currently|actually|really|first|often|usually|always|even|never|did|do|does) )*';
const rule = (type: string, verbs: string, to: string[], from = ['Person']) => ({ type, re: new RegExp(`^${AUX}(?:${verbs})$`), to, from });
const VERB_RULES = [
  rule('WORKS_AT', '(?:work|works|worked|working|employed|intern|interned|interning|job)(?: \\w+){0,3} (?:at|for|with)', ['Organization', 'Place']),
  rule('WORKS_AT', '(?:is|was|am|are) \\w+(?: \\w+)? (?:at|for)', ['Organization']),
  rule('LIVES_IN', '(?:live|lives|lived|living|reside|resides|resided|moved|move|moving|relocated|settled)(?: back)? (?:in|to|into)', ['Place']),
  rule('FROM', '(?:is|am|are|was|were|come|comes|came) from|grew up in|born in', ['Place']),
  rule('MET', '(?:met|meet|meets|meeting)(?: up)?(?: with)?|bumped into|ran into|hung out with|caught up with', ['Person']),
  rule('MARRIED_TO', 'married|marry|marries|wed|(?:got |get )?(?:engaged|married) to', ['Person']),
  rule('ATTENDED', 'attended|attending|attend|attends|joined|join|participated in|took part in|signed up for|went to|go to|going to|ran|run|running', ['Event']),
  rule('JOINED', 'joined|join|joins|joining|signed up for|became member of|volunteer at|volunteered at|volunteers at|volunteering at', ['Organization', 'Topic']),
  rule('MANAGES', 'manage|manages|managed|managing|lead|leads|led|supervise|supervises|supervised|runs|ran|oversees|oversaw', ['Person', 'Organization', 'Topic', 'Product', 'Event'], ['Person', 'Organization']),
  rule('VISITED', 'visited|visiting|visits|visit|went(?: back)? to|been to|traveled to|travelled to|flew to|drove to|stayed (?:in|at)|toured|returned from|came back from|trip to', ['Place', 'Organization', 'Topic']),
  rule('BOUGHT', 'bought|buy|buys|buying|purchased|ordered|got', ['Product']),
  rule('BOUGHT', 'bought|buy|buys|buying|purchased|ordered', ['Topic']),
  rule('USES', 'use|uses|used|using|switched to|installed|downloaded|tried', ['Product', 'Organization']),
  rule('LAUNCHED', 'launched|launches|launch|released|releases|unveiled|announced', ['Product'], ['Organization', 'Person']),
  rule('LIKES', 'love|loves|loved|like|likes|liked|enjoy|enjoys|enjoyed|into|passionate about|fan of|obsessed with|interested in', ['Topic', 'Event', 'Product', 'Place', 'Organization']),
];

/** One mention in a sentence's slot sequence: an entity (key null = an unresolved pronoun) or a word. */
type Slot = { ent: { key: string | null; type: string; possessive: boolean; at: number } } | { word: string };

const SELF = new Set(['i', 'me', 'my', 'mine', 'myself']);
const OTHER_PRONOUNS = new Set('you your yours he him his she her hers they them their theirs we us our ours it its'.split(' '));
const KEEP_WORDS = new Set(['up', 'back', 'out', 'together', 'into', 'with', 'for', 'to', 'best']);

/** Relationships collected over a memory, deduplicated, co-occurrence capped. */
class Relations {
  private readonly items: ExtractedRelationship[] = [];
  private readonly linked = new Set<string>();
  private cooccurrences = 0;
  constructor(private readonly maxCooccurrences: number) {}
  add(source: string, target: string, type: string, properties?: Record<string, PropertyValue>): void {
    if (source === target) return;
    this.items.push(properties && Object.keys(properties).length ? { source, target, type, properties } : { source, target, type });
    this.linked.add(`${source}|${target}`).add(`${target}|${source}`);
  }
  cooccur(a: string, b: string): void {
    if (a === b || this.linked.has(`${a}|${b}`) || this.cooccurrences >= this.maxCooccurrences) return;
    this.cooccurrences++;
    this.add(a, b, 'MENTIONED_WITH');
  }
  list = () => this.items;
}

/** Read typed relationships off one sentence, then link what is left by co-occurrence. */
function relateSentence(toks: Tok[], spans: Span[], speakerKey: string | null, rels: Relations): void {
  const slots: Slot[] = [];
  const byStart = new Map(spans.map((s) => [s.start, s]));
  for (let i = 0; i < toks.length; i++) {
    const s = byStart.get(i);
    const t = toks[i];
    if (s) {
      if (!s.dropped && s.type !== 'Date' && !isVocative(toks, s)) slots.push({ ent: { key: s.key!, type: s.type, possessive: s.possessive, at: i } });
      i = s.end - 1;
    } else if (SELF.has(t.norm)) slots.push({ ent: { key: speakerKey, type: 'Person', possessive: t.norm === 'my' || t.norm === 'mine', at: i } });
    else if (OTHER_PRONOUNS.has(t.norm)) slots.push({ ent: { key: null, type: 'Person', possessive: false, at: i } });
    else if (KEEP_WORDS.has(t.norm) || !has(t, 'Determiner', 'Adjective', 'Adverb')) slots.push({ word: t.norm });
  }
  const dates = spans.filter((s) => s.type === 'Date' && !s.dropped);
  const when = dates.length === 1 ? { date: dates[0].name } : undefined;
  const ents = slots.flatMap((s, at) => ('ent' in s ? [{ ...s.ent, slot: at }] : []));
  const wordsBetween = (from: number, to: number) => slots.slice(from + 1, to).flatMap((s) => ('word' in s ? [s.word] : [])).join(' ');
  const group = new Map<string, string[]>(); // coordinated subjects: "John and Mary moved to Boston"
  let subject: (typeof ents)[number] | null = null;
  let previous: { source: string; type: string; to: string[] } | null = null; // "I love painting and hiking"
  let apposition: { source: (typeof ents)[number]; at: number; skip: number } | null = null;
  for (let k = 0; k + 1 < ents.length; k++) {
    const a = ents[k];
    const b = ents[k + 1];
    const between = wordsBetween(a.slot, b.slot);
    const after = wordsBetween(b.slot, ents[k + 2]?.slot ?? slots.length);
    if (a.key && b.key && (between === 'and' || between === '&') && a.type === 'Person' && b.type === 'Person') {
      group.set(b.key, [...(group.get(a.key) ?? []), a.key]);
      if (/^(?:got |are |were |just )*married/.test(after)) rels.add(a.key, b.key, 'MARRIED_TO', when);
      else if (/^(?:have |had |first |just )*met/.test(after)) rels.add(a.key, b.key, 'MET', when);
    }
    const kinA = KIN_BEFORE_NAME.exec(between);
    const kinB = KIN_AFTER_POSSESSOR.exec(after);
    if (a.possessive && b.type === 'Person' && kinA && KIN[singular(kinA[1])]) addKin(rels, a.key, b.key, kinA[0].replace(/ (?:is|was|named|called)$/, ''));
    else if (b.possessive && a.type === 'Person' && /^(?:is|was|who is|)$/.test(between) && kinB && KIN[singular(kinB[1])]) {
      addKin(rels, b.key, a.key, kinB[0]);
      apposition = { source: a, at: k + 1, skip: kinB[0].length };
    }
    const conj = /^(?:and|but|then|so) (.+)$/.exec(between);
    let source: typeof a = conj && subject ? subject : a;
    let words = conj && subject ? conj[1] : between;
    // "Tom, my husband, works for Acme": the verb after the apposition belongs to Tom.
    if (apposition?.at === k) [source, words] = [apposition.source, between.slice(apposition.skip).trim()];
    const hit = b.key ? VERB_RULES.find((r) => r.to.includes(b.type) && r.from.includes(source.type) && r.re.test(words)) : undefined;
    if (!hit) {
      if (previous && b.key && /^(?:and|or|)$/.test(between) && previous.to.includes(b.type)) rels.add(previous.source, b.key, previous.type, when);
      else previous = null;
      continue;
    }
    subject = source;
    previous = null;
    if (!source.key || !b.key) continue;
    for (const s of [source.key, ...(group.get(source.key) ?? [])]) rels.add(s, b.key, hit.type, when);
    previous = { source: source.key, type: hit.type, to: hit.to };
  }
  // Co-occurrence: nearest pairs first, so capped output keeps the likeliest links.
  const keys = ents.filter((e) => e.key).map((e) => ({ key: e.key!, at: e.at }));
  for (const d of dates) keys.push({ key: d.key!, at: d.start });
  const pairs = keys.flatMap((x, i) => keys.slice(i + 1).map((y) => ({ a: x.key, b: y.key, gap: Math.abs(x.at - y.at) })));
  for (const p of pairs.sort((x, y) => x.gap - y.gap).slice(0, 4)) rels.cooccur(p.a, p.b);
}

/** "Thanks, Mel!" / "Hey Jon," — an addressed name is mentioned but takes part in nothing said. */
function isVocative(toks: Tok[], s: Span): boolean {
  if (s.type !== 'Person') return false;
  const before = toks[s.start - 1];
  const opens = !before || breaksAfter(before) || has(before, 'Expression') || /^(?:hey|hi|hello|thanks|thank|dear|bye|congrats|wow|oh|yeah|yes|sorry)$/.test(before.norm);
  const after = toks[s.end];
  // "Tom, my husband, works…" is an apposition, not an address.
  return opens && (s.end === toks.length || breaksAfter(toks[s.end - 1])) && !has(after, 'Possessive', 'Determiner');
}

const singular = (w: string) => (KIN[w] ? w : w.replace(/s$/, ''));

function addKin(rels: Relations, possessor: string | null, named: string | null, phrase: string): void {
  const words = phrase.trim().split(' ');
  const entry = KIN[singular(words.at(-1)!)];
  if (!possessor || !named || !entry) return;
  const relation = [...words.slice(0, -1), singular(words.at(-1)!)].join(' ');
  // Kinship and roles are states, not events: a date in the sentence belongs to something else.
  const props = entry.type === 'MANAGES' || entry.type === 'MENTORS' ? undefined : { relation };
  if (entry.toNamed) rels.add(possessor, named, entry.type, props);
  else rels.add(named, possessor, entry.type, props);
}
