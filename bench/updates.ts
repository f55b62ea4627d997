/**
 * Memories that stay true (issue #22): does a memory that updates a fact of a user retire the older
 * one, without retiring memories that only look like updates? Fact chains (bench/lib/fact-chains.ts:
 * one attribute of a user stated, then changed 1-4 times, months apart, amid distractors such as
 * "My sister lives in Oslo" or "I used to live in Porto as a kid") are ingested twice into one real
 * server, each user's memories in createdAt order through the batch endpoint:
 *   A  supersession on (default bodies);   B  every item with "supersede": "off".
 * Then, per template set (dev wordings, heldout wordings, all):
 *   current-first   share of current-value questions whose top-1 search result is the chain's last
 *                   memory (A, A with include_superseded:false, B)
 *   as_of           share of past-date questions whose top-1 result, searched with as_of, is the
 *                   memory valid at that date (A, B)
 *   false supersession  (A) share of memories that should stay current (last steps, distractors) that
 *                   came back with superseded_by set; also by role (chain end, attribute, everyday)
 *   missed / wrong target  (A) replaced steps with superseded_by null / naming another memory
 * Targets: current-first ≥ 90 % with supersession on, false supersession ≤ 2 %.
 *
 *   npm run bench:updates
 *   UPDATES_STORE=postgres npm run bench:updates     (throwaway database on BENCH_DATABASE_URL's server)
 *
 * Env: UPDATES_CHAINS (320), UPDATES_USERS (27: each user holds at most one chain per attribute kind,
 * and there are 12 kinds), UPDATES_SEED (22), UPDATES_CONCURRENCY (requests in flight, 4),
 * UPDATES_WORDINGS=dev2 (the third set of wordings instead, as truth-offline generates it).
 */
import type { AddMemory } from './lib/client.ts';
import { factChains, type FactMemory, type FactQuestion } from './lib/fact-chains.ts';
import { TEMPLATE_SETS } from './lib/fact-template.ts';
import { mapConcurrent } from './lib/pool.ts';
import { withFreshServer } from './lib/server.ts';
import { updatesApi, type Lifecycle } from './lib/updates-api.ts';

const CHAINS = Number(process.env.UPDATES_CHAINS || 320);
const USERS = Number(process.env.UPDATES_USERS || 27);
const SEED = Number(process.env.UPDATES_SEED || 22);
const CONCURRENCY = Number(process.env.UPDATES_CONCURRENCY || 4);
const STORE = process.env.UPDATES_STORE || 'pglite';
if (STORE !== 'pglite' && STORE !== 'postgres') throw new Error(`UPDATES_STORE: pglite or postgres, not ${STORE}`);
const PG_BASE =
  STORE === 'postgres' ? process.env.BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test' : undefined;

/** UPDATES_WORDINGS=dev2: every chain in the third set of wordings (fact-kinds-dev2.ts), seed + 1. */
const DEV2 = process.env.UPDATES_WORDINGS === 'dev2';
const data = DEV2
  ? factChains({ chains: CHAINS, users: USERS, seed: SEED + 1, wordings: 'dev2' })
  : factChains({ chains: CHAINS, users: USERS, seed: SEED });
const RUNS = { A: {}, B: { supersede: 'off' } } as const;
type Run = keyof typeof RUNS;

/** A measured share: hits of n. */
type Tally = Record<string, { hits: number; n: number }>;
const rows: Record<string, Tally> = {};
const count = (metric: string, set: string, hit: boolean) => {
  for (const s of [set, 'all']) {
    const t = ((rows[metric] ??= {})[s] ??= { hits: 0, n: 0 });
    t.n++;
    if (hit) t.hits++;
  }
};

