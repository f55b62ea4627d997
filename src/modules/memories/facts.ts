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
import { DIETS, FILLERS, NOT_NOW, OCCUPATIONS, PARTNER_NOUNS, SINGLE_POSSESSIONS } from './facts.lexicon.ts';

export interface Fact {
  /** `self` (or the speaker's name, lower case) or another person ("tom", "my sister"). */
  subject: string;
  /** residence, employer, role, diet, relationship, partner, taste:<thing>, has:<thing>, age, name; `*`: any slot. */
  slot: string;
  value: string;
  negated: boolean;
  /** Read off a verb that takes other things too: the memory's meaning decides (facts.claims.ts). */
  ambiguous?: boolean;
}

/** A name: capitalised words, with the small words of place names between them. */
const NAME =
  String.raw`(?<v>[A-Z][\p{L}\p{N}'’&.-]*(?:\s+(?:(?:de|da|do|del|la|le|of|upon|am|` +
  String.raw`y|on)\s+)?[A-Z0-9][\p{L}\p{N}'’&.-]*)*)`;
/** A lower-case phrase up to the clause's end, cut at a connective (valueOf). */
/** Days and months look like names but are never a place, employer or partner. */
const CALENDAR =
  /^(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|january|february|march|april|may|june|july|august|september|october|november|december|today|tomorrow|tonight)\b/i;
const PHRASE = String.raw`(?<v>[^,.;!?"]{1,60})`;
const DIET = `(?<v>${Object.keys(DIETS).join('|')})`;
const NEG = String.raw`(?:\bnot|n't|\bno longer|\bnever|\bno more)`;
const ORG_NOT_EMPLOYER =
  /\b(?:club|team|league|choir|group|society|association|band|class|course|gym|community|program|programme|meetup|church|army|navy)\b/i;

interface Rule {
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
  /** The verb takes other things than this attribute's values ("moved to Python", "left Google"). */
  ambiguous?: boolean;
}

const r = (s: string) => new RegExp(s, 'gu');
/** An occupation phrase: its last word is one, and it does not start with a verb ("hiring a writer"). */
const occupation = (v: string) => {
  const words = v.toLowerCase().split(/\s+/);
  return (
    OCCUPATIONS.has(words[words.length - 1] ?? '') &&
    !/^(?:hiring|interviewing|recruiting|looking|seeking|searching|becoming|meeting|calling|helping|training|mentoring|replacing|onboarding|dating|seeing|married|engaged)$/.test(
      words[0],
    )
  );
};

