/**
 * Which attribute a question asks about. A question names what it asks ("Where does Maya live?",
 * "What's my role these days?"), where a statement may say it only by implication, so its words
 * are read first: the attributes whose names it uses decide — one alone, or several by the
 * examples among them — and a question that names none is left to the examples alone
 * (facts.classify.ts). USE lite on its own called "What's Ravi's role these days?" a car question.
 */
import { QUESTION_SLOT, slotOf, type SlotExamples, type Vectors } from './facts.classify.ts';

/** The words that name each attribute in a question (general English, not any set's wordings). */
const NAMED: [string, RegExp][] = [
  [
    'residence',
    /\b(?:live|lives|(?<!for a )living(?! room)|reside|resides|based(?! on)|city|town|hometown|address|neighbou?rhood|postcode|zip code|country|apartment|flat(?! white)|(?:move|moved) to|relocated|settled|located|where(?:'s| is) (?:\w+(?:'s)? )?home)\b/,
  ],
  [
    'employer',
    /\b(?:employer|employed|employs|hired|company|firm|organi[sz]ation|workplace|job at|salary|paycheck|payroll|startup|corporation|place of work|pays (?:\w+ )?(?:wages|salary)|works? (?:for|at)|working (?:for|at)|where (?:do|does) \w+ work)\b/,
  ],
  [
    'role',
    /\b(?:role|job title|title at work|occupation|profession|career|line of work|for a living|for work|at work|promoted|job(?! at)|works? as|working as|position (?:do|does|am|is)|what (?:do|does) \w+ do(?: now| these days| at the moment| right now)?\s*\?)/,
  ],
  [
    'diet',
    /\b(?:diet|dietary|vegetarian|vegan|pescatarian|flexitarian|omnivore|keto|paleo|meat|plant-based|veggie|animal products|dairy|eating habits|how (?:do|does) \w+ eat)\b/,
  ],
  [
    'partner',
    /\b(?:partner|dating|dates|girlfriend|boyfriend|wife|husband|spouse|fianc[eé]e?|engaged|romantic|relationship|married|significant other|other half|better half|love life|lover|sweetheart|going out with|in love with|with whom|single|who (?:am|is|are) \w+ (?:seeing|with))\b/,
  ],
  [
    'commute',
    /\b(?:commutes?|commuting|(?:get|gets|getting|go|goes|going|travel|travels|travelling|traveling|head|heads|heading) (?:in)?to (?:work|the office)|into the office|(?:way|journey|trip|ride) (?:in)?to (?:work|the office)|get(?:s)? around|transport|transportation|transit)\b/,
  ],
  ['vehicle', /\b(?:car|drive|drives|driving|vehicle|automobile|wheels|behind the wheel|suv|sedan|hatchback)\b/],
  [
    'taste:food',
    /\b(?:food|dish|meal|cuisine|(?<!how (?:do|does|did) \w+ )eat|eating|dinner|lunch|snack|dessert|takeaway|takeout|restaurant|cook(?:ed)? for)\b/,
  ],
  // "café" apart: without the u flag \b does not follow an é.
  [
    'taste:drink',
    /\b(?:drink|drinks|coffee|tea|cafe|caffeine|beverage|latte|espresso|brew|barista|cuppa|order at)\b|\bcafé/,
  ],
  [
    'taste:music',
    /\b(?:band|artist|music|musician|singer|songs?|albums?|listens?|listening|playlist|tunes|genre|concerts?|gigs?|vinyl|on repeat|streaming)\b/,
  ],
  ['tool:language', /\b(?:language|programming|codes? in|coding in|writes? code in|tech stack|stack)\b/],
  ['tool:editor', /\b(?:editor|ide)\b/],
  ['phone', /\b(?:phone|smartphone|mobile|handset|cellphone)\b/],
  ['school', /\b(?:school|university|college|studies|studying|study|enrolled|degree|campus)\b/],
];

/** The attributes whose names `query` uses. */
export function namedAttributes(query: string): string[] {
  const q = query.toLowerCase().replace(/’/g, "'");
  return NAMED.filter(([, re]) => re.test(q)).map(([slot]) => slot);
}

/** The attribute `query` asks about, or null: by its words first, then by its meaning. */
export function questionSlot(query: string, v: Vectors, examples: SlotExamples): string | null {
  const named = namedAttributes(query);
  if (named.length === 1) return named[0];
  return slotOf(v, examples, named.length ? { ...QUESTION_SLOT, only: named } : QUESTION_SLOT);
}
