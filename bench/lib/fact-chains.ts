/**
 * Fact chains for the fact-update benchmark (bench/updates.ts): one attribute of one user (city,
 * employer, diet, ...) stated, then changed 1-4 times, months apart; plus distractors that mention
 * the attribute without changing the user's value (another person's, a childhood one, a visit, a
 * wish) and everyday memories. Each chain draws all its wordings from one template set, dev or
 * heldout, so a detector tuned on dev wordings can be measured on wordings it has not seen; with
 * `wordings: 'dev2'` every chain takes the third set instead (fact-kinds-dev2.ts), for development
 * once dev is saturated (bench/truth-offline.ts).
 *
 * Deterministic for a seed. Memory and question keys are local ("u3.m12"); the bench maps them to
 * server ids. Keys, kinds and sets are never sent to the server: it sees the content and createdAt.
 */
import { prng } from './corpus.ts';
import { DAYS, EVERYDAY, FRIENDS, RELATIVES, THINGS, USER_NAMES } from './fact-everyday.ts';
import { LIFE_KINDS } from './fact-kinds-life.ts';
import { car, commute, editor } from './fact-kinds-more.ts';
import { TASTE_KINDS } from './fact-kinds-tastes.ts';
import { WORK_KINDS } from './fact-kinds-work.ts';
import { DEV2 } from './fact-kinds-dev2.ts';
import type { AttributeKind, WordingSet } from './fact-template.ts';

export const KINDS: AttributeKind[] = [...LIFE_KINDS, commute, ...WORK_KINDS, editor, ...TASTE_KINDS, car];

export interface FactMemory {
  key: string;
  user: number;
  content: string;
  /** ISO time the remembered thing was said (metadata.createdAt). */
  createdAt: string;
  set: WordingSet;
  /** The chain it belongs to or was generated alongside (distractors have one too, for the set). */
  chain: number;
  /** chain: a step of the chain; attribute: mentions the kind without changing it; everyday: neither. */
  role: 'chain' | 'attribute' | 'everyday';
  /** False only for chain steps that a later step replaces. */
  shouldBeCurrent: boolean;
  /** The key(s) of the memory that should supersede this one (the next step); empty when current. */
  supersededBy: string[];
}

export interface FactQuestion {
  user: number;
  chain: number;
  set: WordingSet;
  query: string;
  /** current: about the value now; past: about the value at asOf. */
  kind: 'current' | 'past';
  asOf?: string;
  /** Key of the memory that answers it. */
  expected: string;
}

export interface FactChain {
  id: number;
  user: number;
  kind: string;
  set: WordingSet;
  /** Keys of its memories, oldest first. */
  steps: string[];
}

export interface FactData {
  users: string[];
  chains: FactChain[];
  memories: FactMemory[];
  questions: FactQuestion[];
}

const MONTH_NAMES = lines12('January February March April May June July August September October November December');
function lines12(s: string) {
  return s.split(' ');
}

/** Fill {placeholders} and capitalise the sentence. */
function fill(template: string, slots: Record<string, string>): string {
  const out = template.replace(/\{(\w+)\}/g, (_, k: string) => {
    if (slots[k] === undefined) throw new Error(`template ${JSON.stringify(template)} needs {${k}}`);
    return slots[k];
  });
  // "a Elixir person" → "an Elixir person" (not before U: "a UX designer").
  const articled = out.replace(/\b([Aa]) (?=[AEIOaeiou])/g, '$1n ');
  return articled[0].toUpperCase() + articled.slice(1);
}

