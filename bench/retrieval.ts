/**
 * Retrieval quality on every dev set at once (issue #24): SciFact dev nDCG@10, CoSQA dev MRR@10,
 * and LoCoMo dev evidence recall under both protocols — `session` (turns with metadata.sessionId
 * and per-turn createdAt, stored in batches) and `plain` (turns added one by one with neither,
 * as most applications add memories) — overall, per category, and per conversation. In-process
 * over the kept study store of bench/signals.ts (SIGNALS_DATABASE_URL; sets are ingested there
 * when missing, and their background processing — the graph — run as a worker would), through the
 * search service: the production ranking, minus HTTP.
 *
 * Settings (JSON list; unset fields are the service's configuration, see bench/lib/inprocess.ts):
 *   npm run bench:retrieval                                   (the defaults)
 *   npm run bench:retrieval -- '[{}, {"nb": 0.5}, {"nb": 1}]'
 * With several settings, the one used for each LoCoMo conversation is chosen on the other four
 * (leave-one-conversation-out, on the mean of both protocols' R@10): the cross-validated figure is
 * printed beside the in-sample one, and SciFact and CoSQA are shown for the setting all five
 * conversations choose — never below BM25 alone (printed first, `{bm25-only}`) is the bar.
 * Results per setting and commit are cached (RETRIEVAL_CACHE, default /tmp/engram-retrieval-cache.json;
 * not while src/ has uncommitted changes).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { devSets, ensureDatabase, ensureIngested, ensureProcessed, type DevQuery } from './lib/dev-sets.ts';
import { inProcessStack, type StudySettings } from './lib/inprocess.ts';
import { CATEGORY_NAMES, recallAt } from './lib/locomo-data.ts';
import { mrrAt } from './lib/beir.ts';
import { ndcgAt } from './lib/scifact.ts';

type Setting = StudySettings & { agentic?: boolean };
const BASE = process.env.SIGNALS_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/engram_signals';
const CACHE = process.env.RETRIEVAL_CACHE || '/tmp/engram-retrieval-cache.json';
const BM25_ONLY: Setting = { dense: 0, dense2: 0, nb: 0 };
const grid: Setting[] = [BM25_ONLY, ...(JSON.parse(process.argv[2] || '[{}]') as Setting[])];
const log = (s: string) => console.error(s);

/** Per query: its set, group (conversation), category and score(s). */
interface Scored {
  set: string;
  group: string;
  category?: number;
  /** nDCG@10 / MRR@10, or R@5, R@10, R@25. */
  m: number[];
}

await ensureDatabase(BASE);
const stack = await inProcessStack({ databaseUrl: BASE });
const sets = devSets();
for (const set of sets) await ensureIngested(stack, set, log);
await ensureProcessed(stack, BASE, log);
const queries: (DevQuery & { set: string })[] = sets.flatMap((s) =>
  s
    .queries()
    .filter((q) => s.name !== 'scifact' || q.group === 'dev')
    .map((q) => ({ ...q, set: s.name })),
);

const cache: Record<string, Scored[]> = fs.existsSync(CACHE) ? JSON.parse(fs.readFileSync(CACHE, 'utf8')) : {};
// Results belong to the code that ranked them: the cache is keyed by the commit, and not used
// while src/ has uncommitted changes.
const git = (args: string[]) => execFileSync('git', args, { encoding: 'utf8' }).trim();
const revision = git(['status', '--porcelain', 'src']) ? null : git(['rev-parse', 'HEAD']);
const keyOf = (s: Setting) => JSON.stringify(s);
const cacheKey = (s: Setting) => (revision ? `${revision} ${keyOf(s)}` : null);

