/**
 * Reranking providers through the HTTP API: do svc_enhanced and svc_max beat the fused order, and
 * what do the transform and rerank endpoints cost? One server (PGlite in a temp DATA_DIR, or a
 * throwaway PostgreSQL database) stores SciFact abstracts (user `scifact`, domain scifact, nDCG@10
 * on the dev claims), CoSQA functions (user `cosqa`, domain cosqa, MRR@10 on the dev queries) and
 * LoCoMo turns (a user per conversation, domain general, evidence recall@10), every memory with
 * policy.transform_embedding auto, so its background job stores an artifact. Every query is
 * searched (4 in flight, max_memories 100) without reranking_config (`none`, the fused order), with
 * svc_enhanced and with svc_max; data.reranking is checked so a fallback cannot pass as the provider
 * asked for. Then sequential latency of POST /v1/graph/transform and /v1/graph/rerank on that
 * server, and the store served twice more with BM25 alone and dense alone for the default search.
 * JSON summary on stdout, progress on stderr.
 *
 *   npm run bench:rerank                                                        (full size)
 *   BENCH_SCIFACT_DOCS=300 BENCH_COSQA_DOCS=300 BENCH_QUERIES=20 BENCH_LOCOMO=0 npx tsx bench/rerank.ts  (smoke)
 *
 * Env: BENCH_DATABASE_URL (PostgreSQL server: a database is made and dropped), BENCH_SCIFACT_DOCS,
 * BENCH_COSQA_DOCS (corpus sizes, 0 = all; the evaluated queries' gold documents are always kept),
 * BENCH_QUERIES (first N queries per set, 0 = all), BENCH_RERANK_CALLS (timed rerank calls per kind, 20),
 * BENCH_LOCOMO=0 (skip LoCoMo), LOCOMO_LIMIT_CONV
 * (first N conversations), COSQA_DIR, LOCOMO_FILE, MODELS_CACHE_DIR (default the repo's .cache/models).
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { MODELS_CACHE } from '../test/harness.ts';
import * as beir from './lib/beir.ts';
import { memoryApi, type AddMemory, type MemoryObject } from './lib/client.ts';
import { diaId, loadLocomo, recallAt, turnMemories, userOf } from './lib/locomo-data.ts';
import { mapConcurrent } from './lib/pool.ts';
import { endpointLatency, poster, summary, type Post } from './lib/rerank-timing.ts';
import { loadAbstracts, loadDevQueries, ndcgAt, SCIFACT_DIR } from './lib/scifact.ts';
import { createDatabase, dropDatabase, newApiKey, startBenchServer, tmpDir } from './lib/server.ts';

const PG_BASE = process.env.BENCH_DATABASE_URL || undefined;
const SCIFACT_DOCS = Number(process.env.BENCH_SCIFACT_DOCS || 0);
const COSQA_DOCS = Number(process.env.BENCH_COSQA_DOCS || 0);
const QUERIES = Number(process.env.BENCH_QUERIES || 0);
/** Timed POST /v1/graph/rerank calls per kind (strings, artifacts); a call over strings transforms 100 texts. */
const RERANK_CALLS = Number(process.env.BENCH_RERANK_CALLS || 20);
const LOCOMO = process.env.BENCH_LOCOMO !== '0';
const LOCOMO_CONV = Number(process.env.LOCOMO_LIMIT_CONV || 0);
const COSQA_DIR = process.env.COSQA_DIR || '/work/shared/data/cosqa';
const LOCOMO_FILE = process.env.LOCOMO_FILE || '/work/shared/data/locomo/locomo-dev.json';
const CONCURRENCY = 4;
const MAX = 100; // as deep as SEARCH_RERANK_DEPTH (100), so every provider returns its whole reordering
const log = (s: string) => console.error(s);

// ---- the evaluation sets --------------------------------------------------------------------------
interface EvalSet {
  name: string;
  domain: string;
  metric: string;
  memories: AddMemory[];
  queries: { text: string; user: string; score: (hits: MemoryObject[]) => number }[];
}
/** Every memory gets a transform artifact in its background job, in the set's domain. */
const policy = (domain: string) => ({ transform_embedding: { mode: 'auto', domain_id: domain } });

function beirSet(name: string, dir: string, docsLimit: number, metric: string, fn: typeof ndcgAt): EvalSet {
  const queries = beir.firstQueries(
    name === 'scifact' ? loadDevQueries(dir) : beir.loadQrelQueries(dir, 'dev'),
    QUERIES,
  );
  const all = name === 'scifact' ? loadAbstracts(dir) : beir.loadCorpus(dir);
  const docs = beir.selectDocs(all, queries, docsLimit);
  const memories = beir.docMemories(docs, name, policy(name));
  const evalQueries = queries.map((q) => ({
    text: q.text,
    user: name,
    score: (hits: MemoryObject[]) => fn(hits.map(beir.docIdOf), q.relevant, 10),
  }));
  return { name, domain: name, metric, memories, queries: evalQueries };
}

