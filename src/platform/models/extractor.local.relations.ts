/**
 * Relationships of the local extractor, read off one sentence at a time: kinship and role
 * nouns ("my sister Jane", "Tom, my husband"), narrow verb patterns between adjacent
 * mentions ("moved to Boston", "works for Acme"), and MENTIONED_WITH co-occurrence as the
 * capped fallback. Precision over recall: a wrong edge misleads graph search more than a
 * missing one.
 */
import type { ExtractedRelationship, PropertyValue } from './extractor.ts';
import { breaksAfter, has, table, type Span, type Tok } from './extractor.local.tokens.ts';

/** Kinship and role nouns: "my sister Jane", "Bob is my manager". `toNamed` false: the named person is the source. */
const KIN = table<{ type: string; toNamed: boolean }>({});
const kin = (type: string, toNamed: boolean, words: string) =>
  words.split(' ').forEach((w) => (KIN[w] = { type, toNamed }));
kin(
  'FAMILY',
  true,
  'mother mom mum father dad parent sister brother sibling son daughter child kid grandmother grandma grandfather ' +
    'grandpa grandparent grandson granddaughter grandchild aunt uncle cousin niece nephew stepmom stepdad stepson ' +
    'stepdaughter',
);
kin('FRIEND', true, 'friend buddy pal bestie bff roommate');
kin('MARRIED_TO', true, 'wife husband spouse');
kin('PARTNER', true, 'partner boyfriend girlfriend fiance fiancee fiancé fiancée');
kin('COLLEAGUE', true, 'colleague coworker co-worker teammate');
kin('MANAGES', false, 'manager boss supervisor');
kin('MANAGES', true, 'employee assistant');
kin('MENTORS', false, 'mentor coach teacher');
const KIN_MODIFIER =
  '(?:(?:best|close|old|older|younger|little|big|twin|baby|eldest|oldest|youngest|ex|dear|good|great|new) )?';
/** "my [best] friend [is|named] Jane": the words between the possessor and the name. */
const KIN_BEFORE_NAME = new RegExp(`^${KIN_MODIFIER}(\\S+)(?: (?:is|was|named|called))?$`);
/** "Jane, my [best] friend": the words right after the possessor. */
const KIN_AFTER_POSSESSOR = new RegExp(`^${KIN_MODIFIER}(\\S+)`);

/** True for a kinship or role noun ("sister", "boss"): the relation itself, never a topic. */
export const isKinNoun = (word: string) => KIN[word] !== undefined;

/** Words the verb patterns may carry before the verb ("has just moved to", "was recently married to"). */
const AUX =
  '(?:(?:am|is|are|was|were|be|been|has|have|had|just|also|still|now|already|finally|recently|currently|actually|' +
  'really|first|often|usually|always|even|never|did|do|does) )*';
const rule = (type: string, verbs: string, to: string[], from = ['Person']) => ({
  type,
  re: new RegExp(`^${AUX}(?:${verbs})$`),
  to,
  from,
});
const VERB_RULES = [
  rule(
    'WORKS_AT',
    '(?:work|works|worked|working|employed|intern|interned|interning|job)(?: \\w+){0,3} (?:at|for|with)',
    ['Organization', 'Place'],
  ),
  rule('WORKS_AT', '(?:is|was|am|are) \\w+(?: \\w+)? (?:at|for)', ['Organization']),
  rule(
    'LIVES_IN',
    '(?:live|lives|lived|living|reside|resides|resided|moved|move|moving|relocated|settled)(?: back)? (?:in|to|into)',
    ['Place'],
  ),
  rule('FROM', '(?:is|am|are|was|were|come|comes|came) from|grew up in|born in', ['Place']),
  rule('MET', '(?:met|meet|meets|meeting)(?: up)?(?: with)?|bumped into|ran into|hung out with|caught up with', [
    'Person',
  ]),
  rule('MARRIED_TO', 'married|marry|marries|wed|(?:got |get )?(?:engaged|married) to', ['Person']),
  rule(
    'ATTENDED',
    'attended|attending|attend|attends|joined|join|participated in|took part in|signed up for|went to|go to|' +
      'going to|ran|run|running',
    ['Event'],
  ),
  rule(
    'JOINED',
    'joined|join|joins|joining|signed up for|became member of|volunteer at|volunteered at|volunteers at|' +
      'volunteering at',
    ['Organization', 'Topic'],
  ),
  rule(
    'MANAGES',
    'manage|manages|managed|managing|lead|leads|led|supervise|supervises|supervised|runs|ran|oversees|oversaw',
    ['Person', 'Organization', 'Topic', 'Product', 'Event'],
    ['Person', 'Organization'],
  ),
  rule(
    'VISITED',
    'visited|visiting|visits|visit|went(?: back)? to|been to|traveled to|travelled to|flew to|drove to|' +
      'stayed (?:in|at)|toured|returned from|came back from|trip to',
    ['Place', 'Organization', 'Topic'],
  ),
  rule('BOUGHT', 'bought|buy|buys|buying|purchased|ordered|got', ['Product']),
  rule('BOUGHT', 'bought|buy|buys|buying|purchased|ordered', ['Topic']),
  rule('USES', 'use|uses|used|using|switched to|installed|downloaded|tried', ['Product', 'Organization']),
  rule(
    'LAUNCHED',
    'launched|launches|launch|released|releases|unveiled|announced',
    ['Product'],
    ['Organization', 'Person'],
  ),
  rule(
    'LIKES',
    'love|loves|loved|like|likes|liked|enjoy|enjoys|enjoyed|into|passionate about|fan of|obsessed with|interested in',
    ['Topic', 'Event', 'Product', 'Place', 'Organization'],
  ),
];

