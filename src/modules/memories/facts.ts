/**
 * The fact reader: what a memory says about a single-valued attribute of someone — where they
 * live, who employs them, their role, diet, relationship, partner, tastes ("my favourite X"),
 * the one car or dentist they have — as (subject, slot, value, negated) facts. Supersession
 * (truth.ts) compares these across a user's memories: the same subject and slot with a new
 * value, or the old value negated ("stopped being vegetarian", "no longer work at Acme"),
 * retires the older memory.
 *
 * Offline and deterministic, read at write time so that the next search already knows. Precision
 * over recall: a wrongly retired memory hides a true fact, a missed one only ranks as before.
 * So: no facts from questions, wishes, plans, conditions or the past ("used to", "when I was");
 * a value that is a name must look like one (capitalised); a subject that is someone else ("my
 * sister lives in Oslo", "Tom works at Acme") is kept apart from the speaker's own.
 */
import { looksLikeCode } from '../../platform/text-code.ts';
import { FILLERS, NOT_NOW } from './facts.lexicon.ts';
import { CALENDAR, ORG_NOT_EMPLOYER, NEG, ownerRule, valueOf, type Rule } from './facts.patterns.ts';
import { WORK_AND_HOME_RULES } from './facts.rules.ts';
import { JOB_RULES } from './facts.rules.job.ts';
import { LIFE_RULES } from './facts.rules.life.ts';
import { TOOL_RULES } from './facts.rules.tools.ts';
import { sentenceSubject, speakerOf, subjectOf } from './facts.subject.ts';

export { questionSubject, sentenceSubject } from './facts.subject.ts';

export interface Fact {
  /** `self` (or the speaker's name, lower case) or another person ("tom", "my sister"). */
  subject: string;
  /** residence, employer, role, diet, relationship, partner, taste:<thing>, has:<thing>, age, name; `*`: any slot. */
  slot: string;
  value: string;
  negated: boolean;
  /** Read off a verb that takes other things too: the memory's meaning decides (facts.claims.ts). */
  ambiguous?: boolean;
  /** A known name mentioned without a verb: stands only where the meaning is of this family. */
  family?: RegExp;
  /**
   * A loose statement (facts.claims.ts looseClaimsOf): read by the mixed similarity alone. It
   * never retires, is never retired and never names the owner; it may answer a question only
   * from the search's own page.
   */
  loose?: boolean;
}

const OWN_RULES: Rule[] = [...WORK_AND_HOME_RULES, ...JOB_RULES, ...LIFE_RULES, ...TOOL_RULES];
/** Each rule, and each "my …" rule again with a name for "my" (facts.patterns.ts, ownerRule). */
const RULES: Rule[] = [...OWN_RULES, ...OWN_RULES.map(ownerRule).filter((x): x is Rule => !!x)];

/** Capitalised words before "'s" that name no one ("Today's", "Everyone's", "This week's"). */
const NO_OWNER = /^(?:everyone|everybody|someone|somebody|anyone|anybody|nobody|world|city|company|team)$/;

/** The subject a possessor names: the owner's own name is the owner; no one (null) for a word of time. */
function ownerSubject(owner: string, self: string, selfNames: Set<string>): string | null {
  const words = owner.toLowerCase().split(/\s+/);
  if (words.some((w) => FILLERS.has(w) || CALENDAR.test(w) || NO_OWNER.test(w))) return null;
  return selfNames.has(words[0]) ? self : words.join(' ');
}

/**
 * The facts a memory states. `selfNames`: names the memory's owner goes by (lower case), so
 * that "Maya moved to Porto" in Maya's memories is about her.
 */
