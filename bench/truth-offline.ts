/**
 * The fact-update benchmark's detector replayed offline (issue #22): the memories and questions of
 * bench/lib/fact-chains.ts go through the product's own claim reader and attribute classifier
 * (facts.claims.ts, facts.classify.ts) with the configured embedders, and supersession is replayed
 * per user in time order with truth.ts's `retires` — no server, no store, seconds instead of
 * minutes. What it prints, per template set:
 *   statement attribute   share of chain steps whose claims name the chain's attribute for the user
 *   question attribute    share of current-value questions classified to the chain's attribute,
 *                         and with a subject (whom it asks about)
 *   fact answer           share of current-value questions whose replayed answer (the newest
 *                         statement of that attribute and subject not retired) is the chain's end
 *   false / missed        supersession as bench:updates counts it
 * It is a development aid: `bench:updates` through HTTP is the measurement. Only dev and dev2 (a
 * third set of wordings, fact-kinds-dev2.ts, generated apart with the next seed) should steer a
 * change — dev alone is saturated, having been built on; TRUTH_SETS=dev (the default) prints
 * nothing of the heldout one.
 *
 *   npx tsx bench/truth-offline.ts            TRUTH_SETS=dev,dev2,heldout npx tsx bench/truth-offline.ts
 *   TRUTH_MISSES=20 …                          prints that many dev and dev2 misses of each table
 *   TRUTH_KINDS=1 …                            the statement attribute per kind of chain too
 *   TRUTH_WHY=1 …                              fact-answer misses by their first cause
 */
import { loadConfig } from '../src/config.ts';
import { embeddersFromConfig } from '../src/platform/models/index.ts';
import { questionSlot, questionSubject, selfNamesOf, slotExamples } from '../src/modules/memories/index.ts';
import { claimsOf, looseClaimsOf } from '../src/modules/memories/facts.claims.ts';
import { SLOT, slotOf } from '../src/modules/memories/facts.classify.ts';
import { statesCurrent } from '../src/modules/memories/facts.ts';
import { retires } from '../src/modules/memories/truth.detect.ts';
import {
  introducedAsOther,
  mayBeOwner,
  NAME_SUBJECT,
  ownerName,
  ownSubject,
  sameSubjects,
} from '../src/modules/memories/facts.owner.ts';
import type { Fact } from '../src/modules/memories/facts.ts';
import { factChains, type FactData } from './lib/fact-chains.ts';

const SETS = (process.env.TRUTH_SETS || 'dev').split(',');
const MISSES = Number(process.env.TRUTH_MISSES || 0);
/** TRUTH_KINDS=1: the statement attribute per kind of chain (city, employer, …) as well. */
const KINDS = process.env.TRUTH_KINDS === '1';
/** TRUTH_OWNER=0: without the owner's name (facts.owner.ts), to compare. */
const OWNER = process.env.TRUTH_OWNER !== '0';
/** TRUTH_WHY=1: fact-answer misses counted by their first cause. */
const WHY = process.env.TRUTH_WHY === '1';
/**
 * TRUTH_LOOSE=0: without loose statements (facts.claims.ts looseClaimsOf). With them, the search's
 * page is taken to be the user's 10 memories nearest the question by the mixed similarity
 * (bench:updates asks for 10).
 */
const LOOSE = process.env.TRUTH_LOOSE !== '0';
const PAGE = 10;
const ATTRIBUTE: Record<string, string> = {
  city: 'residence',
  partner: 'partner',
  diet: 'diet',
  commute: 'commute',
  editor: 'tool:editor',
  car: 'vehicle',
  food: 'taste:food',
  coffee: 'taste:drink',
  band: 'taste:music',
  employer: 'employer',
  role: 'role',
  language: 'tool:language',
};