async function run(setting: Setting): Promise<Scored[]> {
  const key = cacheKey(setting);
  const cached = key ? cache[key] : undefined;
  if (cached?.length === queries.length) return cached;
  const search = stack.searchWith(setting);
  const t0 = performance.now();
  const out: Scored[] = [];
  for (const q of queries) {
    const r = await search.search(
      stack.actor,
      { query: q.text, external_user_id: q.user, enable_agentic_graph: setting.agentic ?? false } as never,
      25,
      0,
    );
    const ids = r.memories.map((m) => {
      const custom = (m.metadata as { customMetadata?: Record<string, unknown> }).customMetadata ?? {};
      return String(custom.doc_id ?? custom.dia_id);
    });
    const rel = new Set(q.relevant);
    const m =
      q.set === 'scifact'
        ? [ndcgAt(ids, rel, 10)]
        : q.set === 'cosqa'
          ? [mrrAt(ids, rel, 10)]
          : [5, 10, 25].map((k) => recallAt(q.relevant, ids, k));
    out.push({ set: q.set, group: q.group, category: q.category, m });
  }
  log(`${keyOf(setting)}: ${queries.length} queries in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
  if (key) {
    cache[key] = out;
    fs.writeFileSync(CACHE, JSON.stringify(cache));
  }
  return out;
}

const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : NaN);
const pct = (x: number) => (100 * x).toFixed(1);
const of = (rs: Scored[], set: string, group?: string) =>
  rs.filter((r) => r.set === set && (group === undefined || r.group === group));
/** The LoCoMo objective: mean R@10 of both protocols over the given conversations. */
const locomoR10 = (rs: Scored[], groups: string[]) =>
  mean(rs.filter((r) => r.set.startsWith('locomo') && groups.includes(r.group)).map((r) => r.m[1]));

const results = new Map<string, Scored[]>();
for (const s of grid) results.set(keyOf(s), await run(s));
const convs = [...new Set(queries.filter((q) => q.set === 'locomo').map((q) => q.group))];

const r10 = (xs: Scored[]) => pct(mean(xs.map((x) => x.m[1])));

function line(name: string, rs: Scored[]) {
  const loc = (set: string) => {
    const xs = of(rs, set);
    const cats = [...new Set(xs.map((x) => x.category!))].sort();
    return (
      `${[0, 1, 2].map((i) => pct(mean(xs.map((x) => x.m[i])))).join('/')} ` +
      `[${cats.map((c) => `${CATEGORY_NAMES[c]} ${r10(xs.filter((x) => x.category === c))}`).join(', ')}]`
    );
  };
  console.log(
    `${name}\n  SciFact nDCG@10 ${mean(of(rs, 'scifact').map((x) => x.m[0])).toFixed(4)}` +
      `  CoSQA MRR@10 ${mean(of(rs, 'cosqa').map((x) => x.m[0])).toFixed(4)}\n` +
      `  LoCoMo session R@5/10/25 ${loc('locomo')}\n  LoCoMo plain   R@5/10/25 ${loc('locomo-plain')}\n` +
      `  R@10 by conversation (session | plain): ${convs
        .map((c) => `${c} ${r10(of(rs, 'locomo', c))} | ${r10(of(rs, 'locomo-plain', c))}`)
        .join(', ')}`,
  );
}

for (const s of grid) line(keyOf(s) === keyOf(BM25_ONLY) ? '{bm25-only}' : keyOf(s), results.get(keyOf(s))!);

const candidates = grid.slice(1);
if (candidates.length > 1) {
  const pick = (groups: string[]) =>
    candidates.reduce((best, s) =>
      locomoR10(results.get(keyOf(s))!, groups) > locomoR10(results.get(keyOf(best))!, groups) + 1e-12 ? s : best,
    );
  const held: Scored[] = [];
  const picks: string[] = [];
  for (const c of convs) {
    const s = pick(convs.filter((x) => x !== c));
    picks.push(`${c}: ${keyOf(s)}`);
    held.push(...results.get(keyOf(s))!.filter((r) => r.set.startsWith('locomo') && r.group === c));
  }
  const all = pick(convs);
  console.log(`\nleave-one-conversation-out choices: ${picks.join('; ')}`);
  const cv = (set: string) => [0, 1, 2].map((i) => pct(mean(of(held, set).map((x) => x.m[i])))).join('/');
  console.log(`LoCoMo cross-validated R@5/10/25: session ${cv('locomo')}, plain ${cv('locomo-plain')}`);
  const cats = [...new Set(of(held, 'locomo').map((x) => x.category!))].sort();
  console.log(
    `LoCoMo cross-validated R@10 by category (session | plain): ${cats
      .map((c) => {
        const cat = (set: string) => r10(of(held, set).filter((x) => x.category === c));
        return `${CATEGORY_NAMES[c]} ${cat('locomo')} | ${cat('locomo-plain')}`;
      })
      .join(', ')}`,
  );
  line(`chosen on all five conversations (in-sample on LoCoMo): ${keyOf(all)}`, results.get(keyOf(all))!);
}
await stack.db.close();