export function readFacts(content: string, opts: { selfNames?: string[] } = {}): Fact[] {
  const { speaker, text } = speakerOf(content);
  const self = speaker ?? 'self';
  const selfNames = new Set((opts.selfNames ?? []).map((n) => n.toLowerCase()));
  if (speaker) selfNames.add(speaker.split(/\s+/)[0]);
  const out = new Map<string, Fact>();
  let deniedBefore: string | null = null;
  for (const said of text.split(/(?<=[.!?;])\s+|\n+|\s+but\s+/)) {
    if (/\?\s*$/.test(said)) continue; // a question states nothing
    const { text: clause, denied } = undenied(contrasted(continuing(said), deniedBefore));
    // Within one sentence only ("… no longer pho but ramen"; "…; it's Y"): after a full stop, a
    // short line ("Sad.") is a sentence of its own, not the new value.
    deniedBefore = denied.length && !/[.!?]\s*$/.test(said) ? clause.slice(0, denied[denied.length - 1]) : null;
    // The clause's first letter folded, so "Moved to Porto" reads like "moved to Porto"; names
    // are read from the clause as written.
    const folded = clause.replace(/^(\s*)(\p{Lu})(?=\p{Ll})/u, (_, s: string, c: string) => s + c.toLowerCase());
    for (const rule of RULES) {
      // A mentioned name is matched as written (its class is case-sensitive: "Go", "Swift").
      for (const m of (rule.family || rule.owner ? clause : folded).matchAll(rule.re)) {
        const start = m.index!;
        const pre = clause.slice(0, start);
        const groups = (m.groups ?? {}) as Record<string, string | undefined>;
        const head = (pre + m[0].slice(0, m[0].length - (groups.v?.length ?? 0))).toLowerCase();
        if (NOT_NOW.test(head)) continue;
        let v = groups.v ?? '';
        const at = m.indices?.groups?.v;
        if (rule.kind === 'name' && at) v = clause.slice(at[0], at[1]);
        if (rule.kind === 'name' && (/^(?:I|My|The|A|An)$/.test(v) || CALENDAR.test(v))) continue;
        if (rule.kind === 'name' && rule.slot === 'employer' && ORG_NOT_EMPLOYER.test(v)) continue;
        const value = valueOf(rule, v);
        if (!value) continue;
        // A mention has no verb of its own: whom the clause is about is its subject. "my …" is the
        // writer's whoever the verb's subject ("Bought a gift for my partner, Jordan").
        const subject = rule.family
          ? clauseSubject(clause, self, selfNames)
          : rule.owner
            ? ownerSubject(groups.owner ?? '', self, selfNames)
            : rule.possessive
              ? self
              : subjectOf(pre, self, selfNames);
        if (!subject) continue;
        const lastWords = pre.split(/\s+/).slice(-4).join(' ').toLowerCase();
        const flipped =
          !rule.negated &&
          !rule.absent &&
          new RegExp(`${NEG}\\b`).test(lastWords + ' ' + m[0].slice(0, 12).toLowerCase());
        const after = folded.slice(start + m[0].length, start + m[0].length + 16).toLowerCase();
        const negated =
          !!rule.negated ||
          flipped ||
          /^\s*(?:anymore|any more|no more)\b/.test(after) ||
          denied.some((p) => p > start && p < start + m[0].length);
        const slot = typeof rule.slot === 'function' ? rule.slot(groups as Record<string, string>) : rule.slot;
        // "My usual these days is …": no kind of thing named; a mention of the value may say which.
        if (slot.endsWith(':')) continue;
        const fact: Fact = {
          subject,
          slot,
          value,
          negated,
          ...(rule.ambiguous ? { ambiguous: true } : {}),
          ...(rule.family ? { family: rule.family } : {}),
        };
        const key = `${subject}|${slot}|${value}|${negated}`;
        if (!fact.family || !out.has(key)) out.set(key, fact);
      }
    }
  }
  // An ambiguous verb's value that another rule reads as a known name of another attribute is
  // that attribute's ("moved over to Scala" is not a city).
  const all = [...out.values()];
  const facts = all.filter(
    (f) => !f.ambiguous || !all.some((g) => !g.ambiguous && g.slot !== '*' && g.value === f.value && g.slot !== f.slot),
  );
  // A mentioned name that a verb's pattern read too is that pattern's fact ("stopped using X").
  return facts.filter(
    (f) => !f.family || !facts.some((g) => !g.family && g.subject === f.subject && g.value === f.value),
  );
}

/**
 * A state that began and still holds, said as the present perfect of the copula: "my favourite
 * food has been pho since March" is "… is pho". Not before a preposition: "has been to Paris" is
 * a visit, and "has been at / with …" have patterns of their own.
 */
