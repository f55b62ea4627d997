/**
 * A deterministic synthetic corpus of personal-assistant memories and of questions about
 * them. Memory i depends only on i (its own seeded PRNG), so the first 10k memories of the
 * 100k corpus are the 10k corpus and an ingested store can be reused across runs. Each
 * user has a small cast (people, projects, cities) that their memories and queries share,
 * as a real user's memories would.
 */
import type { AddMemory } from './client.ts';
import * as W from './words.ts';

/** Changes whenever generated texts change, so a kept store built from older texts is not reused. */
export const CORPUS_ID = 'synthetic-v1';

/** The external user id of user `u`. */
export const userId = (u: number) => `bench-user-${u}`;

/** mulberry32: small, fast, good enough for picking words. Returns floats in [0, 1). */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A PRNG for item `i` of stream `stream`, independent of every other item. */
const rngFor = (stream: number, i: number) => prng(Math.imul(stream, 0x9e3779b1) ^ Math.imul(i + 1, 0x85ebca6b));

/** Seeded Fisher-Yates shuffle (a copy), so Zipf ranks do not follow alphabetical order. */
function shuffled<T>(items: T[], seed: number): T[] {
  const r = prng(seed);
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(r() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

// Zipf-like pools: a few words are common and most are rare, as in real text; that
// skew is what makes BM25's idf and posting-list lengths behave realistically.
const ZIPF = {
  nouns: shuffled(W.LEXICON.nouns, 1),
  plurals: shuffled(W.LEXICON.pluralNouns, 2),
  adjectives: shuffled(W.LEXICON.adjectives, 3),
  foods: shuffled(W.FOODS, 4),
  hobbies: shuffled(W.HOBBIES, 5),
};

const capitalise = (w: string) => w[0].toUpperCase() + w.slice(1);
const a = (phrase: string) => `${/^[aeiou]/i.test(phrase) ? 'an' : 'a'} ${phrase}`;

/** The people, projects and places one user's memories are about. */
interface Cast {
  people: string[];
  projects: string[];
  cities: string[];
}

function castOf(u: number): Cast {
  const r = rngFor(7, u);
  const pick = <T>(xs: T[]) => xs[Math.floor(r() * xs.length)];
  return {
    people: Array.from({ length: 12 }, () => pick(W.LEXICON.firstNames)),
    projects: Array.from({ length: 4 }, () => `${capitalise(pick(ZIPF.adjectives))} ${capitalise(pick(ZIPF.nouns))}`),
    cities: Array.from({ length: 5 }, () => pick(Math.floor(r() * 4) ? W.LEXICON.cities : W.LEXICON.countries)),
  };
}

/** Slot fillers for one text, drawing from `r` and the user's cast. */
function picker(r: () => number, cast: Cast) {
  const any = <T>(xs: T[]) => xs[Math.floor(r() * xs.length)];
  const zipf = <T>(xs: T[]) => xs[Math.floor(Math.pow(xs.length + 1, r())) - 1]; // P(rank k) ~ 1/k
  const date = () => `${any(W.MONTHS)} ${1 + Math.floor(r() * 28)}`;
  return {
    any,
    person: () => any(cast.people),
    fullName: () => `${any(cast.people)} ${any(W.LEXICON.lastNames)}`,
    project: () => any(cast.projects),
    city: () => any(cast.cities),
    noun: () => zipf(ZIPF.nouns),
    plural: () => zipf(ZIPF.plurals),
    adj: () => zipf(ZIPF.adjectives),
    food: () => zipf(ZIPF.foods),
    hobby: () => zipf(ZIPF.hobbies),
    date,
    time: () => `${1 + Math.floor(r() * 12)}:${any(['00', '15', '30', '45'])} ${any(['am', 'pm'])}`,
    count: () => 2 + Math.floor(r() * 9),
    year: () => 2019 + Math.floor(r() * 6),
  };
}
type Picker = ReturnType<typeof picker>;

interface Template {
  category: 'preference' | 'task' | 'goal' | 'fact' | 'context' | 'skills' | 'learning';
  role: 'user' | 'assistant';
  text: (w: Picker) => string;
}

const TEMPLATES: Template[] = [
  {
    category: 'preference',
    role: 'user',
    text: (w) =>
      `${w.person()} prefers ${w.food()} for ${w.any(W.OCCASIONS)}, but avoids ${w.food()} because it is ` +
      `too ${w.adj()}.`,
  },
  {
    category: 'preference',
    role: 'user',
    text: (w) =>
      `For ${w.any(W.OCCASIONS)} I like ${w.any(W.CUISINES)} places with ${a(w.adj())} atmosphere; my ` +
      `favorite dish there is ${w.food()}.`,
  },
  {
    category: 'context',
    role: 'assistant',
    text: (w) =>
      `Meeting notes ${w.date()}: ${w.person()} and ${w.person()} discussed the ${w.adj()} ${w.noun()} for ` +
      `project ${w.project()}; next step is to ${w.any(W.TASK_VERBS)} the ${w.noun()} by ${w.any(W.WEEKDAYS)}.`,
  },
  {
    category: 'task',
    role: 'user',
    text: (w) =>
      `Task: ${w.any(W.TASK_VERBS)} the ${w.noun()} for ${w.person()} before ${w.date()} at ${w.time()}, ` +
      `and remind me ${w.count()} days ahead.`,
  },
  {
    category: 'fact',
    role: 'assistant',
    text: (w) =>
      `Project ${w.project()} runs on ${w.any(W.TECH)} and ${w.any(W.TECH)}, is owned by ${w.fullName()}, ` +
      `and its ${w.adj()} ${w.noun()} milestone moved to ${w.any(W.MONTHS)}.`,
  },
  {
    category: 'fact',
    role: 'user',
    text: (w) =>
      `${w.person()} lives in ${w.city()} near the ${w.any(W.VENUES)} and usually takes the ` +
      `${w.any(W.TRANSPORT)} to work.`,
  },
  {
    category: 'skills',
    role: 'user',
    text: (w) =>
      `${w.person()} took up ${w.hobby()} in ${w.year()} and practises every ${w.any(W.WEEKDAYS)} ` +
      `${w.any(W.PARTS_OF_DAY)} with ${w.any(W.RELATIONS)} at the ${w.any(W.VENUES)}.`,
  },
  {
    category: 'task',
    role: 'assistant',
    text: (w) =>
      `Trip to ${w.city()} in ${w.any(W.MONTHS)}: book ${a(w.adj())} hotel near the ${w.any(W.VENUES)}, ` +
      `try the local ${w.food()}, and meet ${w.person()} for ${w.hobby()}.`,
  },
  {
    category: 'preference',
    role: 'user',
    text: (w) =>
      `${capitalise(w.any(W.RELATIONS))} ${w.person()} has a birthday on ${w.date()}; gift ideas are ` +
      `${a(w.adj())} ${w.noun()}, ${w.hobby()} gear, or dinner at ${a(w.any(W.CUISINES))} restaurant.`,
  },
  {
    category: 'fact',
    role: 'user',
    text: (w) =>
      `${w.person()} is allergic to ${w.any(W.ALLERGENS)} and cannot eat ${w.food()}; the appointment with ` +
      `Dr. ${w.any(W.LEXICON.lastNames)} is on ${w.date()}.`,
  },
  {
    category: 'goal',
    role: 'user',
    text: (w) =>
      `Goal for ${w.year() + 6}: read ${w.count()} books about ${w.plural()} a month and get better at ` +
      `${w.hobby()}, with ${w.person()} keeping me accountable.`,
  },
  {
    category: 'context',
    role: 'assistant',
    text: (w) =>
      `Reminded ${w.person()} that the ${w.adj()} ${w.noun()} from ${w.city()} arrives on ` +
      `${w.any(W.WEEKDAYS)}; they asked to move the ${w.hobby()} session to the ${w.any(W.PARTS_OF_DAY)}.`,
  },
  {
    category: 'learning',
    role: 'assistant',
    text: (w) =>
      `Learned that the ${w.noun()} service in ${w.project()} depends on the ${w.adj()} ${w.noun()}; ` +
      `${w.person()} suggested we ${w.any(W.TASK_VERBS)} it during the ${w.any(W.MONTHS)} sprint.`,
  },
  {
    category: 'fact',
    role: 'user',
    text: (w) =>
      `${w.fullName()} works as ${a(w.any(W.JOBS))} in ${w.city()} and prefers ${w.any(W.CHANNELS)} in the ` +
      `${w.any(W.PARTS_OF_DAY)}.`,
  },
  {
    category: 'task',
    role: 'user',
    text: (w) =>
      `Ordered ${a(w.adj())} ${w.noun()} and ${w.count()} boxes of ${w.food()} for ${w.any(W.OCCASIONS)}; ` +
      `delivery is expected on ${w.any(W.WEEKDAYS)}.`,
  },
];

/** Questions a user would ask about memories like the ones above. */
const QUERY_TEMPLATES: ((w: Picker) => string)[] = [
  (w) => `What does ${w.person()} like to eat for ${w.any(W.OCCASIONS)}?`,
  (w) => `Which ${w.any(W.CUISINES)} restaurant should we book for ${w.any(W.OCCASIONS)}?`,
  (w) => `What did we decide about the ${w.noun()} in the ${w.project()} meeting?`,
  (w) => `When do I need to ${w.any(W.TASK_VERBS)} the ${w.noun()}?`,
  (w) => `Who owns project ${w.project()} and when is the ${w.noun()} milestone?`,
  (w) => `Where does ${w.person()} live and how do they get to work?`,
  (w) => `When does ${w.person()} practise ${w.hobby()}?`,
  (w) => `What should I do on my trip to ${w.city()}?`,
  (w) => `What gift could I get ${w.person()} who likes ${w.hobby()}?`,
  (w) => `Is ${w.person()} allergic to ${w.any(W.ALLERGENS)}?`,
  (w) => `What are my goals for ${w.plural()} and ${w.hobby()} this year?`,
  (w) => `When does the ${w.adj()} ${w.noun()} from ${w.city()} arrive?`,
  (w) => `What depends on the ${w.adj()} ${w.noun()} in ${w.project()}?`,
  (w) => `How does ${w.person()} prefer to be contacted?`,
  (w) => `Did I order ${w.food()} for ${w.any(W.OCCASIONS)}?`,
];

const CREATED_FROM = Date.UTC(2023, 0, 1);
const CREATED_SPAN_MS = 730 * 24 * 3600 * 1000;

/** Memory `i` of the corpus, for one of `users` users. */
export function syntheticMemory(i: number, users: number): AddMemory {
  const r = rngFor(1, i);
  const u = Math.floor(r() * users);
  const w = picker(r, castOf(u));
  const t = w.any(TEMPLATES);
  const followUp = r() < 0.35 ? ` ${w.any(W.FOLLOW_UPS)}.` : '';
  return {
    content: t.text(w) + followUp,
    type: 'text',
    external_user_id: userId(u),
    metadata: {
      role: t.role,
      category: t.category,
      createdAt: new Date(CREATED_FROM + Math.floor(r() * CREATED_SPAN_MS)).toISOString(),
      sourceType: 'bench',
    },
  };
}

/** The first `n` memories of the corpus. */
export function syntheticMemories(n: number, users: number): AddMemory[] {
  return Array.from({ length: n }, (_, i) => syntheticMemory(i, users));
}

/**
 * `n` distinct queries, each for a random user and built from that user's cast; distinct
 * so a query-embedding cache cannot hide the cost of embedding them.
 */
export function syntheticQueries(n: number, users: number): { user: string; query: string }[] {
  const seen = new Set<string>();
  const out: { user: string; query: string }[] = [];
  for (let i = 0; out.length < n; i++) {
    if (i > n * 100) throw new Error(`could not generate ${n} distinct queries`);
    const r = rngFor(2, i);
    const u = Math.floor(r() * users);
    const w = picker(r, castOf(u));
    const query = w.any(QUERY_TEMPLATES)(w);
    if (seen.has(query)) continue;
    seen.add(query);
    out.push({ user: userId(u), query });
  }
  return out;
}