/** Build `chains` chains over `users` users; each user holds at most one chain per kind. */
export function factChains(opts: { chains: number; users: number; seed: number; wordings?: 'dev2' }): FactData {
  const { chains, users, seed } = opts;
  // Two chains of one kind for one user would contradict each other (which city is current?).
  if (Math.ceil(chains / users) > KINDS.length)
    throw new Error(`${chains} chains need at least ${Math.ceil(chains / KINDS.length)} users (${KINDS.length} kinds)`);
  if (users > USER_NAMES.length) throw new Error(`at most ${USER_NAMES.length} users`);
  const r = prng(seed);
  const int = (n: number) => Math.floor(r() * n);
  const any = <T>(xs: T[]) => xs[int(xs.length)];
  const shuffle = <T>(xs: T[]) => {
    const out = [...xs];
    for (let i = out.length - 1; i > 0; i--) {
      const j = int(i + 1);
      [out[i], out[j]] = [out[j], out[i]];
    }
    return out;
  };
  const distinct = <T>(xs: T[], n: number) => shuffle(xs).slice(0, n);
  const kindOrder = Array.from({ length: users }, () => shuffle(KINDS));
  const seen = Array.from({ length: users }, () => new Set<string>());
  const counters = new Array<number>(users).fill(0);
  const data: FactData = { users: USER_NAMES.slice(0, users), chains: [], memories: [], questions: [] };

  /** Add a memory for user u unless its text is already one of u's (an exact duplicate would fold). */
  const add = (m: Omit<FactMemory, 'key' | 'content'>, make: () => string): FactMemory => {
    for (let attempt = 0; attempt < 50; attempt++) {
      const content = make();
      if (seen[m.user].has(content)) continue;
      seen[m.user].add(content);
      const memory = { ...m, key: `u${m.user}.m${counters[m.user]++}`, content };
      data.memories.push(memory);
      return memory;
    }
    throw new Error(`no unique text for user ${m.user}`);
  };
  const month = (d: Date) => `${MONTH_NAMES[d.getUTCMonth()]} ${d.getUTCFullYear()}`;
  // 2021-01-01 plus days; distractors fall anywhere in 2021 to mid 2025.
  const day = (d: number) => new Date(Date.UTC(2021, 0, 1) + d * 86_400_000 + int(12 * 3600) * 1000 + 8 * 3600_000);
  const anyDate = () => day(int(4.5 * 365)).toISOString();

  for (let c = 0; c < chains; c++) {
    const user = c % users;
    const kind = kindOrder[user][Math.floor(c / users)];
    const drawn = r() < 0.5 ? 'dev' : 'heldout';
    const set: WordingSet = opts.wordings ?? drawn;
    const w = set === 'dev2' ? DEV2[kind.kind] : kind[drawn];
    const name = data.users[user];
    const n = 2 + int(4); // 2-5 memories: 1-4 changes
    const values = distinct(kind.values, n);
    // Steps 5-8 months apart from a start in 2021: the last is at most 32 months later, before 2025.
    const dates: Date[] = [day(int(330))];
    for (let s = 1; s < n; s++) dates.push(new Date(dates[s - 1].getTime() + (150 + int(90)) * 86_400_000));
    const steps: FactMemory[] = [];
    // Each wording at most once per chain: drawn without replacement.
    const decks = new Map<string[], string[]>();
    const draw = (ts: string[]) => {
      if (!decks.get(ts)?.length) decks.set(ts, shuffle(ts));
      return decks.get(ts)!.pop()!;
    };
    let prev: string | null = null;
    for (let s = 0; s < n; s++) {
      const negatable: boolean = prev !== null && (kind.negatable ?? kind.values).includes(prev);
      const negate: boolean = s > 0 && !!w.negation && negatable && r() < 0.3;
      // After a negation there is no {prev}: the next value is stated afresh.
      const templates = negate ? w.negation! : s === 0 || prev === null ? w.first : w.update;
      const slots = { v: values[s], prev: prev ?? '', name };
      const m = add(
        {
          user,
          createdAt: dates[s].toISOString(),
          set,
          chain: c,
          role: 'chain',
          shouldBeCurrent: s === n - 1,
          supersededBy: [],
        },
        () => fill(draw(templates), slots),
      );
      if (steps.length) steps[steps.length - 1].supersededBy.push(m.key);
      steps.push(m);
      prev = negate ? null : values[s];
    }
    data.chains.push({ id: c, user, kind: kind.kind, set, steps: steps.map((m) => m.key) });

    // Distractors: two that mention the kind (another value half the time a value of this chain), one everyday.
    for (const t of distinct(w.distract, 2)) {
      add(
        { user, createdAt: anyDate(), set, chain: c, role: 'attribute', shouldBeCurrent: true, supersededBy: [] },
        () => fill(t, { other: r() < 0.5 ? any(values) : any(kind.values), rel: any(RELATIVES), name }),
      );
    }
    add({ user, createdAt: anyDate(), set, chain: c, role: 'everyday', shouldBeCurrent: true, supersededBy: [] }, () =>
      fill(any(EVERYDAY[set === 'dev2' ? 'dev' : set]), { friend: any(FRIENDS), day: any(DAYS), thing: any(THINGS) }),
    );

    const last = steps[n - 1];
    for (const q of distinct(w.current, 2))
      data.questions.push({ user, chain: c, set, kind: 'current', query: fill(q, { name }), expected: last.key });
    // A past date: midway between two steps (at least ~2.5 months from either), answered by the earlier one.
    const s = int(n - 1);
    const asOf = new Date((dates[s].getTime() + dates[s + 1].getTime()) / 2);
    data.questions.push({
      user,
      chain: c,
      set,
      kind: 'past',
      query: fill(any(w.past), { name, when: month(asOf) }),
      asOf: asOf.toISOString(),
      expected: steps[s].key,
    });
  }
  return data;
}