/** One mention in a sentence's slot sequence: an entity (key null = an unresolved pronoun) or a word. */
type Slot = { ent: { key: string | null; type: string; possessive: boolean; at: number } } | { word: string };

const SELF = new Set(['i', 'me', 'my', 'mine', 'myself']);
const OTHER_PRONOUNS = new Set(
  'you your yours he him his she her hers they them their theirs we us our ours it its'.split(' '),
);
const KEEP_WORDS = new Set(['up', 'back', 'out', 'together', 'into', 'with', 'for', 'to', 'best']);

/** Relationships collected over a memory, deduplicated, co-occurrence capped. */
export class Relations {
  private readonly items: ExtractedRelationship[] = [];
  private readonly linked = new Set<string>();
  private cooccurrences = 0;
  constructor(private readonly maxCooccurrences: number) {}
  /** A typed edge (MENTIONED_WITH goes through `cooccur`); a self-loop is ignored. */
  add(source: string, target: string, type: string, properties?: Record<string, PropertyValue>): void {
    if (source === target) return;
    this.items.push(
      properties && Object.keys(properties).length ? { source, target, type, properties } : { source, target, type },
    );
    this.linked.add(`${source}|${target}`).add(`${target}|${source}`);
  }
  /** A MENTIONED_WITH edge, unless the pair is already linked or the cap is reached. */
  cooccur(a: string, b: string): void {
    if (a === b || this.linked.has(`${a}|${b}`) || this.cooccurrences >= this.maxCooccurrences) return;
    this.cooccurrences++;
    this.add(a, b, 'MENTIONED_WITH');
  }
  /** Every edge added, in order. */
  list = () => this.items;
}

/** Read typed relationships off one sentence, then link what is left by co-occurrence. */
export function relateSentence(toks: Tok[], spans: Span[], speakerKey: string | null, rels: Relations): void {
  const slots: Slot[] = [];
  const byStart = new Map(spans.map((s) => [s.start, s]));
  for (let i = 0; i < toks.length; i++) {
    const s = byStart.get(i);
    const t = toks[i];
    if (s) {
      if (!s.dropped && s.type !== 'Date' && !isVocative(toks, s))
        slots.push({ ent: { key: s.key!, type: s.type, possessive: s.possessive, at: i } });
      i = s.end - 1;
    } else if (SELF.has(t.norm))
      slots.push({ ent: { key: speakerKey, type: 'Person', possessive: t.norm === 'my' || t.norm === 'mine', at: i } });
    else if (OTHER_PRONOUNS.has(t.norm)) slots.push({ ent: { key: null, type: 'Person', possessive: false, at: i } });
    else if (KEEP_WORDS.has(t.norm) || !has(t, 'Determiner', 'Adjective', 'Adverb')) slots.push({ word: t.norm });
  }
  const dates = spans.filter((s) => s.type === 'Date' && !s.dropped);
  const when = dates.length === 1 ? { date: dates[0].name } : undefined;
  const ents = slots.flatMap((s, at) => ('ent' in s ? [{ ...s.ent, slot: at }] : []));
  const wordsBetween = (from: number, to: number) =>
    slots
      .slice(from + 1, to)
      .flatMap((s) => ('word' in s ? [s.word] : []))
      .join(' ');
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
    if (a.possessive && b.type === 'Person' && kinA && KIN[singular(kinA[1])])
      addKin(rels, a.key, b.key, kinA[0].replace(/ (?:is|was|named|called)$/, ''));
    else if (
      b.possessive &&
      a.type === 'Person' &&
      /^(?:is|was|who is|)$/.test(between) &&
      kinB &&
      KIN[singular(kinB[1])]
    ) {
      addKin(rels, b.key, a.key, kinB[0]);
      apposition = { source: a, at: k + 1, skip: kinB[0].length };
    }
    const conj = /^(?:and|but|then|so) (.+)$/.exec(between);
    let source: typeof a = conj && subject ? subject : a;
    let words = conj && subject ? conj[1] : between;
    // "Tom, my husband, works for Acme": the verb after the apposition belongs to Tom.
    if (apposition?.at === k) [source, words] = [apposition.source, between.slice(apposition.skip).trim()];
    const hit = b.key
      ? VERB_RULES.find((r) => r.to.includes(b.type) && r.from.includes(source.type) && r.re.test(words))
      : undefined;
    if (!hit) {
      if (previous && b.key && /^(?:and|or|)$/.test(between) && previous.to.includes(b.type))
        rels.add(previous.source, b.key, previous.type, when);
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
  const pairs = keys.flatMap((x, i) =>
    keys.slice(i + 1).map((y) => ({ a: x.key, b: y.key, gap: Math.abs(x.at - y.at) })),
  );
  for (const p of pairs.sort((x, y) => x.gap - y.gap).slice(0, 4)) rels.cooccur(p.a, p.b);
}

/** "Thanks, Mel!" / "Hey Jon," — an addressed name is mentioned but takes part in nothing said. */
function isVocative(toks: Tok[], s: Span): boolean {
  if (s.type !== 'Person') return false;
  const before = toks[s.start - 1];
  const opens =
    !before ||
    breaksAfter(before) ||
    has(before, 'Expression') ||
    /^(?:hey|hi|hello|thanks|thank|dear|bye|congrats|wow|oh|yeah|yes|sorry)$/.test(before.norm);
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
