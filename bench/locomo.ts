/**
 * LoCoMo evidence recall through the HTTP API: every turn of a conversation becomes one
 * memory of that conversation's external user; each question is a search, scored by
 * evidence recall@5/10/25 on the `customMetadata.dia_id` of the ranked memories. Prints
 * a table per category, ingest time, search latency, and a JSON summary line.
 *
 *   npm run bench:locomo
 *   LOCOMO_LIMIT_CONV=1 npm run bench:locomo                          (one conversation)
 *   BENCH_SEARCH_EXTRA='{"enable_agentic_graph":true}' npm run bench:locomo   (A/B a search option)
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench:locomo   (PostgreSQL, throwaway db)
 *   LOCOMO_GRAPH=1 npm run bench:locomo   (build the knowledge graph in the background, then search
 *                                          with enable_agentic_graph off and on over the same data)
 *
 * Other knobs: LOCOMO_FILE (default: the dev split), LOCOMO_CONCURRENCY (searches in flight, default 4).
 */
import { memoryApi } from './lib/client.ts';
import { CATEGORY_NAMES, diaId, loadLocomo, parseExtra, recallAt, turnMemories, userOf } from './lib/locomo-data.ts';
import { mapConcurrent } from './lib/pool.ts';
import { withFreshServer } from './lib/server.ts';
import { fmt, median, percentile } from './stats.ts';

const FILE = process.env.LOCOMO_FILE || '/work/shared/data/locomo/locomo-dev.json';
const PG_BASE = process.env.BENCH_DATABASE_URL || undefined;
const LIMIT = Number(process.env.LOCOMO_LIMIT_CONV || 0);
const CONCURRENCY = Number(process.env.LOCOMO_CONCURRENCY || 4);
const EXTRA = parseExtra(process.env.BENCH_SEARCH_EXTRA);
const KS = [5, 10, 25];
const GRAPH = process.env.LOCOMO_GRAPH === '1';
const INGEST_INFLIGHT = 2; // the server embeds one batch at a time; a second keeps it busy between requests

const conversations = loadLocomo(FILE).slice(0, LIMIT > 0 ? LIMIT : undefined);
const memories = conversations.flatMap(turnMemories);
const questions = conversations.flatMap((c) => c.questions.map((q) => ({ ...q, user: userOf(c) })));

type Scores = { category: number; recall: number[] }[];
const runs = await withFreshServer(PG_BASE, async (server, key) => {
  const api = memoryApi(server.url, key, { process: GRAPH });
  const t0 = performance.now();
  await api.addAll(memories, INGEST_INFLIGHT);
  const ingestMs = performance.now() - t0;
  if (GRAPH) await api.waitProcessed();
  const processMs = performance.now() - t0 - ingestMs;
  const variants = GRAPH
    ? [
        { ...EXTRA, enable_agentic_graph: false },
        { ...EXTRA, enable_agentic_graph: true },
      ]
    : [EXTRA];
  const out: {
    extra: Record<string, unknown>;
    ingestMs: number;
    processMs: number;
    latencies: number[];
    scores: Scores;
  }[] = [];
  for (const extra of variants) {
    const latencies: number[] = [];
    const scores = await mapConcurrent(questions, CONCURRENCY, async (q) => {
      const t = performance.now();
      // The benchmark's own fields come last so BENCH_SEARCH_EXTRA cannot change what is asked of whom.
      const ranked = await api.search({ ...extra, query: q.question, external_user_id: q.user }, Math.max(...KS));
      latencies.push(performance.now() - t);
      const ids = ranked.map(diaId);
      return { category: q.category, recall: KS.map((k) => recallAt(q.evidence, ids, k)) };
    });
    out.push({ extra, ingestMs, processMs, latencies, scores });
  }
  return out;
});

for (const { extra: EXTRA, ingestMs, processMs, latencies, scores } of runs) {
  /** Mean recall@k per k over `rows`. */
  const mean = (rows: typeof scores) => KS.map((_, j) => rows.reduce((s, r) => s + r.recall[j], 0) / rows.length);
  const pct = (x: number) => (100 * x).toFixed(1).padStart(6);

  const groups = Object.keys(CATEGORY_NAMES)
    .map(Number)
    .map((cat) => ({ name: `${cat} ${CATEGORY_NAMES[cat]}`, rows: scores.filter((s) => s.category === cat) }))
    .filter((g) => g.rows.length > 0);
  groups.push({ name: 'overall', rows: scores });

  const store = PG_BASE ? 'postgres' : 'pglite';
  console.log(
    `LoCoMo evidence recall (%) on ${store}: ${conversations.length} conversations, ${memories.length} ` +
      `turns, ${questions.length} questions; search extra ${JSON.stringify(EXTRA)}`,
  );
  console.log(`${'category'.padEnd(16)}${'n'.padStart(6)}${KS.map((k) => `R@${k}`.padStart(6)).join('')}`);
  for (const g of groups)
    console.log(`${g.name.padEnd(16)}${String(g.rows.length).padStart(6)}${mean(g.rows).map(pct).join('')}`);
  console.log(
    `ingest: ${memories.length} memories in ${(ingestMs / 1000).toFixed(1)} s ` +
      `(${(memories.length / (ingestMs / 1000)).toFixed(1)} memories/s)`,
  );
  if (GRAPH)
    console.log(
      `background processing (graph) finished ${(processMs / 1000).toFixed(1)} s after the last batch was accepted`,
    );
  console.log(
    `search: p50 ${fmt(median(latencies))}, p95 ${fmt(percentile(latencies, 95))} (n=${latencies.length}, ` +
      `${CONCURRENCY} in flight)`,
  );
  console.log(
    JSON.stringify({
      bench: 'locomo',
      store,
      file: FILE,
      conversations: conversations.length,
      memories: memories.length,
      questions: questions.length,
      search_extra: EXTRA,
      recall: Object.fromEntries(
        groups.map((g) => [
          g.name,
          { n: g.rows.length, ...Object.fromEntries(KS.map((k, j) => [`r@${k}`, mean(g.rows)[j]])) },
        ]),
      ),
      ingest_ms: Math.round(ingestMs),
      search_p50_ms: median(latencies),
      search_p95_ms: percentile(latencies, 95),
      search_concurrency: CONCURRENCY,
    }),
  );
}