const shape = {
  chains: Number(process.env.UPDATES_CHAINS || 320),
  users: Number(process.env.UPDATES_USERS || 27),
  seed: Number(process.env.UPDATES_SEED || 22),
};
// dev2 (fact-kinds-dev2.ts) is generated apart, its users after the others' (no user holds two
// chains of one kind).
const data = [
  ...(SETS.some((s) => s !== 'dev2') ? [factChains(shape)] : []),
  ...(SETS.includes('dev2') ? [factChains({ ...shape, seed: shape.seed + 1, wordings: 'dev2' })] : []),
].reduce(merged);

function merged(a: FactData, b: FactData): FactData {
  const users = a.users.length;
  const chains = a.chains.length;
  const key = (k: string) => k.replace(/^u(\d+)/, (_, u: string) => `u${Number(u) + users}`);
  return {
    users: [...a.users, ...b.users],
    chains: [
      ...a.chains,
      ...b.chains.map((c) => ({ ...c, id: c.id + chains, user: c.user + users, steps: c.steps.map(key) })),
    ],
    memories: [
      ...a.memories,
      ...b.memories.map((m) => ({
        ...m,
        key: key(m.key),
        user: m.user + users,
        chain: m.chain + chains,
        supersededBy: m.supersededBy.map(key),
      })),
    ],
    questions: [
      ...a.questions,
      ...b.questions.map((q) => ({ ...q, user: q.user + users, chain: q.chain + chains, expected: key(q.expected) })),
    ],
  };
}
const config = loadConfig({ ...process.env, LOG_LEVEL: 'warn' });
const configured = embeddersFromConfig(config);
const { primary, secondary } = configured.index;
const examples = await slotExamples(primary, secondary ?? null, config.MODELS_CACHE_DIR)();
if (process.env.TRUTH_SLOT) Object.assign(SLOT, JSON.parse(process.env.TRUTH_SLOT));
// bench:updates names its users `updates-A-<n>`: the writer's names come from that external id.
const external = (u: number) => `updates-A-${u}`;

async function vectorsOf(texts: string[]) {
  const [p, s] = await Promise.all([primary.embed(texts), secondary ? secondary.embed(texts) : null]);
  return texts.map((_, i) => ({
    primary: { model: primary.id, vector: p[i] },
    secondary: s && secondary ? { model: secondary.id, vector: s[i] } : null,
  }));
}

const memVectors = await vectorsOf(data.memories.map((m) => m.content));
const claims = new Map<string, Fact[]>();
/** Loose statements (truth.ts keeps them apart: they retire nothing and answer from the page only). */
const looseClaims = new Map<string, Fact[]>();
data.memories.forEach((m, i) => {
  const slot = slotOf(memVectors[i], examples);
  const selfNames = selfNamesOf(external(m.user));
  claims.set(m.key, claimsOf(m.content, { selfNames, slot }));
  if (LOOSE && !claims.get(m.key)!.length)
    looseClaims.set(m.key, looseClaimsOf(m.content, memVectors[i], examples, selfNames));
});

// Supersession replayed per user in time order, as truth.ts settles it: a memory retires every
// earlier current one it retires(), the owner's name (facts.owner.ts) read from the claims so far.
const retiredBy = new Map<string, string>();
const owners = new Map<number, string | null>();
const nameSubjects = (ms: typeof data.memories) => {
  const values = new Set(ms.flatMap((m) => claims.get(m.key)!.map((c) => c.value)));
  // Introduced as someone else in a memory stating something of them (owner.store.ts).
  for (const m of ms)
    for (const c of claims.get(m.key)!) if (introducedAsOther(m.content, c.subject)) values.add(c.subject);
  const counts = new Map<string, number>();
  for (const m of ms)
    for (const subject of new Set(claims.get(m.key)!.map((c) => c.subject)))
      if (subject !== 'self' && NAME_SUBJECT.test(subject)) counts.set(subject, (counts.get(subject) ?? 0) + 1);
  return [...counts].map(([name, memories]) => ({ name, memories, asValue: values.has(name) }));
};
for (let u = 0; u < data.users.length; u++) {
  const ms = data.memories.filter((m) => m.user === u).sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  for (let j = 0; j < ms.length; j++) {
    const owner = OWNER ? ownerName(nameSubjects(ms.slice(0, j + 1))) : null;
    const own = (fs: Fact[]) => fs.map((f) => ({ ...f, subject: ownSubject(f.subject, owner) }));
    const newer = own(claims.get(ms[j].key)!);
    if (!newer.length) continue;
    for (let k = 0; k < j; k++) {
      if (retiredBy.has(ms[k].key)) continue;
      const older = own(claims.get(ms[k].key)!);
      if (older.length && retires(newer, older)) retiredBy.set(ms[k].key, ms[j].key);
    }
  }
  owners.set(u, OWNER ? ownerName(nameSubjects(ms)) : null);
}