function locomoSet(): EvalSet {
  const convs = loadLocomo(LOCOMO_FILE).slice(0, LOCOMO_CONV > 0 ? LOCOMO_CONV : undefined);
  const memories = convs.flatMap(turnMemories).map((m) => ({ ...m, policy: policy('general') }));
  const all = convs.flatMap((c) =>
    c.questions.map((q) => ({
      text: q.question,
      user: userOf(c),
      score: (hits: MemoryObject[]) => recallAt(q.evidence, hits.map(diaId), 10),
    })),
  );
  const queries = beir.firstQueries(all, QUERIES);
  return { name: 'locomo', domain: 'general', metric: 'evidence_recall@10', memories, queries };
}

const sets = [
  beirSet('scifact', SCIFACT_DIR, SCIFACT_DOCS, 'ndcg@10', ndcgAt),
  beirSet('cosqa', COSQA_DIR, COSQA_DOCS, 'mrr@10', beir.mrrAt),
  ...(LOCOMO ? [locomoSet()] : []),
];

// ---- searching ------------------------------------------------------------------------------------
type Method = 'bm25' | 'dense' | 'none' | 'svc_enhanced' | 'svc_max';
const results: Record<string, Record<string, unknown>> = Object.fromEntries(sets.map((s) => [s.name, {}]));
const rerankingNotes: Record<string, number> = {};
const warnings = new Set<string>(); // mislabelled providers and a missing signal, repeated in the summary
const searchLatency: Record<string, number[]> = {};
const hitIds = new Map<string, Set<string>>(); // some memory ids per set, for the processing check
const fusedTop = new Map<string, string[]>(); // `${set}/${query index}` → the `none` top 10, joined

/** Every query of `set` searched with `method`'s body (bm25/dense: the default search on a reweighted server). */
async function evaluate(post: Post, set: EvalSet, method: Method) {
  const rerank = method === 'svc_enhanced' || method === 'svc_max';
  const config = { reranking_enabled: true, reranking_provider: method, domain_id: set.domain };
  const ms: number[] = [];
  let sameTop = 0; // an untrained ranker, or a provider that changes nothing, shows as 100 % here
  const scores = await mapConcurrent(set.queries, CONCURRENCY, async (q, i) => {
    const body = { ...(rerank ? { reranking_config: config } : {}), query: q.text, external_user_id: q.user };
    const r = await post(`/v1/memory/search?max_memories=${MAX}`, body);
    ms.push(r.ms);
    const { memories, reranking: rr } = r.json.data ?? {};
    if (!Array.isArray(memories)) throw new Error(`search without data.memories: ${JSON.stringify(r.json)}`);
    const note = `${set.name}/${method}: ${rr ? JSON.stringify(rr) : 'no data.reranking'}`;
    rerankingNotes[note] = (rerankingNotes[note] ?? 0) + 1;
    // Asked for a provider but ranked by another (or none): the row would carry the wrong name.
    if ((rerank && rr?.used !== method) || (rr && rr.used !== rr.requested) || (!rerank && rr && rr.used !== 'none')) {
      if (!warnings.has(`mislabelled ${note}`)) log(`!!! MISLABELLED: ${note}`);
      warnings.add(`mislabelled ${note}`);
    }
    const top = memories.slice(0, 10).map((m: MemoryObject) => m.id);
    if (method === 'none') fusedTop.set(`${set.name}/${i}`, top);
    else if (fusedTop.get(`${set.name}/${i}`)?.join() === top.join()) sameTop++;
    const ids = hitIds.get(set.name) ?? new Set<string>();
    top.slice(0, 3).forEach((id: string) => ids.size < 30 && ids.add(id));
    hitIds.set(set.name, ids);
    return q.score(memories);
  });
  const value = scores.reduce((a, b) => a + b, 0) / Math.max(1, scores.length);
  (searchLatency[method] ??= []).push(...ms);
  const lat = summary(ms);
  results[set.name][method] = {
    [set.metric]: Math.round(value * 10000) / 10000,
    queries: scores.length,
    search_p50_ms: lat.p50_ms,
    search_p95_ms: lat.p95_ms,
    ...(method === 'none' ? {} : { same_top10_as_none: sameTop / Math.max(1, scores.length) }),
  };
  log(`${set.name.padEnd(8)} ${method.padEnd(13)} ${set.metric} ${value.toFixed(4)} (n=${scores.length})`);
}

/** Train claims: the dev claims were searched already, so their embeddings sit in the query cache. */
const trainClaims = () => beir.loadQrelQueries(SCIFACT_DIR, 'train').map((q) => q.text);

/** Processing states of some memories the searches returned: a failed transform step would show here. */
async function processingSample(url: string, key: string) {
  const counts: Record<string, number> = {};
  const errors = new Set<string>();
  for (const ids of hitIds.values())
    for (const id of ids) {
      const s = await (await fetch(`${url}/v1/memory/status/${id}`, { headers: { 'X-API-Key': key } })).json();
      counts[s.processing_status] = (counts[s.processing_status] ?? 0) + 1;
      if (s.error) errors.add(String(s.error));
    }
  return { counts, errors: [...errors].slice(0, 5) };
}