const RULES: Rule[] = [
  // Residence.
  {
    slot: 'residence',
    kind: 'name',
    ambiguous: true,
    re: r(String.raw`\b(?:moved|relocated)\s+(?:back\s+|over\s+)?(?:to|into)\s+(?:the\s+)?${NAME}`),
  },
  {
    slot: 'residence',
    kind: 'name',
    re: r(
      String.raw`\b(?:live|lives|living|reside|resides|residing|based|settled|(?:have|'ve|` +
        String.raw`has)\s+lived)\s+(?:back\s+|over\s+|out\s+|here\s+)?(?:in|to|into)\s+(?:(?:a|` +
        String.raw`an|the|my|our)\s+(?:new\s+|bigger\s+|smaller\s+|little\s+)?(?:apartment|` +
        String.raw`flat|house|place|home|condo|studio)\s+(?:\w+\s+)?in\s+)?(?:the\s+)?${NAME}`,
    ),
  },
  {
    slot: 'residence',
    kind: 'name',
    re: r(
      String.raw`\b(?:moved|relocated)\s+(?:in|to|into)\s+(?:a|an|the|my|our)\s+(?:new\s+|` +
        String.raw`bigger\s+|smaller\s+|little\s+)?(?:apartment|flat|house|place|home|condo|` +
        String.raw`studio)\s+(?:\w+\s+)?in\s+(?:the\s+)?${NAME}`,
    ),
  },
  {
    slot: 'residence',
    kind: 'name',
    possessive: true,
    re: r(String.raw`\bmy\s+(?:home|place|apartment|flat|house)\s+is\s+(?:now\s+)?in\s+(?:the\s+)?${NAME}`),
  },
  { slot: 'residence', kind: 'name', re: r(String.raw`\b(?:call|calls)\s+${NAME}\s+home\b`) },
  {
    slot: 'residence',
    kind: 'name',
    negated: true,
    ambiguous: true,
    re: r(String.raw`\b(?:moved|moving)\s+(?:away\s+)?(?:out\s+of|from|away\s+from)\s+(?:the\s+)?${NAME}`),
  },
  { slot: 'residence', kind: 'name', negated: true, ambiguous: true, re: r(String.raw`\bleft\s+${NAME}`) },
  // Employer.
  {
    slot: 'employer',
    kind: 'name',
    re: r(
      String.raw`\b(?:work|works|working|employed|interning|(?:have|'ve|has)\s+(?:been\s+)?work(?:ed|` +
        String.raw`ing))\s+(?:(?:full[- ]time|part[- ]time|remotely|now|currently|there)\s+)?(?:at|` +
        String.raw`for|by)\s+${NAME}`,
    ),
  },
  {
    slot: 'employer',
    kind: 'name',
    re: r(
      String.raw`\b(?:joined|(?:have|has)\s+(?:a\s+)?(?:new\s+)?(?:job|position|role)\s+(?:at|` +
        String.raw`with)|started\s+(?:a\s+new\s+job\s+|work\s+|working\s+)?at|got\s+(?:a\s+|` +
        String.raw`the\s+)?(?:new\s+)?(?:job|position|role|offer)\s+(?:at|with|from)|hired\s+(?:at|` +
        String.raw`by)|accepted\s+(?:a|an|the)\s+(?:new\s+)?(?:job|offer|position|role)\s+(?:at|` +
        String.raw`with|from)|took\s+(?:a|the)\s+(?:new\s+)?(?:job|position|role)\s+(?:at|` +
        String.raw`with)|new\s+job\s+at)\s+${NAME}`,
    ),
  },
  {
    slot: 'employer',
    kind: 'name',
    possessive: true,
    re: r(String.raw`\bmy\s+(?:new\s+|current\s+)?(?:employer|company|workplace)\s+is\s+(?:now\s+)?${NAME}`),
  },
  {
    slot: 'employer',
    kind: 'name',
    negated: true,
    re: r(
      String.raw`\b(?:left|quit|resigned\s+from|(?:was|got|been)\s+(?:laid\s+off|fired|` +
        String.raw`let\s+go)\s+(?:from|by)|stopped\s+working\s+(?:at|for))\s+(?:my\s+(?:job|` +
        String.raw`position|role)\s+at\s+)?${NAME}`,
    ),
  },
  // Role (an occupation's head word ends the phrase); "… at Acme" is read by the employer rules.
  {
    slot: 'role',
    kind: 'phrase',
    check: occupation,
    re: r(
      String.raw`\b(?:am|'m|is|are|became|become|work\s+as|works\s+as|working\s+as|started\s+as|` +
        String.raw`hired\s+as|promoted\s+to|promotion\s+to|new\s+(?:role|job|position)\s+as)\s+(?:now\s+|` +
        String.raw`officially\s+|finally\s+)?(?:a\s+|an\s+|the\s+)?(?<v>(?:[\p{L}-]+\s+){0,3}?[\p{L}-]+)(?=\s+(?:at|` +
        String.raw`for|with|in)\b|\s*[,.;!?]|\s*$|\s+(?:now|these|since|and)\b)`,
    ),
  },
  {
    slot: 'role',
    kind: 'phrase',
    possessive: true,
    check: occupation,
    re: r(
      String.raw`\bmy\s+(?:new\s+|current\s+)?(?:job\s+title|title|role|position|job)\s+is\s+(?:now\s+)?(?:a\s+|` +
        String.raw`an\s+)?(?<v>(?:[\p{L}-]+\s+){0,3}?[\p{L}-]+)(?=\s+(?:at|for|with|in)\b|` +
        String.raw`\s*[,.;!?]|\s*$)`,
    ),
  },
  {
    slot: 'role',
    kind: 'phrase',
    negated: true,
    check: occupation,
    re: r(
      String.raw`\b(?:stopped|quit|gave\s+up)\s+being\s+(?:a\s+|an\s+)?` +
        String.raw`(?<v>(?:[\p{L}-]+\s+){0,2}?[\p{L}-]+)(?=\s*[,.;!?]|` +
        String.raw`\s*$|\s+(?:and|after|because)\b)`,
    ),
  },
  // Diet.
  {
    slot: 'diet',
    kind: 'phrase',
    re: r(
      String.raw`\b(?:am|'m|is|are|went|go|gone|became|become|turned|switched\s+to|changed\s+to|` +
        String.raw`eat|eating|follow|following|stay|staying|been|be|on)\s+(?:(?:a|an|now|` +
        String.raw`fully|strictly|mostly|completely|totally|officially|back|full|again|on)\s+)*${DIET}\b`,
    ),
  },
  {
    slot: 'diet',
    kind: 'phrase',
    negated: true,
    re: r(
      String.raw`\b(?:stopped|quit|gave\s+up|giving\s+up|no\s+longer)\s+(?:being\s+|eating\s+)?(?:a\s+|` +
        String.raw`an\s+)?${DIET}\b`,
    ),
  },
  {
    slot: 'diet',
    kind: 'fixed',
    value: 'omnivore',
    re: r(String.raw`\b(?:(?:started|start|back\s+to)\s+eating|eat|eats|eating)\s+meat\b`),
  },
  {
    slot: 'diet',
    kind: 'fixed',
    value: 'vegetarian',
    re: r(String.raw`\b(?:stopped\s+eating|gave\s+up|quit|cut\s+out)\s+meat\b`),
  },
  // Relationship and partner.
  {
    slot: 'relationship',
    kind: 'phrase',
    re: r(
      String.raw`\b(?:am|'m|are|'re|got|became|is)\s+(?:(?:now|officially|happily|finally|` +
        String.raw`recently|newly|just)\s+)*(?<v>single|married|engaged|divorced|separated|` +
        String.raw`widowed)\b`,
    ),
  },
  {
    slot: 'relationship',
    kind: 'fixed',
    value: 'in a relationship',
    re: r(String.raw`\b(?:am|'m|are|'re|is)\s+(?:now\s+)?in\s+a\s+(?:new\s+|serious\s+)?relationship\b`),
  },
  {
    slot: 'relationship',
    kind: 'fixed',
    value: 'single',
    re: r(String.raw`\b(?:broke\s+up|split\s+up|called\s+it\s+off)\b`),
  },
  {
    slot: 'partner',
    kind: 'name',
    possessive: true,
    re: r(
      String.raw`\bmy\s+(?:new\s+)?(?:${[...PARTNER_NOUNS].join('|')})(?:'s\s+name\s+is|` +
        String.raw`,|\s+is|\s+named|\s+called)?\s+${NAME}`,
    ),
  },
  {
    slot: 'partner',
    kind: 'name',
    re: r(
      String.raw`\b(?:dating|seeing|married\s+to|engaged\s+to|going\s+out\s+with|in\s+a\s+relationship\s+with|` +
        String.raw`moved\s+in\s+with)\s+${NAME}`,
    ),
  },
  {
    slot: 'partner',
    kind: 'name',
    negated: true,
    re: r(
      String.raw`\b(?:broke\s+up\s+with|split\s+(?:up\s+)?(?:from|with)|divorced|dumped|` +
        String.raw`separated\s+from|not\s+(?:with|dating|seeing)|no\s+longer\s+(?:with|dating|` +
        String.raw`seeing))\s+${NAME}`,
    ),
  },
  // Tastes and the one thing of a kind one has.
  {
    slot: (g) => `taste:${thing(g.t)}`,
    kind: 'phrase',
    possessive: true,
    re: r(
      String.raw`\bmy\s+(?:(?:all-time|new|current|absolute|personal)\s+)?(?:favou?rite|` +
        String.raw`usual|regular|go-to|default|preferred)\s+(?<t>[\p{L} -]{2,30}?)\s+(?:is|` +
        String.raw`are|has\s+to\s+be|would\s+be)\s+(?:now\s+|still\s+|definitely\s+|probably\s+)?${PHRASE}`,
    ),
  },
  {
    slot: (g) => `taste:${thing(g.t)}`,
    kind: 'phrase',
    re: r(
      String.raw`(?:^|\b)(?<v>[\p{L}\p{N}][^,.;!?"]{0,40}?)\s+(?:is|are)\s+(?:now\s+|still\s+)?my\s+(?:new\s+|` +
        String.raw`current\s+|all-time\s+)?(?:favou?rite|go-to|usual)\s+(?<t>[\p{L} -]{2,30}?)(?=\s*[,.;!?]|` +
        String.raw`\s*$|\s+(?:now|these|and|because)\b)`,
    ),
  },
  {
    slot: (g) => `has:${g.t.toLowerCase()}`,
    kind: 'phrase',
    possessive: true,
    re: r(
      String.raw`\bmy\s+(?:new\s+|current\s+)?(?<t>${[...SINGLE_POSSESSIONS].join('|')})\s+is\s+(?:now\s+)?(?:a\s+|` +
        String.raw`an\s+|the\s+)?${PHRASE}`,
    ),
  },
  { slot: 'has:car', kind: 'phrase', re: r(String.raw`\b(?:drive|drives|driving)\s+(?:a|an)\s+${PHRASE}`) },
  {
    slot: 'has:commute',
    kind: 'phrase',
    re: r(String.raw`\b(?:commute|commutes|commuting|get\s+to\s+work|go\s+to\s+work)\s+by\s+(?<v>[\p{L}]+)`),
  },
  {
    slot: 'age',
    kind: 'phrase',
    re: r(String.raw`\b(?:turned|'m|am|is)\s+(?<v>\d{1,3})(?=\s+(?:years?\s+old|today|this)|\s*[,.;!?]|\s*$)`),
    check: (v) => /^\d+$/.test(v),
  },
  { slot: 'name', kind: 'name', possessive: true, re: r(String.raw`\bmy\s+name\s+is\s+${NAME}`) },
  // "switched from X to Y": X is no longer so, whatever its attribute.
  {
    slot: '*',
    kind: 'phrase',
    negated: true,
    re: r(String.raw`\b(?:switched|changed|moved|went)\s+from\s+(?<v>[\p{L}\p{N}][\p{L}\p{N} .+#-]{0,30}?)\s+to\b`),
  },
];

