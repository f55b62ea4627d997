/**
 * Search latency and ingest throughput through the HTTP API, at growing corpus sizes, on
 * PGlite and PostgreSQL. Per store, one server ingests the synthetic corpus (bench/lib/corpus.ts)
 * through the batch endpoint up to each size in turn (10k, then on to 100k), and at each
 * size runs distinct natural-language queries one at a time, timing the whole request.
 * Ingest memories/s is compared with the bare embedders' texts/s on the same texts, and
 * search latency with the bare query embedding's (one query at a time, in this process).
 *
 *   npm run bench:search
 *   SEARCH_SIZES=10000 SEARCH_STORES=pglite npm run bench:search          (quick check)
 *
 * Env: SEARCH_SIZES (default 10000,100000), SEARCH_STORES (pglite,postgres), SEARCH_QUERIES
 * (300 per size), SEARCH_INFLIGHT (batches in flight while ingesting, 3), SEARCH_EMBED_TEXTS
 * (texts for the embedder baseline, 2000), BENCH_DATABASE_URL (PostgreSQL server to create
 * databases on; default the local test server).
 *
 * SEARCH_GRAPH=1 builds the knowledge graph too (memories are processed in the background;
 * the time from the last batch to all processed is reported) and measures each size twice,
 * plain and with enable_agentic_graph (different queries, so the embedding cache helps neither).
 *
 * SEARCH_KEEP_DIR=<dir> keeps each store for later runs instead of throwing it away: PGlite
 * lives in <dir>/pglite, PostgreSQL in database `engram_bench_search` (SEARCH_KEEP_DB; its
 * server state in <dir>/postgres), and <dir>/<store>/bench.json records the key and how many memories are
 * in. A later run with the same dir resumes from there: sizes already ingested are only
 * searched, larger ones ingest just the missing memories (so, after one full run, the 100k
 * searches take minutes instead of an ingest of about an hour per store); sizes below what
 * a kept store holds are skipped. Delete the dir to start over; an interrupted ingest also
 * starts over.
 *
 * `npm run bench:seed` (bench/seed-store.ts) fills a kept PostgreSQL store through the memories service
 * instead of HTTP (its header says what it skips), much faster than an ingest here.
 *
 * With a kept PostgreSQL store, `bench/seed-pglite.ts` copies it into the kept PGlite store
 * (minutes instead of a second ingest); a PGlite run then only searches.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Server } from '../test/process.ts';
import { BATCH_SIZE, memoryApi, type MemoryApi } from './lib/client.ts';
import { CORPUS_ID, syntheticMemories, syntheticQueries } from './lib/corpus.ts';
import { embedderThroughput } from './lib/embedder-throughput.ts';
import { createDatabase, databaseUrl, dropDatabase, newApiKey, startBenchServer, tmpDir } from './lib/server.ts';
import { fmt, median, percentile } from './stats.ts';

type Store = 'pglite' | 'postgres';

const SIZES = (process.env.SEARCH_SIZES || '10000,100000')
  .split(',')
  .map(Number)
  .sort((a, b) => a - b);
const STORES = (process.env.SEARCH_STORES || 'pglite,postgres').split(',').map((s) => s.trim()) as Store[];
const QUERIES = Number(process.env.SEARCH_QUERIES || 300);
const INFLIGHT = Number(process.env.SEARCH_INFLIGHT || 3);
const EMBED_TEXTS = Number(process.env.SEARCH_EMBED_TEXTS || 2000);
const PG_BASE = process.env.BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
const KEEP_DIR = process.env.SEARCH_KEEP_DIR ? path.resolve(process.env.SEARCH_KEEP_DIR) : undefined;
const USERS = 100;
const WARMUP = 20; // first requests pay for JIT and cold caches
const MAX_MEMORIES = 20; // the API's default page
const KEPT_DB = process.env.SEARCH_KEEP_DB || 'engram_bench_search';
const GRAPH = process.env.SEARCH_GRAPH === '1';
const VARIANTS: Record<string, unknown>[] = GRAPH
  ? [{ enable_agentic_graph: false }, { enable_agentic_graph: true }]
  : [{}];

for (const s of STORES) if (s !== 'pglite' && s !== 'postgres') throw new Error(`SEARCH_STORES: unknown store ${s}`);

const corpus = syntheticMemories(Math.max(...SIZES), USERS);
// One query set per size: a server keeps an LRU of query embeddings, so a repeated text would be cheaper
// than a new one.
const querySets = syntheticQueries((WARMUP + QUERIES) * SIZES.length * VARIANTS.length, USERS);
const queriesFor = (i: number) => querySets.slice(i * (WARMUP + QUERIES), (i + 1) * (WARMUP + QUERIES));

/** A running server on a store, and how many corpus memories that store already holds. */
interface BenchStore {
  server: Server;
  api: MemoryApi;
  ingested: number;
  /** Ingest corpus memories up to `size`; returns memories/s. */
  ingestTo(size: number): Promise<number>;
  close(): Promise<void>;
}

