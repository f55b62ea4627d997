/**
 * A memory's claims: the facts the reader found in its words (facts.ts), under the attribute
 * names of facts.slots.ts, and — for a short statement of how things are now — the attribute its
 * meaning is nearest to (facts.classify.ts) as a claim of "some value" of it. Supersession
 * (truth.ts) compares claims of the same subject and attribute.
 */
import { LOOSE, slotOf, type SlotExamples, type Vectors } from './facts.classify.ts';
import { readFacts, sentenceSubject, statesCurrent, type Fact } from './facts.ts';
import type { ChunkData } from './memories.store.ts';
import { othersStateFrom, speakerOf } from './facts.subject.ts';

/** The reader's attribute names folded onto the classifier's. */
const TASTES: [RegExp, string][] = [
  [/^(?:coffee|tea|drink|beverage|espresso|latte)/, 'taste:drink'],
  [/^(?:food|dish|meal|cuisine|snack|dessert|restaurant)/, 'taste:food'],
  [/^(?:band|singer|artist|music|song|album|musician|group|rapper)/, 'taste:music'],
  [/^(?:programming language|language|coding language)/, 'tool:language'],
  [/^(?:editor|ide|code editor|text editor)/, 'tool:editor'],
];

export function attributeOf(slot: string): string {
  if (slot === 'relationship') return 'partner';
  if (slot === 'has:car') return 'vehicle';
  if (slot === 'has:commute') return 'commute';
  if (slot === 'has:phone') return 'phone';
  if (/^has:(?:school|university|college)$/.test(slot)) return 'school';
  if (slot === 'has:ide' || slot === 'has:editor') return 'tool:editor';
  const taste = /^taste:(.*)$/.exec(slot);
  // The kind as said, or its head — the last word: "comfort food" is a food, "iced coffee" a drink.
  const head = taste?.[1].split(' ').pop() ?? '';
  if (taste) return (TASTES.find(([re]) => re.test(taste[1])) ?? TASTES.find(([re]) => re.test(head)))?.[1] ?? slot;
  return slot;
}

/** Attributes whose value may be a name standing first: things one has or likes, and the partner. */
const NAMED_VALUE = /^(?:taste:|tool:|vehicle$|phone$|partner$)/;

/**
 * Said of a recording or an artist, never of a person one knows: "on repeat", "on heavy rotation",
 * "on loop" — the name before it is what the writer plays, though no word of the writer is there.
 */
const PLAYED = /\bon (?:repeat|loop|(?:heavy |constant )?rotation)\b/i;

/**
 * `subject` is a name (not "my …", not a possessive) in a sentence with the writer in it, or one
 * said to be played (PLAYED).
 */