const tallies = new Map<string, Map<string, { hits: number; n: number }>>();
const misses = new Map<string, string[]>();
const count = (metric: string, set: string, hit: boolean, miss?: () => string) => {
  const t = (tallies.get(metric) ?? tallies.set(metric, new Map()).get(metric)!) as Map<
    string,
    { hits: number; n: number }
  >;
  const x = t.get(set) ?? { hits: 0, n: 0 };
  x.n++;
  if (hit) x.hits++;
  t.set(set, x);
  // A false supersession is listed when it happens (its "hit" is the failure).
  if ((metric === 'false supersession' ? hit : !hit) && miss && (set === 'dev' || set === 'dev2'))
    (misses.get(metric) ?? misses.set(metric, []).get(metric)!).push(miss());
};

const byKey = new Map(data.memories.map((m) => [m.key, m]));
for (const chain of data.chains) {
  const want = ATTRIBUTE[chain.kind];
  for (const key of chain.steps) {
    const m = byKey.get(key)!;
    const cs = claims.get(key)!;
    const named = cs.some((c) => (c.subject === 'self' || c.subject === owners.get(chain.user)) && c.slot === want);
    count('statement attribute', chain.set, named, () => `${chain.kind}: ${m.content}  →  ${JSON.stringify(cs)}`);
    if (KINDS) count(`  ${chain.kind}`, chain.set, named);
  }
}
for (const m of data.memories) {
  if (m.shouldBeCurrent)
    count(
      'false supersession',
      m.set,
      retiredBy.has(m.key),
      () => `${m.content} ← ${byKey.get(retiredBy.get(m.key)!)?.content}`,
    );
  else
    count(
      'missed supersession',
      m.set,
      !retiredBy.has(m.key) || !m.supersededBy.includes(retiredBy.get(m.key)!),
      () => m.content,
    );
}

const current = data.questions.filter((q) => q.kind === 'current');
const qVectors = await vectorsOf(current.map((q) => q.query));
current.forEach((q, i) => {
  const chain = data.chains[q.chain];
  const slot = questionSlot(q.query, qVectors[i], examples);
  const subject = slot ? questionSubject(q.query, selfNamesOf(external(q.user))) : null;
  count('question attribute', q.set, slot === ATTRIBUTE[chain.kind], () => `${chain.kind}: ${q.query} → ${slot}`);
  const owner = owners.get(q.user) ?? null;
  const mine = data.memories.filter((m) => m.user === q.user);
  const unknown = !!subject && !mine.some((m) => new RegExp(`\\b${subject}\\b`, 'i').test(m.content));
  count(
    'question subject',
    q.set,
    subject === 'self' || (!!owner && subject === owner) || unknown,
    () => `${q.query} → ${subject}`,
  );
  // The replayed fact answer: the newest memory of the user claiming (subject, slot), not retired;
  // a name that may be the owner's (facts.owner.ts mayBeOwner) falls back to the owner's statements.
  const names = nameSubjects(mine);
  const fallback = subject && !owner && !unknown && mayBeOwner(subject, names) ? ['self', subject] : null;
  const statedBy = (who: string[]) =>
    mine.filter((m) => claims.get(m.key)!.some((c) => who.includes(c.subject) && c.slot === slot));
  let stating = statedBy(subject ? sameSubjects(subject, owner, unknown) : []);
  if (!stating.length && fallback && OWNER) stating = statedBy(fallback);
  const newest = (ms: typeof mine) =>
    ms.filter((m) => !retiredBy.has(m.key)).sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  const stated = newest(stating);
  // A loose statement newer than the answer goes first when it is on the page (truth-stage.ts).
  const who = subject ? sameSubjects(subject, owner, unknown) : [];
  const page = new Set(
    [...mine]
      .sort((a, b) => similarity(qVectors[i], b) - similarity(qVectors[i], a))
      .slice(0, PAGE)
      .map((m) => m.key),
  );
  const newer = newest(
    mine.filter(
      (m) =>
        page.has(m.key) &&
        (!stated[0] || m.createdAt > stated[0].createdAt) &&
        (looseClaims.get(m.key) ?? []).some((c) => c.slot === slot && who.includes(ownSubject(c.subject, owner))),
    ),
  );
  if (newer.length) stated.unshift(newer[0]);
  const hit = stated[0]?.key === q.expected;
  count(
    'fact answer',
    q.set,
    hit,
    () => `${q.query} → ${stated[0]?.content ?? '(none)'} | want ${byKey.get(q.expected)!.content}`,
  );
  if (WHY && !hit) count(`  miss: ${whyMissed(q, slot, stated[0]?.key)}`, q.set, true);
});

