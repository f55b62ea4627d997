/**
 * The fact reader's patterns for the rest of life: diet, relationship and partner, tastes, the
 * one thing of a kind one has, age, name, and "switched from X to Y" (facts.ts reads them).
 */
import { COMMUTE_MODES } from './facts.gazetteer.ts';
import { DIETS, PARTNER_NOUNS, SINGLE_POSSESSIONS } from './facts.lexicon.ts';
import { DIET, each, MADE_THE_SWITCH, NAME, NAME_START, PHRASE, r, thing, type Rule } from './facts.patterns.ts';

const PARTNER = `(?:${[...PARTNER_NOUNS].join('|')})`;
/** "Kim and I", opening a clause. */
/** "Leila and Chris …": the second of two others named, the first being the subject. */
const TWO_OTHERS = String.raw`(?<=(?:^|[,;:]\s*)[A-Za-z][\p{L}'’-]+\s+and\s+)${NAME}`;
const NAME_AND_I = String.raw`(?:^|[,;:]\s*)${NAME_START}\s+and\s+I\s+`;

export const LIFE_RULES: Rule[] = [
  // Diet.
  {
    slot: 'diet',
    kind: 'phrase',
    fold: DIETS,
    re: r(
      String.raw`\b(?:am|'m|is|are|went|go|gone|became|become|turned|switched\s+to|changed\s+to|` +
        String.raw`${MADE_THE_SWITCH}(?:\s+eating)?|(?:stick|sticks|sticking|keep|keeps|keeping)\s+to|` +
        String.raw`eat|eating|follow|following|stay|staying|been|be|on)\s+(?:(?:a|an|now|` +
        String.raw`fully|strictly|strict|mostly|completely|totally|officially|back|full|again|on|proud|` +
        String.raw`committed|lifelong|practising|practicing)\s+)*${DIET}\b`,
    ),
  },
  {
    // "my new vegan diet", "my pescatarian lifestyle": one's own diet, whatever the sentence does.
    slot: 'diet',
    kind: 'phrase',
    fold: DIETS,
    possessive: true,
    re: r(
      String.raw`(?<!\b(?:stopped|quit|gave\s+up|giving\s+up|ditched|dropped|abandoned|ended|broke)\s+)` +
        String.raw`\bmy\s+(?:new\s+|current\s+|strict\s+)?${DIET}\s+(?:diet|lifestyle|eating)\b`,
    ),
  },
  {
    slot: 'diet',
    kind: 'phrase',
    negated: true,
    fold: DIETS,
    re: r(
      String.raw`\b(?:stopped|quit|gave\s+up|giving\s+up|no\s+longer|ditched|dropped|abandoned)\s+` +
        String.raw`(?:being\s+|eating\s+)?(?:a\s+|an\s+|my\s+)?${DIET}\b`,
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
    re: r(String.raw`\b(?:broke\s+up|split\s+up|called\s+it\s+off)\b|(?:^|[,;:]\s*)single\s+again\b`),
  },
  {
    // "Niklas's partner is Robin", "Niklas has a new partner, Ines": the possessor's partner.
    slot: 'partner',
    kind: 'name',
    re: r(
      String.raw`(?:(?<=\b\p{L}[\p{L}-]*(?:'s|’s|s')\s+)|\b(?:has|have|got|found)\s+(?:a\s+)?)(?:new\s+)?${PARTNER}` +
        String.raw`(?:'s\s+name\s+is|,|\s+is\s+(?:called|named)|\s+is|\s+named|\s+called)\s+${NAME}`,
    ),
  },
  {
    slot: 'partner',
    kind: 'name',
    possessive: true,
    re: r(String.raw`\bmy\s+(?:new\s+)?${PARTNER}(?:'s\s+name\s+is|,|\s+is|\s+named|\s+called)?\s+${NAME}`),
  },
  {
    slot: 'partner',
    kind: 'name',
    re: r(
      String.raw`\b(?:dating|seeing|seeing\s+someone(?:\s+new)?\s*[:,–-]|married\s+to|engaged\s+to|` +
        String.raw`going\s+out\s+with|in\s+a\s+relationship\s+with|moved\s+in\s+with)\s+${NAME}`,
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
  ...each(
    { slot: 'partner', kind: 'name' },
    String.raw`(?:^|[,;:]\s*)${NAME_START}\s+is\s+(?:now\s+)?my\s+(?:new\s+)?${PARTNER}\b`,
    String.raw`${NAME_AND_I}(?:are|'re|have\s+been|'ve\s+been|got)\s+(?:now\s+|officially\s+|finally\s+)?` +
      String.raw`(?:together|dating|a\s+couple|an\s+item|engaged|married|in\s+a\s+relationship|` +
      String.raw`seeing\s+each\s+other|going\s+out)\b`,
  ),
  // Two others: "Leila and Chris are a couple" is Leila's partner Chris (the first named is the subject).
  {
    slot: 'partner',
    kind: 'name',
    re: r(
      TWO_OTHERS +
        String.raw`\s+(?:are|'re|have\s+been|'ve\s+been|got)\s+` +
        String.raw`(?:now\s+|officially\s+|finally\s+)?(?:together|dating|a\s+couple|an\s+item|engaged|married|` +
        String.raw`in\s+a\s+relationship|seeing\s+each\s+other)\b`,
    ),
  },
  {
    slot: 'partner',
    kind: 'name',
    negated: true,
    re: r(
      TWO_OTHERS +
        String.raw`\s+(?:have\s+|'ve\s+)?(?:separated|split\s+up|` +
        String.raw`broken\s+up|broke\s+up|divorced|called\s+it\s+quits|are\s+no\s+longer\s+together)\b`,
    ),
  },
  ...each(
    { slot: 'partner', kind: 'name', negated: true },
    String.raw`\bover\s+between\s+${NAME}\s+and\s+(?:me|I)\b`,
    String.raw`\b(?:it's|it’s|it\s+is)\s+over\s+with\s+${NAME}`,
    String.raw`${NAME_AND_I}(?:broke\s+up|split(?:\s+up)?|are\s+(?:over|done|no\s+longer\s+together)|` +
      String.raw`called\s+it\s+quits|went\s+our\s+separate\s+ways)\b`,
  ),
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
        // "… is my favourite now": a time word is not the kind of thing ("now" is no taste).
        String.raw`current\s+|all-time\s+)?(?:favou?rite|go-to|usual)\s+(?!(?:now|again|lately|today|these\s+days)\b)` +
        String.raw`(?<t>[\p{L} -]{2,30}?)(?=\s*[,.;!?]|` +
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
  {
    // The same said the other way round: "The Golf is my car", "Helix is my editor now" (not "that").
    slot: (g) => `has:${g.t.toLowerCase()}`,
    kind: 'phrase',
    possessive: true,
    check: (v) => !/^(?:that|this|these|those|it|he|she|they|which|what|who|my|his|her|their|our|your)\b/.test(v),
    re: r(
      String.raw`(?:^|[,;:]\s*)(?:the\s+|a\s+|an\s+)?(?<v>[\p{L}\p{N}][\p{L}\p{N} .+#-]{0,30}?)\s+is\s+(?:now\s+)?` +
        String.raw`my\s+(?:new\s+|current\s+)?(?<t>${[...SINGLE_POSSESSIONS].join('|')})` +
        String.raw`(?=\s*[,.;!?]|\s*$|\s+(?:now|these|since)\b)`,
    ),
  },
  {
    // One thing of a kind put in another's place: "Replaced my old car with the Golf", "traded in my
    // phone for a Pixel", "swapped my editor for Helix". The new one is the kind's value now ("a new
    // one" names none: the meaning may still say the kind changed).
    slot: (g) => `has:${g.t.toLowerCase()}`,
    kind: 'phrase',
    possessive: true,
    check: (v) => !/^(?:one|ones|another|it|that|this|them|something)\b/i.test(v),
    re: r(
      String.raw`\b(?:replaced|replacing|swapped|swapping|traded|trading|exchanged)\s+(?:in\s+)?my\s+` +
        String.raw`(?:old\s+|current\s+|trusty\s+)?(?<t>${[...SINGLE_POSSESSIONS].join('|')})\s+(?:in\s+)?` +
        String.raw`(?:with|for)\s+(?:a\s+|an\s+|the\s+|my\s+)?(?:new\s+)?${PHRASE}`,
    ),
  },
  { slot: 'has:car', kind: 'phrase', re: r(String.raw`\b(?:drive|drives|driving)\s+(?:a|an)\s+${PHRASE}`) },
  {
    slot: 'has:commute',
    kind: 'phrase',
    fold: COMMUTE_MODES,
    re: r(String.raw`\b(?:commute|commutes|commuting|get\s+to\s+work|go\s+to\s+work)\s+by\s+(?<v>[\p{L}][\p{L}-]*)`),
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
    re: r(
      String.raw`\b(?:switched|changed|moved|went)\s+(?:over\s+)?from\s+(?:my\s+(?:usual\s+)?)?` +
        String.raw`(?<v>[\p{L}\p{N}][\p{L}\p{N} .+#-]{0,30}?)\s+to\b`,
    ),
  },
];
