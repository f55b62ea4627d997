/**
 * The spans of one sentence, the things a memory mentions: dates (extractor.local.dates.ts),
 * products ("bought a new iPhone 15"), names compromise tags as Person/Organization/Place,
 * and lowercase noun phrases that become Topics, or Events by their head ("a charity race").
 * Noun phrases are plentiful, so only the most salient few per memory are kept.
 */
import { eng as STOPWORDS } from 'stopword';
import { canonicalName } from './extractor.ts';
import { matchDate, tenseOf } from './extractor.local.dates.ts';
import { isKinNoun } from './extractor.local.relations.ts';
import { breaksAfter, has, isCap, span, surfaceOf, type Span, type Tok } from './extractor.local.tokens.ts';

/** Non-overlapping spans of one sentence, in order; dates and products claim their tokens first. */
export function findSpans(toks: Tok[], ref: Date | undefined): Span[] {
  const taken = new Array<boolean>(toks.length).fill(false);
  const spans: Span[] = [];
  const tense = tenseOf(toks);
  const matchers = [
    (i: number) => matchDate(toks, i, ref, tense),
    (i: number) => matchProduct(toks, i),
    (i: number) => matchName(toks, i),
    (i: number) => matchNounPhrase(toks, i, taken),
  ];
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

/** Verbs (lemmas) whose capitalised object is a product: "bought a new iPhone 15", "we use Microsoft Teams". */
const PRODUCT_VERBS = new Set([
  'buy',
  'purchase',
  'order',
  'get',
  'use',
  'launch',
  'release',
  'own',
  'drive',
  'install',
  'download',
  'try',
  'play',
  'upgrade',
  'switch',
  'unveil',
]);
/** Product-looking words wherever they occur: iPhone, eReader, PS5, GPT-4, MacBook, AirPods. */
const PRODUCT_WORD =
  /^(?:[a-z]{1,2}[A-Z][\w-]*|[A-Z][A-Za-z]*-?\d+[A-Za-z]*|Mac[Bb]ook|AirPods?|Xbox|Kindle|ChatGPT|PlayStation|Nintendo)$/;
const PRODUCT_SUFFIX = /^(?:\d+\w*|Pro|Max|Plus|Mini|Ultra|Air|SE|Lite|Series|XL)$/;
const productToken = (t: Tok | undefined) =>
  !!t &&
  (isCap(t) || /\d/.test(t.text) || PRODUCT_WORD.test(t.text)) &&
  !has(t, 'Pronoun', 'Person', 'Place', 'Date', 'Month', 'WeekDay', 'Expression');

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
    if (!run.length || !(isCap(run[0]) || PRODUCT_WORD.test(run[0].text)) || run.every((t) => has(t, 'Organization')))
      return undefined;
  } else return undefined;
  return span(toks, start, end, 'Product', canonicalName(surfaceOf(toks.slice(start, end))));
}

/** A run of capitalised tokens tagged Person, Organization or Place (another ProperNoun run is a Topic). */
function matchName(toks: Tok[], i: number): Span | undefined {
  const t = toks[i];
  const type = has(t, 'Person', 'Honorific')
    ? 'Person'
    : has(t, 'Organization')
      ? 'Organization'
      : has(t, 'Place')
        ? 'Place'
        : has(t, 'ProperNoun') && i > 0
          ? 'Topic'
          : '';
  if (!type || !isCap(t) || has(t, 'Pronoun', 'Date', 'Expression')) return undefined;
  const tag = type === 'Topic' ? 'ProperNoun' : type;
  let end = i + 1;
  while (
    end < toks.length &&
    !breaksAfter(toks[end - 1]) &&
    !has(toks[end - 1], 'Possessive') &&
    isCap(toks[end]) &&
    has(toks[end], tag) &&
    !has(toks[end], 'Date', 'Pronoun')
  )
    end++;
  const title = has(t, 'Honorific') ? surfaceOf([t]) + (t.post.startsWith('.') ? '.' : '') : undefined;
  const nameToks = toks.slice(title ? i + 1 : i, end);
  if (!nameToks.length) return undefined;
  // "an LGBTQ conference": a name that only modifies a noun is part of that noun phrase.
  if (type === 'Topic' && !breaksAfter(toks[end - 1]) && nounToken(toks[end]) && !isCap(toks[end])) return undefined;
  return span(toks, i, end, type, canonicalName(surfaceOf(nameToks)), title ? { title } : {});
}