const CONTINUING = /\b(?:has|'s|’s)\s+been\b(?!\s+(?:to|in|at|with|on|for|through|there|here)\b)/g;
const continuing = (clause: string) => clause.replace(CONTINUING, (m) => (/^has/.test(m) ? 'is' : ' is'));

/**
 * A denied copula ("is not", "isn't", "is no longer") read as the plain one, with where it was:
 * the fact it carries is negated. "My favourite food is no longer pho" denies pho; it names no
 * food "no longer pho".
 */
const DENIED_COPULA = /\b(is)(?:n't|n’t|\s+not|\s+no\s+longer)(?=\s)/g;
function undenied(clause: string): { text: string; denied: number[] } {
  const denied: number[] = [];
  let shift = 0;
  const text = clause.replace(DENIED_COPULA, (whole: string, verb: string, offset: number) => {
    denied.push(offset - shift + verb.length); // just after the verb, in the text returned
    shift += whole.length - verb.length;
    return verb;
  });
  return { text, denied };
}

/**
 * What a denied copula is contrasted with, said without a verb of its own: "my go-to comfort food
 * is no longer pierogi but pho", "my role isn't designer anymore; it's team lead". `before`: the
 * previous clause up to its denied copula ("my go-to comfort food is"); the value is read as its.
 */
const CONTRAST = /^(?:(?:now\s+)?(?:it's|it’s|it\s+is)\s+(?:now\s+)?)?(?<rest>[^,;:]{1,40}?)[\s.!]*$/;
const VERB_OR_PERSON = /\b(?:i|i'm|i've|we|you|he|she|they|is|are|was|were|am|have|has|had|do|does|did)\b/i;
function contrasted(said: string, before: string | null): string {
  const rest = before ? CONTRAST.exec(said)?.groups?.rest : undefined;
  if (!rest || rest.split(/\s+/).length > 4 || VERB_OR_PERSON.test(rest)) return said;
  return `${before} ${rest}.`;
}

function clauseSubject(clause: string, self: string, selfNames: Set<string>): string | null {
  const subject = sentenceSubject(clause, [...selfNames]);
  return subject === 'self' ? self : subject;
}

/**
 * Past states ("I lived in Rome", "when I was a kid", "as a teenager", "in my twenties") and plans
 * are not what is true now.
 */
const PAST_STATE =
  /\b(?:lived|worked|wrote|was|were|had|used to|(?:my|our) (?:old|previous|former|last) (?:job|company|employer|team|role|position)|grew up|growing up|as an? (?:kid|child|teen|teenager|student|boy|girl|toddler|youngster)|in my (?:youth|childhood|teens|twenties|thirties|student days)|when i was|years ago|back then|back in (?:the )?\d{4}s?|(?:in|at) (?:high school|college|university|uni|school)|learned|learnt|studied)\b/i;
/** Words that make a past verb a change whose result holds now ("moved", "became", "now"). */
const CHANGE =
  /\b(?:now|these days|currently|nowadays|lately|since|anymore|any more|no longer|just|recently|switched|moved|became|got|bought|joined|started|promoted|finally|again|new)\b/i;
/**
 * Many values at once, or being somewhere for a while: not the one current value. "Travel" to work,
 * or by a means ("I travel by tram now"), is how the writer gets around, not a trip.
 */
const NOT_SINGLE =
  /\b(?:visit|visited|visiting|trip|travel(?!\s+(?:(?:in\s+)?(?:to|into)\s+(?:work|the\s+office)|by\b))|travelled|traveled|vacation|holiday|concert|festival|both|either|sometimes|occasionally|once|tried|trying|tasted|test[- ]drove|test[- ]drive|shares|stocks?|hiring|interviewing|interviewed|recruiting)\b/i;
/** An event about a topic ("read a post about Java", "watched a talk on Vim"): not the writer's attribute. */
const ABOUT =
  /\b(?:read|reading|watched|watching|heard|saw|listened to|wrote|posted|saw a|attended)\b.*\b(?:about|on)\b|\b(?:read|reading|watched|watching|saw|listened to)\s+(?:a|an|the|some)\s+(?:[\w-]+\s+){0,2}(?:thread|post|article|blog|review|documentary|video|talk|podcast|book|interview|episode|comparison|piece|story|news|study|survey|paper|report)\b/i;

/** "If you asked me (today)", "if I had to pick": a way of saying what one prefers now. */
const ASKED_ME =
  /\bif (?:you|anyone|someone|somebody) (?:asked|asks|ask) me\b[^,]*,\s*|\bif i (?:had|have) to (?:pick|choose|say|name)\b[^,]*,\s*/;

/**
 * Idioms that say how things are now in the words of a condition or a thought: a preference said
 * as the answer to a question put to the writer ("If you asked me today, my favourite would be
 * ramen", "If I had to pick, I'd say Vim" — the condition and its "would" are the idiom's, not a
 * hypothesis or a plan), and a habit ("without even thinking about it"). Rewritten so that the
 * clause is read as a statement of now.
 */
function idiomsOfNow(clause: string): string {
  const habit = clause.replace(/\bwithout (?:even )?thinking(?: about it| twice)?\b/g, 'by habit');
  if (!ASKED_ME.test(habit)) return habit;
  return habit.replace(ASKED_ME, '').replace(/\b(?:would|'d)\b/g, 'is');
}

/** A past event named only as the start of what holds now ("since that trip", "since our holiday"). */
const SINCE_EVENT = /\bsince (?:that|the|our|my|this|last) (?:trip|vacation|holiday|visit|concert|festival)\b/g;

/**
 * Whether a memory is a short statement of how things are now — what may hold one current
 * value of an attribute: not a question, wish, plan, past state, trip or list of several.
 */
export function statesCurrent(content: string, opts: { short?: boolean } = { short: true }): boolean {
  const { text } = speakerOf(content);
  const t = text.trim();
  // Source code states nothing about its writer: a corpus of functions is not a chain of updates
  // ("def paste(): …" read as an editor retired every earlier function of a CoSQA store).
  if ((opts.short && t.length > 240) || /\?\s*$/.test(t) || looksLikeCode(t)) return false;
  // "Since that trip" dates a change; it is not a trip of its own.
  const all = t.toLowerCase().replace(SINCE_EVENT, 'since then');
  if (NOT_SINGLE.test(all) || ABOUT.test(all)) return false;
  // "I used to love X, but now it's Y": what follows the last "but" is how things are now.
  const lower = idiomsOfNow(all.split(/\bbut\b|;/).pop()!);
  if (NOT_NOW.test(lower)) return false;
  if (PAST_STATE.test(lower) && !CHANGE.test(lower)) return false;
  return true;
}

/** A question about an earlier time without as_of ("What did I drive in 2021?"): not about now. */
export const ASKS_PAST =
  /\b(?:was|were|did|used to|before|previously|formerly|back in|in (?:19|20)\d\d|last year|ago)\b/i;