async function openStore(store: Store): Promise<BenchStore> {
  const dir = KEEP_DIR ? path.join(KEEP_DIR, store) : tmpDir();
  const dataDir = path.join(dir, 'data');
  const markerFile = path.join(dir, 'bench.json');
  fs.mkdirSync(dir, { recursive: true }); // a PostgreSQL store keeps only its marker here
  const marker = KEEP_DIR && fs.existsSync(markerFile) ? JSON.parse(fs.readFileSync(markerFile, 'utf8')) : null;
  // An interrupted ingest (pending) left an unknown number of memories behind: start over.
  const reuse = marker?.corpus === CORPUS_ID && marker.users === USERS && marker.pending === undefined;
  const dbName = KEEP_DIR ? KEPT_DB : `engram_bench_${randomBytes(4).toString('hex')}`;
  const key: string = reuse ? marker.key : newApiKey();
  if (!reuse) {
    fs.rmSync(dataDir, { recursive: true, force: true });
    if (store === 'postgres') await createDatabase(PG_BASE, dbName);
  }
  const server = await startBenchServer({
    dataDir,
    key,
    databaseUrl: store === 'postgres' ? databaseUrl(PG_BASE, dbName) : undefined,
  });
  const mark = (state: { ingested: number; pending?: number }) =>
    KEEP_DIR && fs.writeFileSync(markerFile, JSON.stringify({ corpus: CORPUS_ID, users: USERS, key, ...state }));
  const s: BenchStore = {
    server,
    api: memoryApi(server.url, key, { process: GRAPH }),
    ingested: reuse ? marker.ingested : 0,
    async ingestTo(size) {
      mark({ ingested: s.ingested, pending: size });
      const memories = corpus.slice(s.ingested, size);
      const t0 = performance.now();
      await s.api.addAll(memories, INFLIGHT);
      const perSec = memories.length / ((performance.now() - t0) / 1000);
      if (GRAPH) {
        const t1 = performance.now();
        await s.api.waitProcessed();
        console.log(
          `  graph: every memory processed ${((performance.now() - t1) / 1000).toFixed(1)} s after the ` +
            `last batch was accepted`,
        );
      }
      mark({ ingested: (s.ingested = size) });
      return perSec;
    },
    async close() {
      await server.stop();
      if (KEEP_DIR) return;
      if (store === 'postgres') await dropDatabase(PG_BASE, dbName);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
  mark({ ingested: s.ingested });
  return s;
}

/** Full-request latencies of `queries`, one at a time (so each number is one request's cost, not queueing). */
async function searchLatencies(
  api: MemoryApi,
  queries: { user: string; query: string }[],
  extra: Record<string, unknown> = {},
): Promise<number[]> {
  const times: number[] = [];
  for (const [i, q] of queries.entries()) {
    const t0 = performance.now();
    await api.search({ ...extra, query: q.query, external_user_id: q.user }, MAX_MEMORIES);
    if (i >= WARMUP) times.push(performance.now() - t0);
  }
  return times;
}

/** VmRSS of a process in MB (Linux /proc), or null where there is none. */
function serverRssMb(pid: number | undefined): number | null {
  try {
    const kb = /VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb ? Number(kb) / 1024 : null;
  } catch {
    return null;
  }
}

const embedderDir = KEEP_DIR ? path.join(KEEP_DIR, 'embedder-models') : tmpDir();
// The query-embedding baseline takes queries no search below uses (the searches' are distinct anyway).
const baselineQueries = syntheticQueries(querySets.length + QUERIES, USERS)
  .slice(querySets.length)
  .map((q) => q.query);
const embedder = await embedderThroughput(
  corpus.slice(0, EMBED_TEXTS).map((m) => m.content),
  BATCH_SIZE,
  embedderDir,
  baselineQueries,
);
if (!KEEP_DIR) fs.rmSync(embedderDir, { recursive: true, force: true });
console.log(
  `embedder ${embedder.ids.join(' + ')}: ${embedder.textsPerSec.toFixed(1)} texts/s ` +
    `(${Math.min(EMBED_TEXTS, corpus.length)} texts, batches of ${BATCH_SIZE}); one query alone p50 ` +
    `${fmt(embedder.queryP50Ms!)} (the floor of a search's latency)`,
);

const results: Record<string, unknown>[] = [];
for (const store of STORES) {
  const s = await openStore(store);
  try {
    for (const [i, size] of SIZES.entries()) {
      const label = `${store.padEnd(9)}${String(size).padStart(7)} memories`;
      if (s.ingested > size) {
        console.log(`${label}  skipped: the kept store already holds ${s.ingested}`);
        continue;
      }
      const from = s.ingested;
      const ingestPerSec = from < size ? await s.ingestTo(size) : undefined;
      const ratio = ingestPerSec === undefined ? undefined : ingestPerSec / embedder.textsPerSec;
      const ingest =
        ingestPerSec === undefined
          ? 'ingest: reused'
          : `ingest ${from}→${size}: ${ingestPerSec.toFixed(1)} memories/s ` +
            `(${(ingestPerSec / embedder.textsPerSec).toFixed(2)}× embedder)`;
      for (const [v, extra] of VARIANTS.entries()) {
        const lat = await searchLatencies(s.api, queriesFor(i * VARIANTS.length + v), extra);
        const tag = GRAPH ? ` ${extra.enable_agentic_graph ? 'agentic' : 'plain'}` : '';
        console.log(
          `${label}  ${ingest}  search${tag} p50 ${fmt(median(lat))} p95 ${fmt(percentile(lat, 95))} ` +
            `p99 ${fmt(percentile(lat, 99))} (n=${lat.length})`,
        );
        results.push({
          store,
          size,
          ...extra,
          ingested_from: from,
          ingest_per_s: ingestPerSec,
          ingest_vs_embedder: ratio,
          search_p50_ms: median(lat),
          search_p95_ms: percentile(lat, 95),
          search_p99_ms: percentile(lat, 99),
          queries: lat.length,
        });
      }
      // The server's resident memory at this size, once its searches are done: the footprint
      // issue #16 asks after 10k memories on the embedded store (VmRSS of the server's node).
      const rss = serverRssMb(s.server.proc.pid);
      if (rss !== null) {
        console.log(`${label}  server RSS ${rss.toFixed(0)} MB after its ingest and searches`);
        results.push({ store, size, server_rss_mb: rss });
      }
    }
  } catch (err) {
    console.error(`server output (tail):\n${s.server.output().slice(-4000)}`);
    throw err;
  } finally {
    await s.close();
  }
}
console.log(
  JSON.stringify({
    bench: 'search',
    embedder_texts_per_s: embedder.textsPerSec,
    query_embedding_p50_ms: embedder.queryP50Ms,
    embedder_ids: embedder.ids,
    max_memories: MAX_MEMORIES,
    results,
  }),
);