const words = (list: string) => new Set(list.split(' '));
const GENERIC_NOUNS = words(
  'thing stuff time lot way day bit kind sort something anything everything nothing someone anyone everyone one ' +
    'ones people guy guys person fun idea question moment life world part year week month weekend morning night ' +
    'evening afternoon today tonight yesterday lol haha hey hi wow thanks thank congrats congratulations yes yeah ok ' +
    'okay sure glad experience lots others other reason chance news place home hand end point matter case fact best ' +
    'favorite favourite look care anytime fan difference blast photo pic picture image shot selfie bunch anyway need ' +
    'needs being having getting doing going seeing making taking trying',
);
const GENERIC_ADJECTIVES = words(
  'new great good bad big small little old nice awesome amazing cool fun lovely beautiful wonderful same other own ' +
    'last next first whole real such much many few several different special favorite favourite huge long hard tough ' +
    'sure glad happy excited busy best better lot fantastic incredible super important really true right wrong',
);
const STOP = new Set(STOPWORDS);
/** Heads that make a noun phrase an Event rather than a Topic. */
const EVENT_HEADS = words(
  'party wedding concert festival race marathon conference parade trip vacation holiday camp game match tournament ' +
    'ceremony graduation funeral workshop class lesson exhibition show event gala fundraiser hike picnic reunion ' +
    'seminar retreat competition contest interview appointment celebration birthday anniversary performance recital ' +
    'meetup convention summit expo fair protest rally tour',
);
/** Verb forms the relationship rules read, which compromise may tag as nouns ("works", "visits"). */
const VERB_FORMS = words(
  'work works live lives visit visits use uses love loves like likes manage manages run runs lead leads join joins ' +
    'attend attends',
);
/** Verbs whose gerund object is an activity worth a topic: "I love painting and hiking", "went camping". */
const ACTIVITY_VERBS = words('love like enjoy hate prefer start begin try keep practice go quit miss adore up');
const nounToken = (t: Tok | undefined) =>
  !!t && has(t, 'Noun', 'Acronym') && !has(t, 'Pronoun', 'Date', 'Value', 'Expression', 'QuestionWord') && !!t.text;

/** "love playing pro ball": a gerund with an object is a verb; its object is the topic. */
const objectAfter = (toks: Tok[], i: number) =>
  !breaksAfter(toks[i]) &&
  has(toks[i + 1], 'Determiner', 'Noun', 'Adjective', 'ProperNoun', 'Pronoun', 'Possessive', 'Value') &&
  !/^(?:and|or)$/.test(toks[i + 1]?.norm ?? '');

/** "love painting", "go hiking", "enjoy running and swimming": the gerund is an activity. */
function activityAt(toks: Tok[], i: number): boolean {
  let j = i - 1;
  while (j >= 0 && (toks[j].norm === 'and' || toks[j].norm === 'or' || has(toks[j], 'Gerund'))) j--;
  return j >= 0 && ACTIVITY_VERBS.has(toks[j].root);
}

/** A lowercase noun phrase (one optional adjective + nouns), lemmatised: a Topic, or an Event by its head. */
function matchNounPhrase(toks: Tok[], i: number, taken: boolean[]): Span | undefined {
  if (
    has(toks[i], 'Gerund') &&
    !has(toks[i], 'Noun') &&
    activityAt(toks, i) &&
    !objectAfter(toks, i) &&
    !GENERIC_NOUNS.has(toks[i].norm)
  ) {
    return span(toks, i, i + 1, 'Topic', canonicalName(toks[i].norm));
  }
  const adj = has(toks[i], 'Adjective') && !GENERIC_ADJECTIVES.has(toks[i].norm) && !breaksAfter(toks[i]) ? 1 : 0;
  let end = i + adj;
  let common = false; // capitalised modifiers ("LGBTQ", "Pride") may only precede the common nouns
  while (
    end < toks.length &&
    !taken[end] &&
    nounToken(toks[end]) &&
    !(common && isCap(toks[end]) && has(toks[end], 'ProperNoun'))
  ) {
    common ||= !isCap(toks[end]);
    end++;
    if (breaksAfter(toks[end - 1]) || has(toks[end - 1], 'Possessive')) break;
  }
  if (end === i + adj) return undefined;
  const weak = (t: Tok) =>
    GENERIC_NOUNS.has(t.root) ||
    GENERIC_NOUNS.has(t.norm) ||
    STOP.has(t.norm) ||
    t.norm.length < 3 ||
    isKinNoun(t.root);
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
    if (
      /ing$/.test(t.norm) &&
      !has(toks[first - 1], 'Determiner', 'Possessive') &&
      (!activityAt(toks, first) || objectAfter(toks, first))
    )
      return undefined;
  }
  const lemma = phrase
    .map((t, k) => (/\p{Lu}/u.test(t.text.slice(1)) ? t.text : k === phrase.length - 1 ? t.root : t.norm))
    .join(' ');
  const type = EVENT_HEADS.has(phrase[phrase.length - 1].root) ? 'Event' : 'Topic';
  return { ...span(toks, i, end, type, canonicalName(lemma)), surface: surfaceOf(phrase) };
}

/** Keep the `max` most salient Topic/Event phrases (repeated, then longer, then earlier); drop the rest. */
export function keepSalientTopics(spans: Span[], max: number): void {
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