let fieldsSeen = false; // whether the server answers superseded_by at all
const t0 = performance.now();
await withFreshServer(PG_BASE, async (server, key) => {
  const api = updatesApi(server.url, key);
  for (const [run, extra] of Object.entries(RUNS) as [Run, Record<string, string>][]) {
    const ext = (u: number) => `updates-${run}-${u}`;
    // Each user's memories in the order they were said, so a later fact always arrives after the one it replaces.
    const ids = new Map<string, string>();
    const perUser = data.users.map((_, u) =>
      data.memories.filter((m) => m.user === u).sort((a, b) => a.createdAt.localeCompare(b.createdAt)),
    );
    await mapConcurrent(perUser, 2, async (ms) => {
      for (let i = 0; i < ms.length; i += 100) {
        const slice = ms.slice(i, i + 100);
        const items = slice.map((m): AddMemory & Record<string, unknown> => ({
          content: m.content,
          type: 'text',
          external_user_id: ext(m.user),
          metadata: { role: 'user', createdAt: m.createdAt },
          ...extra,
        }));
        (await api.addBatch(items)).forEach((id, j) => ids.set(slice[j].key, id));
      }
    });

    const top1 = async (q: FactQuestion, body: Record<string, unknown>) => {
      const ranked = await api.search({ ...body, query: q.query, external_user_id: ext(q.user) });
      return ranked[0]?.id === ids.get(q.expected);
    };
    const current = data.questions.filter((q) => q.kind === 'current');
    const past = data.questions.filter((q) => q.kind === 'past');
    const searches: [string, FactQuestion[], (q: FactQuestion) => Record<string, unknown>][] = [
      [`${run} current-first`, current, () => ({})],
      [`${run} as_of`, past, (q) => ({ as_of: q.asOf })],
    ];
    if (run === 'A')
      searches.push(['A current-first, include_superseded:false', current, () => ({ include_superseded: false })]);
    for (const [metric, qs, body] of searches) {
      const hits = await mapConcurrent(qs, CONCURRENCY, (q) => top1(q, body(q)));
      qs.forEach((q, i) => count(metric, q.set, hits[i]));
    }

    const read = await mapConcurrent(data.memories, CONCURRENCY, (m) => api.get(ids.get(m.key)!));
    const byKey = new Map<string, Lifecycle>(data.memories.map((m, i) => [m.key, read[i]]));
    fieldsSeen ||= read.some((l) => l && 'superseded_by' in l);
    for (const m of data.memories) scoreLifecycle(run, m, byKey.get(m.key)!, ids);
  }
});

function scoreLifecycle(run: Run, m: FactMemory, l: Lifecycle, ids: Map<string, string>) {
  const by = l.superseded_by ?? null;
  if (m.shouldBeCurrent) {
    count(`${run} false supersession`, m.set, by !== null);
    count(`${run} false supersession: ${m.role === 'chain' ? 'chain end' : m.role}`, m.set, by !== null);
  } else {
    count(`${run} missed supersession`, m.set, by === null);
    count(`${run} wrong target`, m.set, by !== null && !m.supersededBy.some((k) => ids.get(k) === by));
  }
}

const pct = (t?: { hits: number; n: number }) => (t && t.n ? `${((100 * t.hits) / t.n).toFixed(1)}` : '-');
const cols = DEV2 ? ['dev2', 'all'] : [...TEMPLATE_SETS, 'all'];
const metrics = Object.keys(rows).sort();
const width = Math.max(...metrics.map((m) => m.length)) + 2;
const seconds = ((performance.now() - t0) / 1000).toFixed(0);
console.log(
  `fact updates on ${STORE}: ${data.chains.length} chains, ${data.users.length} users, ${data.memories.length} ` +
    `memories, ${data.questions.length} questions per run (seed ${DEV2 ? SEED + 1 : SEED}); ${seconds} s`,
);
if (!fieldsSeen) console.log('note: the server answered no superseded_by field; supersession counts read it as null');
console.log(`${'metric (%)'.padEnd(width)}${cols.map((c) => c.padStart(9)).join('')}${'n (all)'.padStart(9)}`);
for (const m of metrics)
  console.log(
    `${m.padEnd(width)}${cols.map((c) => pct(rows[m][c]).padStart(9)).join('')}${String(rows[m].all.n).padStart(9)}`,
  );
console.log(
  JSON.stringify({
    bench: 'updates',
    store: STORE,
    seed: DEV2 ? SEED + 1 : SEED,
    wordings: DEV2 ? 'dev2' : 'dev+heldout',
    chains: data.chains.length,
    users: data.users.length,
    memories: data.memories.length,
    questions: data.questions.length,
    superseded_by_field: fieldsSeen,
    results: Object.fromEntries(
      metrics.map((m) => [m, Object.fromEntries(cols.map((c) => [c, rows[m][c] ?? { hits: 0, n: 0 }]))]),
    ),
  }),
);