/** Words after which a phrase value has ended ("an oat milk cortado these days"). */
const VALUE_END =
  /\s+(?:because|since|but|and\s+(?:i|my|we)|which|who|that|these\s+days|nowadays|lately|at\s+the\s+moment|for\s+now|right\s+now|now|anymore|any\s+more|again|too|though|instead|from\s+now\s+on)\b.*$/i;

const thing = (t: string) =>
  t
    .toLowerCase()
    .replace(/\s+(?:order|choice|pick|drink of choice)$/, '')
    .replace(/s$/, '')
    .trim();

function valueOf(rule: Rule, raw: string): string | null {
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
  if (rule.slot === 'diet') v = DIETS[v] ?? v;
  if (!v || v.length > 60) return null;
  if (rule.check && !rule.check(v)) return null;
  return v;
}

/** The subject of a verb from the words before it in its clause; null when it is a pronoun we cannot resolve. */
function subjectOf(pre: string, self: string, selfNames: Set<string>): string | null {
  const tail = pre.split(/[,;:]/).pop() ?? '';
  const tokens = (tail.match(/[\p{L}\p{N}'’-]+/gu) ?? []).map((w) => w.replace(/’/g, "'"));
  for (let i = tokens.length - 1; i >= 0; i--) {
    const found = subjectWord(tokens, i, self, selfNames);
    if (found !== undefined) return found;
    // "I left Google and joined Stripe": the second verb shares the first one's subject.
    if (/^(?:and|then|&)$/i.test(tokens[i])) {
      for (let j = 0; j < i; j++) {
        const first = subjectWord(tokens, j, self, selfNames);
        if (first !== undefined) return first;
      }
      return self;
    }
  }
  return self; // "Moved to Porto last week.": a diary's clause without a subject is the writer's
}

/** tokens[i] as a subject: self, another person, null (a pronoun we cannot resolve) or undefined (not one). */
function subjectWord(tokens: string[], i: number, self: string, selfNames: Set<string>): string | null | undefined {
  const w = tokens[i];
  const lw = w.toLowerCase();
  if (/^(?:i|i'm|i've|i'd|i'll|we|we're|we've|me|myself)$/.test(lw)) return self;
  if (/^(?:he|she|they|he's|she's|they're|it|you|you're|someone|everyone|people)$/.test(lw)) return null;
  if (FILLERS.has(lw) || /^\d+$/.test(lw)) return undefined;
  if (/^\p{Lu}/u.test(w)) {
    // A name: its first word, folded; the user's own name is the user.
    let j = i;
    while (j > 0 && /^\p{Lu}/u.test(tokens[j - 1]) && !FILLERS.has(tokens[j - 1].toLowerCase())) j--;
    const first = tokens[j].toLowerCase().replace(/'s$/, '');
    return selfNames.has(first) ? self : first;
  }
  // "my sister", "the team", "her husband": someone else. A bare word ("got", "finally") is not a subject.
  const det = i > 0 ? tokens[i - 1].toLowerCase() : '';
  if (det === 'my' || det === 'our') return OTHERS.test(lw) || PARTNER_NOUNS.has(lw) ? `my ${lw}` : self;
  if (/^(?:his|her|their|the|a|an|your)$/.test(det)) return null;
  return undefined;
}

/** A speaker's line ("Caroline said, "…"", "Caroline: …"): the speaker is its first person. */
function speakerOf(content: string): { speaker: string | null; text: string } {
  const said =
    /^\s*([A-Z][\p{L}'-]+(?:\s+[A-Z][\p{L}'-]+)?)\s+(?:said|says|wrote|asked)[,:]?\s*["“]?([\s\S]*?)["”]?\s*$/u.exec(
      content,
    );
  if (said) return { speaker: said[1].toLowerCase(), text: said[2] };
  const colon = /^\s*([A-Z][\p{L}'-]+(?:\s+[A-Z][\p{L}'-]+)?):\s+([\s\S]*)$/u.exec(content);
  if (colon) return { speaker: colon[1].toLowerCase(), text: colon[2] };
  return { speaker: null, text: content };
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
  for (const clause of text.split(/(?<=[.!?;])\s+|\n+|\s+but\s+/)) {
    if (/\?\s*$/.test(clause)) continue; // a question states nothing
    // The clause's first letter folded, so "Moved to Porto" reads like "moved to Porto"; names
    // are read from the clause as written.
    const folded = clause.replace(/^(\s*)(\p{Lu})(?=\p{Ll})/u, (_, s: string, c: string) => s + c.toLowerCase());
    for (const rule of RULES) {
      for (const m of folded.matchAll(rule.re)) {
        const start = m.index!;
        const pre = clause.slice(0, start);
        const groups = (m.groups ?? {}) as Record<string, string | undefined>;
        const head = (pre + m[0].slice(0, m[0].length - (groups.v?.length ?? 0))).toLowerCase();
        if (NOT_NOW.test(head)) continue;
        let v = groups.v ?? '';
        if (rule.kind === 'name') v = clause.slice(start).slice(m[0].length - v.length, m[0].length);
        if (rule.kind === 'name' && (/^(?:I|My|The|A|An)$/.test(v) || CALENDAR.test(v))) continue;
        if (rule.kind === 'name' && rule.slot === 'employer' && ORG_NOT_EMPLOYER.test(v)) continue;
        const value = valueOf(rule, v);
        if (!value) continue;
        const subject = subjectOf(pre, self, selfNames);
        if (!subject) continue;
        const lastWords = pre.split(/\s+/).slice(-4).join(' ').toLowerCase();
        const flipped =
          !rule.negated && new RegExp(`${NEG}\\b`).test(lastWords + ' ' + m[0].slice(0, 12).toLowerCase());
        const after = folded.slice(start + m[0].length, start + m[0].length + 16).toLowerCase();
        const negated =
          !!rule.negated || flipped || (!rule.negated && /^\s*(?:anymore|any more|no more)\b/.test(after));
        const slot = typeof rule.slot === 'function' ? rule.slot(groups as Record<string, string>) : rule.slot;
        const fact: Fact = { subject, slot, value, negated, ...(rule.ambiguous ? { ambiguous: true } : {}) };
        out.set(`${subject}|${slot}|${value}|${negated}`, fact);
      }
    }
  }
  return [...out.values()];
}

/** Kin, friends and others a possessive names ("my sister"): someone else, unlike "my car" or "my girlfriend". */
const OTHERS =
  /^(?:ex|sister|brother|mum|mom|mother|dad|father|parents?|son|daughter|kids?|children|child|friend|friends|colleague|coworker|co-worker|roommate|flatmate|neighbou?r|manager|boss|cousin|aunt|uncle|niece|nephew|grandma|grandpa|grandmother|grandfather|team|teammate|classmate|landlord|in-laws?|family|sibling|siblings)$/i;

/**
 * Whom a short memory is about, from its first words: `self` (I, we, my car, a diary's "Moved to
 * Porto"), the owner by name, someone else ("my sister", "Tom"), or null (he, she, they: we
 * cannot tell who).
 */
export function sentenceSubject(content: string, selfNames: string[] = []): string | null {
  const { speaker, text } = speakerOf(content);
  const self = speaker ?? 'self';
  const names = new Set(selfNames.map((n) => n.toLowerCase()));
  if (speaker) names.add(speaker.split(/\s+/)[0]);
  // After a leading phrase set off by a comma ("These days, …", "Since March, …") when there is one.
  const lead = /^([^,]{0,30}),\s+(.*)$/s.exec(text.trim());
  const body =
    lead && lead[1].split(/\s+/).every((w) => FILLERS.has(w.toLowerCase()) || /^\d+$/.test(w)) ? lead[2] : text;
  const tokens = (body.match(/[\p{L}\p{N}'’-]+/gu) ?? []).map((w) => w.replace(/’/g, "'"));
  // "Radiohead became my favourite band", "Tacos are my go-to": the writer's taste, whatever comes first.
  if (/\b(?:is|are|became|has become|remains|stays)\s+(?:now\s+|still\s+)?my\b/i.test(body)) return self;
  for (let i = 0; i < tokens.length && i < 6; i++) {
    const w = tokens[i];
    const lw = w.toLowerCase();
    if (/^(?:i|i'm|i've|i'd|i'll|we|we're|we've|our|ours|me|myself)$/.test(lw)) return self;
    if (/^(?:he|she|they|he's|she's|they're|his|her|their|you|your|it|it's)$/.test(lw)) return null;
    if (lw === 'my') {
      // "my sister('s)", "my partner commutes": someone else; "my car", "my favourite food": the writer's.
      let j = i + 1;
      while (
        /^(?:best|close|old|older|younger|little|big|twin|baby|eldest|oldest|youngest|dear|good|great)$/i.test(
          tokens[j] ?? '',
        )
      )
        j++;
      const next = (tokens[j] ?? '').toLowerCase().replace(/'s$/, '');
      return OTHERS.test(next) || PARTNER_NOUNS.has(next) ? `my ${next}` : self;
    }
    if (FILLERS.has(lw) || /^\d+$/.test(lw)) continue;
    if (/^\p{Lu}/u.test(w) && i + 1 < tokens.length) {
      const first = lw.replace(/'s$/, '');
      // "Nadia and I …": the writer is among the subjects.
      if (/^and$/i.test(tokens[i + 1]) && /^(?:i|me)$/i.test(tokens[i + 2] ?? '')) return self;
      if (names.has(first)) return self;
      // A capitalised first word that is a name, not a sentence's first word ("Bought a Kia."):
      // a name is followed by a verb or a possessive; a verb-first diary line is the writer's.
      if (
        /'s$/.test(lw) ||
        /^(?:is|was|has|got|now|just|and|works|lives|moved|joined|drives|uses|prefers|loves|likes|started|became|switched|is|eats|drinks|codes|went|takes|rides|bought|left|quit)$/i.test(
          tokens[i + 1],
        )
      )
        return first;
      return self;
    }
    return self; // "Moved to Porto", "Bought a Kia": a diary's line is its writer's
  }
  return self;
}

/** Past states ("I lived in Rome", "when I was a kid") and plans are not what is true now. */
const PAST_STATE =
  /\b(?:lived|worked|was|were|had|used to|grew up|as a kid|as a child|when i was|years ago|back then|back in (?:the )?\d{4}s?|(?:in|at) (?:high school|college|university|uni|school)|learned|learnt|studied)\b/i;
/** Words that make a past verb a change whose result holds now ("moved", "became", "now"). */
const CHANGE =
  /\b(?:now|these days|currently|nowadays|lately|since|anymore|any more|no longer|just|recently|switched|moved|became|got|bought|joined|started|promoted|finally|again|new)\b/i;
/** Many values at once, or being somewhere for a while: not the one current value. */
const NOT_SINGLE =
  /\b(?:visit|visited|visiting|trip|travel|travelled|traveled|vacation|holiday|concert|festival|both|either|sometimes|occasionally|once|tried|trying|tasted|test[- ]drove|test[- ]drive|shares|stocks?|hiring|interviewing|interviewed|recruiting)\b/i;
/** An event about a topic ("read a post about Java", "watched a talk on Vim"): not the writer's attribute. */
const ABOUT =
  /\b(?:read|reading|watched|watching|heard|saw|listened to|wrote|posted|saw a|attended)\b.*\b(?:about|on)\b/i;

/**
 * Whether a memory is a short statement of how things are now — what may hold one current
 * value of an attribute: not a question, wish, plan, past state, trip or list of several.
 */
export function statesCurrent(content: string, opts: { short?: boolean } = { short: true }): boolean {
  const { text } = speakerOf(content);
  const t = text.trim();
  if ((opts.short && t.length > 240) || /\?\s*$/.test(t)) return false;
  const all = t.toLowerCase();
  if (NOT_SINGLE.test(all) || ABOUT.test(all)) return false;
  // "I used to love X, but now it's Y": what follows the last "but" is how things are now.
  const lower = all.split(/\bbut\b|;/).pop()!;
  if (NOT_NOW.test(lower)) return false;
  if (PAST_STATE.test(lower) && !CHANGE.test(lower)) return false;
  return true;
}

/**
 * Whom a question asks about: "Where does Maya live?" (the owner, by name), "What do I drive?"
 * (self), "Where does my sister live?" (someone else); null when it cannot tell ("Where does she
 * live?").
 */
export function questionSubject(query: string, selfNames: string[] = []): string | null {
  const names = new Set(selfNames.map((n) => n.toLowerCase()));
  const tokens = (query.match(/[\p{L}\p{N}'’-]+/gu) ?? []).map((w) => w.replace(/’/g, "'"));
  for (let i = 0; i < tokens.length; i++) {
    const w = tokens[i];
    const lw = w.toLowerCase();
    if (/^(?:i|i'm|i've|me|my|mine|we|our|us)$/.test(lw)) {
      if (lw !== 'my' && lw !== 'our') return 'self';
      const next = (tokens[i + 1] ?? '').toLowerCase().replace(/'s$/, '');
      return OTHERS.test(next) ? `my ${next}` : 'self';
    }
    if (/^(?:he|she|they|him|her|them|his|their)$/.test(lw)) return null;
    if (i > 0 && /^\p{Lu}/u.test(w)) {
      const first = lw.replace(/'s$/, '');
      return names.has(first) ? 'self' : first;
    }
  }
  return null;
}

/** A question about an earlier time without as_of ("What did I drive in 2021?"): not about now. */
export const ASKS_PAST =
  /\b(?:was|were|did|used to|before|previously|formerly|back in|in (?:19|20)\d\d|last year|ago)\b/i;