/** The mixed similarity of a question and a memory (0.7 USE lite + 0.3 GloVe SIF, as the classifier's). */
function similarity(q: (typeof memVectors)[number], m: (typeof data.memories)[number]): number {
  const v = memVectors[data.memories.indexOf(m)];
  const cos = (a: number[], b: number[]) => {
    let ab = 0;
    let aa = 0;
    let bb = 0;
    for (let j = 0; j < a.length; j++) [ab, aa, bb] = [ab + a[j] * b[j], aa + a[j] * a[j], bb + b[j] * b[j]];
    return ab / Math.sqrt(aa * bb || 1);
  };
  const second = q.secondary && v.secondary ? cos(q.secondary.vector, v.secondary.vector) : 0;
  return 0.7 * cos(q.primary.vector, v.primary.vector) + 0.3 * second;
}

/** Why a current-value question's replayed answer missed: the first cause on the way. */
function whyMissed(q: (typeof current)[number], slot: string | null, got: string | undefined): string {
  const want = ATTRIBUTE[data.chains[q.chain].kind];
  if (slot !== want) return slot ? 'question: other attribute' : 'question: no attribute';
  const m = byKey.get(q.expected)!;
  const i = data.memories.indexOf(m);
  const cs = claims.get(m.key)!;
  if (retiredBy.has(m.key)) return 'answer retired';
  if (!cs.some((c) => c.slot === want)) {
    if (!statesCurrent(m.content)) return 'statement: not a current state';
    const meaning = slotOf(memVectors[i], examples);
    return meaning
      ? `statement: meaning ${meaning === want ? 'right, dropped' : 'another attribute'}`
      : 'statement: no attribute';
  }
  if (!cs.some((c) => c.slot === want && (c.subject === 'self' || c.subject === owners.get(q.user))))
    return 'statement: other subject';
  return got ? 'a newer or other memory answers' : 'no answer';
}

const sets = SETS;
console.log(`${'metric (%)'.padEnd(24)}${sets.map((s) => s.padStart(12)).join('')}`);
for (const [metric, t] of tallies)
  console.log(
    `${metric.padEnd(24)}${sets
      .map((s) => {
        const x = t.get(s);
        if (metric.startsWith('  miss:')) return String(x?.n ?? 0).padStart(12);
        return (x && x.n ? `${((100 * x.hits) / x.n).toFixed(1)} /${x.n}` : '-').padStart(12);
      })
      .join('')}`,
  );
if (MISSES)
  for (const [metric, xs] of misses) {
    console.log(`\n${metric}: ${xs.length} dev/dev2 misses`);
    for (const x of xs.slice(0, MISSES)) console.log(`  ${x}`);
  }

await configured.close();
process.exit(0);
