/**
 * The pieces the fact reader's patterns are built of (facts.rules*.ts): what a name, a phrase, a
 * diet or an occupation looks like, a rule's shape, and how a matched value is folded.
 */
import { DIETS, OCCUPATIONS } from './facts.lexicon.ts';

/** A name: capitalised words, with the small words of place names between them. */
export const NAME =
  String.raw`(?<v>[A-Z][\p{L}\p{N}'’&.-]*(?:\s+(?:(?:de|da|do|del|la|le|of|upon|am|` +
  // A day or month after a name is when, not more of the name ("joined Stripe on Monday").
  String.raw`y|on)\s+)?(?!(?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day\b|(?:January|February|March|April|June|July|` +
  String.raw`August|September|October|November|December)\b)[A-Z0-9][\p{L}\p{N}'’&.-]*)*)`;
/** A name opening a clause, whose first letter the reader folded to lower case ("Stripe hired me"). */
export const NAME_START = NAME.replace('(?<v>[A-Z]', '(?<v>[A-Za-z]');
/** A lower-case phrase up to the clause's end, cut at a connective (valueOf). */
/** Days and months look like names but are never a place, employer or partner. */
export const CALENDAR =
  /^(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|january|february|march|april|may|june|july|august|september|october|november|december|today|tomorrow|tonight)\b/i;
export const PHRASE = String.raw`(?<v>[^,.;!?"]{1,60})`;
export const DIET = `(?<v>${Object.keys(DIETS).join('|')})`;
/** A change said with a light verb, "made the jump to", "made the switch over to": "switched to". */
export const MADE_THE_SWITCH = String.raw`made\s+the\s+(?:jump|switch|move|leap|change|shift)\s+(?:over\s+)?to`;
export const NEG = String.raw`(?:\bnot|n't|\bno longer|\bnever|\bno more)`;
export const ORG_NOT_EMPLOYER =
  /\b(?:club|team|league|choir|group|society|association|band|class|course|gym|community|program|programme|meetup|church|army|navy)\b/i;

export interface Rule {
  slot: string | ((g: Record<string, string>) => string);
  re: RegExp;
  /** name: a capitalised name; phrase: lower-case words; fixed: `value`. */
  kind: 'name' | 'phrase' | 'fixed';
  value?: string;
  negated?: boolean;
  /** The value must pass this (an occupation's head, a diet). */
  check?: (v: string) => boolean;
  /** The subject is the possessor before "my …", not the words before the verb. */
  possessive?: boolean;
  /** A possessive rule read with a name for "my" ("Maya's favourite artist is …"): its group `owner`. */
  owner?: boolean;
  /** The verb takes other things than this attribute's values ("moved to Python", "left Google"). */
  ambiguous?: boolean;
  /**
   * A name mentioned with no verb to read: the fact stands only where the memory's meaning is of
   * this family of attributes (facts.claims.ts), and the name's class says which one.
   */
  family?: RegExp;
  /** The attribute now has no value ("no longer own a car"): a new value, not a negated one. */
  absent?: boolean;
  /** Spellings folded to one value ("bicycle" → bike). */
  fold?: Record<string, string>;
}

/**
 * A possessive rule ("my favourite X is …", "my car is …") with someone named for "my": "Maya's
 * favourite artist is Beach House", "Arjun's car is the old Golf" say the same of Maya and Arjun.
 * Read on the clause as written (the owner is a capitalised name); null for a rule that does not
 * open with "my".
 */
export function ownerRule(rule: Rule): Rule | null {
  const MY = String.raw`\bmy\s+`;
  if (!rule.possessive || !rule.re.source.startsWith(MY)) return null;
  const owner = String.raw`\b(?<owner>[A-Z][\p{L}-]*(?:\s+[A-Z][\p{L}-]*)?)(?:'s|’s)\s+`;
  return {
    ...rule,
    possessive: false,
    owner: true,
    re: new RegExp(owner + rule.re.source.slice(MY.length), rule.re.flags),
  };
}

/** `d`: the reader reads a name's value where its group matched, as written in the clause. */
export const r = (s: string) => new RegExp(s, 'gud');
/** One rule per pattern (a regular expression names its value group once). */
export const each = (rule: Omit<Rule, 're'>, ...patterns: string[]): Rule[] =>
  patterns.map((p) => ({ ...rule, re: r(p) }));
/** An occupation phrase: its last word is one, and it does not start with a verb ("hiring a writer"). */
export const occupation = (v: string) => {
  const words = v.toLowerCase().split(/\s+/);
  return (
    OCCUPATIONS.has(words[words.length - 1] ?? '') &&
    // A possessive is a relation ("became my daily driver", "is my boss"), not a job title.
    !/^(?:my|our|his|her|their|your|hiring|interviewing|recruiting|looking|seeking|searching|becoming|meeting|calling|helping|training|mentoring|replacing|onboarding|dating|seeing|married|engaged)$/.test(
      words[0],
    )
  );
};

/** Words after which a phrase value has ended ("an oat milk cortado these days"). */
export const VALUE_END =
  /\s+(?:because|since|but|for\s+(?:(?:a|an|the\s+(?:past|last)|many|several|a\s+few|some|\d+|two|three|four|five|ten)\s+)?(?:while|years?|months?|weeks?|days?|ages|decades?|long)|and\s+(?:i|my|we)|which|who|that|these\s+days|nowadays|lately|at\s+the\s+moment|for\s+now|right\s+now|for\s+me|to\s+me|now|anymore|any\s+more|again|too|though|instead|from\s+now\s+on)\b.*$/i;

/** The kind of thing a taste names ("favourite food", "usual drink"); a time said beside it is no part of it. */
export const thing = (t: string) =>
  t
    .toLowerCase()
    .replace(/(?:^|\s+)(?:these\s+days|nowadays|lately|right\s+now|at\s+the\s+moment|now)$/, '')
    .replace(/\s+(?:order|choice|pick|drink of choice)$/, '')
    .replace(/s$/, '')
    .trim();

export function valueOf(rule: Rule, raw: string): string | null {
  let v = raw.trim();
  if (rule.kind === 'phrase') v = v.replace(VALUE_END, '');
  v = v
    .replace(/[’]/g, "'")
    .replace(/^(?:(?:not|no longer|never|really|just)\s+)*(?:a|an|the)\s+/i, '')
    .replace(/[\s.'-]+$/, '')
    .toLowerCase()
    .replace(/[-_/]+/g, ' ')
    .replace(/\s+/g, ' ');
  if (rule.kind === 'fixed') v = rule.value!;
  if (rule.fold) v = rule.fold[v] ?? rule.fold[v.replace(/ /g, '-')] ?? v;
  if (!v || v.length > 60) return null;
  if (rule.check && !rule.check(v)) return null;
  return v;
}