function nameIsValue(text: string, subject: string): boolean {
  if (subject === 'self' || subject.startsWith('my ') || !/^[\p{L}][\p{L} .'-]*$/u.test(subject)) return false;
  if (text.toLowerCase().includes(`${subject}'s`)) return false;
  return /\b(?:I|I'm|I've|I'd|me|my|mine)\b/.test(text) || PLAYED.test(text);
}

/** A sentence ending in a denial after "but" ("…, but it's not my favourite", "… but haven't used it since"). */
const BUT_DENIED = /\bbut\b(?![^.;!?]*\bbut\b)[^.;!?]*(?:\b(?:not|never)\b|n't\b)[^.;!?]*[.!?]?\s*$/i;

/** The value of a claim that names no value: "some value of this attribute". */
export const SOME_VALUE = '';

/**
 * A sentence that opens on a thing ("The café on the corner is advertising cortado this week",
 * "A new Thai place opened nearby") and has no word of its writer in it (I, my, we …) says
 * something of that thing, not of its writer, whatever attribute its words or meaning are near:
 * it claims nothing of the writer. One with the writer in it still may ("The barista knows to make
 * my iced mocha"). A thing-first line that does state the writer's own ("The new route into the
 * office by car is only twenty-five minutes") is lost to it: a retired fact is worse than a missed
 * update (docs/truth.md, "Supersession", "Whose"). One sentence only: in "A long week. Moved to Denver
 * at last!" the diary line after it is still the writer's.
 */
const THING_FIRST = /^(?:the|a|an)\s/i;
const WRITER_WORD = /\b(?:i|i'm|i've|i'd|i'll|me|my|mine|myself|we|we're|we've|we'd|we'll|our|ours|us)\b/i;

export function aboutAThing(text: string): boolean {
  const t = text.trim();
  return THING_FIRST.test(t) && !WRITER_WORD.test(t) && !/[.!?;]\s+\S/.test(t);
}

export function claimsOf(content: string, opts: { selfNames?: string[]; slot?: string | null } = {}): Fact[] {
  // Whose the sentence is, and where another person's state begins in it (facts.subject.ts).
  const spoken = speakerOf(content);
  const writer = spoken.speaker ?? 'self';
  const writerless = aboutAThing(spoken.text);
  const others = othersStateFrom(content);
  // What the words say, unless the memory as a whole is an event, a trip, a plan or the past;
  // and, when its meaning names an attribute, only what the words say of that one ("moved to
  // Python" is not a city).
  const read = statesCurrent(content, { short: false })
    ? readFacts(content, { selfNames: opts.selfNames })
        .map((f) => ({ ...f, slot: attributeOf(f.slot) }))
        // An ambiguous verb's fact stands only if the meaning agrees ("moved to Python" is not a city);
        // a mentioned name's only if the meaning is of its family ("Kotlin" where tools are spoken of).
        .filter((f) => !f.ambiguous || !opts.slot || f.slot === opts.slot)
        .filter((f) => !f.family || (!!opts.slot && f.family.test(opts.slot)))
    : [];
  // A mention is the fallback: a pattern's fact of the same attribute is the more exact one
  // ("usual order is an oat milk cortado" is not also "cortado").
  const facts: Fact[] = read
    .filter((f) => !f.family || !read.some((g) => !g.family && g.subject === f.subject && g.slot === f.slot))
    .filter((f) => !othersAfter(content, f, others, writer, opts.selfNames) && !beforeBut(content, f))
    .map(({ ambiguous: _, family: __, ...f }) => f);
  // The meaning's attribute joins unless the words already stated another one.
  if (opts.slot && statesCurrent(content) && !facts.some((f) => f.slot !== opts.slot && f.slot !== '*')) {
    let subject = sentenceSubject(content, opts.selfNames);
    // "My girlfriend Kim …", "my husband and I …": the writer's partner, not the partner's own attribute.
    if (
      opts.slot === 'partner' &&
      subject &&
      /^my (?:boyfriend|girlfriend|partner|wife|husband|spouse|fianc)/.test(subject)
    )
      subject = 'self';
    // "Daft Punk has been on repeat in my head", "Chris left a toothbrush at my place": a name
    // first that is the value — a thing, or the partner — of a sentence the writer speaks in.
    if (subject && NAMED_VALUE.test(opts.slot) && nameIsValue(spoken.text, subject)) subject = writer;
    // "Cooked tacos for my neighbour, it's their favourite": near food, but the neighbour's.
    if (subject && others !== null) subject = null;
    // "I like ramen too, but it's not my favourite": what follows "but" denies, and names nothing new.
    if (subject && BUT_DENIED.test(content)) subject = null;
    if (subject && !facts.some((f) => f.subject === subject && f.slot === opts.slot))
      facts.push({ subject, slot: opts.slot, value: SOME_VALUE, negated: false });
  }
  return writerless ? facts.filter((f) => f.subject !== writer) : facts;
}

/**
 * A loose statement: for a memory of which nothing was read (`claimsOf` found no claim), the
 * attribute the mixed similarity names though the primary embedder alone disagrees (facts.classify.ts
 * LOOSE), with the same rules of whose it is. "Sorted out my new address in Seattle with the bank
 * today" is near residence by its words' vectors while USE lite alone calls it something else.
 * Such a reading is too weak to retire an older fact (the agreement check keeps false
 * supersession down: docs/truth.md), so it never does; search lets it answer only from its own
 * page (fact-answer.ts).
 */
export function looseClaimsOf(content: string, v: Vectors, examples: SlotExamples, selfNames?: string[]): Fact[] {
  const slot = slotOf(v, examples, LOOSE);
  if (!slot) return [];
  return claimsOf(content, { selfNames, slot })
    .filter((f) => f.slot === slot)
    .map((f) => ({ ...f, loose: true }));
}

/**
 * What a memory being stored claims: by its words and, for a single-chunk memory, by its first
 * chunk's vectors (already computed for search); with nothing read, its loose statement.
 */
export function storedClaims(
  content: string,
  chunks: Pick<ChunkData, 'embedding' | 'embeddingModel' | 'embedding2' | 'embedding2Model'>[],
  examples: SlotExamples | null,
  selfNames: string[],
): Fact[] {
  const first = chunks[0];
  if (!examples || chunks.length !== 1 || !first.embedding || !first.embeddingModel)
    return claimsOf(content, { selfNames, slot: null });
  const v: Vectors = {
    primary: { model: first.embeddingModel, vector: first.embedding },
    secondary:
      first.embedding2 && first.embedding2Model ? { model: first.embedding2Model, vector: first.embedding2 } : null,
  };
  const facts = claimsOf(content, { selfNames, slot: slotOf(v, examples) });
  return facts.length ? facts : looseClaimsOf(content, v, examples, selfNames);
}

/**
 * A writer's fact whose value comes where another person's state is ("Gave my neighbour
 * directions to their office by bus", "Picked up a cortado for my dad"): the value is theirs.
 * Before a relative clause of theirs it stays the writer's ("I take the bus, unlike my sister,
 * who drives").
 */
function othersAfter(content: string, f: Fact, from: number | null, writer: string, selfNames: string[] = []) {
  if (from === null || !f.value) return false;
  if (f.subject !== writer && !selfNames.includes(f.subject)) return false;
  return content.toLowerCase().indexOf(f.value, from) >= 0;
}

/**
 * A value held only before a sentence's last "but" ("I like ramen too, but it's not my favourite";
 * "Learned Java at university but haven't used it since"): what follows "but" is how things are
 * now (facts.ts statesCurrent), so the value before it is not claimed. A negated one still is ("I
 * left Google, but …").
 */
function beforeBut(content: string, f: Fact): boolean {
  if (f.negated || !f.value) return false;
  // Within the sentence that holds the value: a "but" in another sentence says nothing of it.
  const sentence = content
    .toLowerCase()
    .split(/(?<=[.!?;])\s+|\n+/)
    .filter((x) => x.includes(f.value))
    .pop();
  const but = sentence?.search(/\bbut\b(?!.*\bbut\b)/s) ?? -1;
  return but >= 0 && sentence!.lastIndexOf(f.value) < but;
}

/** Does `newer` (stated later) make `older` no longer so? */
export function contradicts(newer: Fact, older: Fact): boolean {
  if (newer.subject !== older.subject) return false;
  if (newer.slot === '*' || older.slot === '*') {
    // "switched from X": X of any attribute is no longer so; a `*` fact is never retired.
    return newer.slot === '*' && newer.negated && !older.negated && older.slot !== '*' && older.value === newer.value;
  }
  if (newer.slot !== older.slot) return false;
  // A statement of the attribute's value now replaces whatever was stated before.
  if (newer.value === SOME_VALUE) return true;
  if (newer.negated) return !older.negated && older.value === newer.value;
  return older.value !== newer.value || older.negated;
}