// ---- the run --------------------------------------------------------------------------------------
const dataDir = tmpDir();
const key = newApiKey();
const dbName = PG_BASE ? `engram_bench_rerank_${randomBytes(4).toString('hex')}` : undefined;
const dbUrl = PG_BASE && dbName ? await createDatabase(PG_BASE, dbName) : undefined;
const MODELS = process.env.MODELS_CACHE_DIR || MODELS_CACHE; // converted models shared across runs

/** A server on the run's store with `env` on top, `fn` run against it, then stopped. */
async function withServer<T>(env: Record<string, string>, fn: (url: string, post: Post) => Promise<T>): Promise<T> {
  const server = await startBenchServer({
    dataDir,
    key,
    databaseUrl: dbUrl,
    env: { MODELS_CACHE_DIR: MODELS, ...env },
  });
  // Without the converted GloVe table the server runs without dense2 and only logs it: the fused
  // numbers would then not be the deployment's (`npm run setup:models`, or MODELS_CACHE_DIR).
  if (/GloVe SIF signal disabled/.test(server.output())) {
    warnings.add(`GloVe SIF (dense2) disabled: no word vectors in ${MODELS}`);
    log(`!!! GloVe SIF (dense2) disabled: no word vectors in ${MODELS}`);
  }
  try {
    return await fn(server.url, poster(server.url, key));
  } catch (err) {
    log(`server output (tail):\n${server.output().slice(-4000)}`);
    throw err;
  } finally {
    await server.stop();
  }
}

const ingest: Record<string, number> = {};
let processing: Awaited<ReturnType<typeof processingSample>> | undefined;
let latencies: Awaited<ReturnType<typeof endpointLatency>> | undefined;
try {
  await withServer({}, async (url, post) => {
    const api = memoryApi(url, key, { process: true });
    const t0 = performance.now();
    for (const s of sets) {
      const t = performance.now();
      await api.addAll(s.memories, 2);
      ingest[`${s.name}_accept_s`] = Math.round(performance.now() - t) / 1000;
      log(`ingest ${s.name}: ${s.memories.length} memories accepted in ${ingest[`${s.name}_accept_s`]} s`);
    }
    const accepted = performance.now();
    await api.waitProcessed(3_600_000);
    ingest.accept_s = Math.round(accepted - t0) / 1000;
    ingest.processed_s = Math.round(performance.now() - t0) / 1000; // last batch completed, from the first POST
    log(`ingest: all accepted in ${ingest.accept_s} s, processed (graph + transform) after ${ingest.processed_s} s`);
    for (const s of sets) for (const m of ['none', 'svc_enhanced', 'svc_max'] as const) await evaluate(post, s, m);
    processing = await processingSample(url, key);
    log(`processing states of a sample of hits: ${JSON.stringify(processing)}`);
    latencies = await endpointLatency(
      post,
      loadAbstracts().map(beir.docContent),
      trainClaims(),
      'scifact',
      RERANK_CALLS,
    );
    log(`latency: ${JSON.stringify(latencies)}`);
  });
  // Fusion weights (src/config.ts SEARCH_WEIGHT_*). SEARCH_NEIGHBOUR_WEIGHT (a memory borrowing part
  // of a same-session neighbour's score) stays at its default, as in the fused runs: only the
  // signals change, and only LoCoMo has sessions. DENSE2 is the GloVe SIF signal.
  const alone: [Method, Record<string, string>][] = [
    ['bm25', { SEARCH_WEIGHT_BM25: '1', SEARCH_WEIGHT_DENSE: '0', SEARCH_WEIGHT_DENSE2: '0' }],
    ['dense', { SEARCH_WEIGHT_BM25: '0', SEARCH_WEIGHT_DENSE: '1', SEARCH_WEIGHT_DENSE2: '0' }],
  ];
  for (const [method, env] of alone)
    await withServer(env, async (_url, post) => {
      for (const s of sets) await evaluate(post, s, method);
    });
} finally {
  if (PG_BASE && dbName) await dropDatabase(PG_BASE, dbName);
  fs.rmSync(dataDir, { recursive: true, force: true });
}

const p50 = (v: number[]) => summary(v).p50_ms;
console.log(
  JSON.stringify({
    bench: 'rerank',
    store: PG_BASE ? 'postgres' : 'pglite',
    sets: Object.fromEntries(
      sets.map((s) => [
        s.name,
        { metric: s.metric, memories: s.memories.length, queries: s.queries.length, methods: results[s.name] },
      ]),
    ),
    ingest,
    processing_sample: processing,
    latency: {
      search_p50_ms: Object.fromEntries(Object.entries(searchLatency).map(([m, v]) => [m, p50(v)])),
      search_concurrency: CONCURRENCY,
      ...latencies,
    },
    reranking_notes: rerankingNotes,
    warnings: [...warnings],
  }),
);
