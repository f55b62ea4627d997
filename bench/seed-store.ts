/**
 * Seed the kept PostgreSQL store of `bench:search` with the synthetic corpus up to N memories
 * through the product's own memories service, not HTTP: ingesting 1M memories through the
 * batch endpoint takes hours of request handling on top of the embedding.
 *
 *   SEARCH_KEEP_DIR=<dir> [SEARCH_KEEP_DB=engram_bench_search] SEED_SIZE=100000 npm run bench:seed
 *
 * What it writes is what `POST /v1/memory/batch?skip_background_processing=true` with
 * `batch_size` = SEED_GROUP writes, because it is the same call: `memories.service.addBatch`
 * (the batch route's one service call) composed as src/app.ts composes it — same chunking
 * (`buildChunks`), same analyser terms, real vectors from the configured embedders
 * (`embeddersFromConfig`: USE lite and GloVe SIF, each group embedded in one call), one
 * transaction per group with its memories, chunks, users, events and batch event. Memories
 * are stored `completed` (what skip_background_processing stores). The key, organization and
 * users come from the product's own bootstrap and user resolution, so `bench:search` (same
 * SEARCH_KEEP_DIR / SEARCH_KEEP_DB) runs on the seeded store unchanged: it finds <dir>/postgres/bench.json
 * with the corpus id, the key and the count, and only searches.
 *
 * What it skips: the graph step. Seeded memories have no graph nodes (as with the HTTP path
 * and skip_background_processing, or a bench:search run without SEARCH_GRAPH), so an
 * `enable_agentic_graph` search on them matches no node and costs only the query's entity
 * extraction and one node lookup: agentic numbers on a seeded store are a lower bound, not
 * those of a graph-built store. SEED_GRAPH=1 stores memories `quick_saved` with their
 * `memory.process` jobs instead (the HTTP path with processing) and runs the product's worker
 * (`buildWorker`) in this process until every job is done: the graph is then built as the
 * server builds it, at the extractor's pace (~100 memories/s on these machines, so for 100k,
 * not 1M).
 *
 * Throughput: SEED_LANES (default 2) groups are embedded and stored side by side, each lane
 * with its own embedder set (its own USE lite thread), so both cores embed. The product's
 * maintenance pass (autovacuum's thresholds where the server runs without autovacuum) runs
 * as in a worker process, and the store is vacuumed and analysed at the end so index-only
 * scans and plans are as after a normal ingest.
 *
 * Resumable: <dir>/postgres/bench.json carries `pending` (the target) while seeding and the
 * count of corpus memories known to be in. A restart finds which groups after that count
 * committed (a group is one transaction; its first and last memory are looked up by user,
 * content and createdAt) and seeds only the missing ones. (`bench:search` itself treats a
 * marker with `pending` as an interrupted ingest and starts over: do not run it until the
 * seed has finished.) A fresh dir creates the database (dropping one of that name).
 *
 * SEED_BULK=1 (for 1M): the vector indexes (the HNSW indexes and the per-user scan index) are
 * dropped before the load and built once after it by the product's own start-up step
 * (`prepareVectorStore`, what a server does when they are missing), as any bulk load into
 * PostgreSQL does: inserting into an HNSW graph of a million vectors costs a graph search per
 * row (this seed fell to ~47 memories/s past 100k), building it once costs one parallel pass.
 * Searches on the store are the same afterwards: the same indexes with the same definitions.
 *
 * PostgreSQL needs room: about 0.8 GB of shared_buffers per 100k memories to search from
 * memory (docs/retrieval.md), and WAL room for the bulk insert (max_wal_size 8GB here).
 */
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { loadConfig } from '../src/config.ts';
import { buildWorker } from '../src/app.ts';
import { openDb, type Db } from '../src/platform/db/index.ts';
import { createLogger } from '../src/platform/log.ts';
import { createEventPublisher } from '../src/platform/events/index.ts';
import { embeddersFromConfig } from '../src/platform/models/index.ts';
import { LOCAL_EXTRACTOR_ID, lazyExtractor } from '../src/platform/models/extractor.ts';
import { apiKeyStore } from '../src/modules/api-keys/index.ts';
import { createAuthModule } from '../src/modules/auth/index.ts';
import { createGraphModule } from '../src/modules/graph/index.ts';
import { createMemoriesModule } from '../src/modules/memories/index.ts';
import { namespaceAccess } from '../src/modules/namespaces/index.ts';
import { prepareVectorStore } from '../src/modules/search/index.ts';
import { bootstrap } from '../src/modules/organizations/index.ts';
import { createSchemasModule } from '../src/modules/schemas/index.ts';
import { userDirectory } from '../src/modules/users/index.ts';
import { createWebhooksModule } from '../src/modules/webhooks/index.ts';
import type { AddMemory } from './lib/client.ts';
import { CORPUS_ID, syntheticMemory } from './lib/corpus.ts';
import { createDatabase, databaseUrl, newApiKey } from './lib/server.ts';

const KEEP_DIR = process.env.SEARCH_KEEP_DIR ? path.resolve(process.env.SEARCH_KEEP_DIR) : undefined;
if (!KEEP_DIR) throw new Error('SEARCH_KEEP_DIR: the directory bench:search keeps its stores in');
const SIZE = Number(process.env.SEED_SIZE || 100_000);
const GROUP = Number(process.env.SEED_GROUP || 500); // memories per embedder call and per transaction
const LANES = Number(process.env.SEED_LANES || 2);
const GRAPH = process.env.SEED_GRAPH === '1';
const PG_BASE = process.env.BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
const KEPT_DB = process.env.SEARCH_KEEP_DB || 'engram_bench_search';
const BULK = process.env.SEED_BULK === '1';
const USERS = 100; // bench:search's
if (!(SIZE > 0 && GROUP > 0 && GROUP <= 1000 && LANES > 0))
  throw new Error('SEED_SIZE, SEED_GROUP (≤ 1000), SEED_LANES');

const dir = path.join(KEEP_DIR, 'postgres');
const dataDir = path.join(dir, 'data'); // bench:search's server DATA_DIR: the same model caches
const markerFile = path.join(dir, 'bench.json');
interface Marker {
  corpus: string;
  users: number;
  key: string;
  ingested: number;
  pending?: number;
  seeded_by?: string;
}
const old: Marker | null = fs.existsSync(markerFile) ? JSON.parse(fs.readFileSync(markerFile, 'utf8')) : null;
const reuse = old?.corpus === CORPUS_ID && old.users === USERS;
const key = reuse ? old.key : newApiKey();
const url = databaseUrl(PG_BASE, KEPT_DB);
if (!reuse) {
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.mkdirSync(dataDir, { recursive: true });
  await createDatabase(PG_BASE, KEPT_DB);
}
const mark = (m: Omit<Marker, 'corpus' | 'users' | 'key'>) =>
  fs.writeFileSync(markerFile, JSON.stringify({ corpus: CORPUS_ID, users: USERS, key, seeded_by: 'seed-store', ...m }));

// The server's own configuration for this store (defaults otherwise), as bench:search starts it.
const config = loadConfig({ ...process.env, DATA_DIR: dataDir, DATABASE_URL: url, LOG_LEVEL: 'warn' });
const log = createLogger('warn');
const db: Db = await openDb(config); // migrates, as the server does at start
await bootstrap(db, { bootstrapKey: key, dataDir, log });

// The composition of src/app.ts for what a batch write needs (webhooks only for the publisher).
const webhooks = createWebhooksModule({ allowPrivate: false, maxAttempts: 1, timeoutMs: 1000 });
const publish = createEventPublisher([webhooks.onEvent]);
const lanes = Array.from({ length: LANES }, () => embeddersFromConfig(config, log));
const extractor = lazyExtractor(LOCAL_EXTRACTOR_ID, async () =>
  (await import('../src/platform/models/extractor.local.ts')).createLocalExtractor(),
);
const graph = createGraphModule({
  db,
  log,
  extractor,
  embed: (texts) => lanes[0].query.primary.embed(texts),
  schemas: createSchemasModule({ db, namespaces: namespaceAccess }),
});
const services = lanes.map(
  (models) =>
    createMemoriesModule({
      db,
      log,
      embedders: models.index,
      maxContentBytes: config.MAX_CONTENT_BYTES,
      // MEMORY_DEDUPE / MEMORY_SUPERSEDE as the server reads them (docs/truth.md).
      truth: { dedupe: config.MEMORY_DEDUPE, supersede: config.MEMORY_SUPERSEDE },
      publish,
      webhooks: webhooks.webhooks,
      users: userDirectory,
      namespaces: namespaceAccess,
      planGraph: graph.planFor,
    }).service,
);
const auth = createAuthModule({ db, keys: apiKeyStore, users: userDirectory });
const actor = await auth.authenticator.authenticate({ 'x-api-key': key });
await Promise.all(lanes.map((l) => l.load()));
const worker = GRAPH ? buildWorker({ config, db, log, models: lanes[0] }) : null;
await worker?.start();
// The product's maintenance (the vacuum pass where autovacuum is off), as in a worker process.
const { startMaintenance } = await import('../src/retention.ts');
const stopMaintenance = startMaintenance(db, config, log);

/** Whether corpus memory `i` is stored (its user, content and createdAt identify it). */
async function stored(i: number): Promise<boolean> {
  const m = syntheticMemory(i, USERS);
  const rows = await db.query(
    `SELECT 1 FROM memories WHERE organization_id = $1 AND external_user_id = $2 AND content = $3
       AND metadata->>'createdAt' = $4 LIMIT 1`,
    [actor.organizationId, m.external_user_id, m.content, m.metadata.createdAt],
  );
  return rows.length > 0;
}

const start = reuse ? old.ingested : 0;
// Groups after the confirmed count: a previous run may have committed some of them.
const groups: number[] = [];
for (let g = start; g < SIZE; g += GROUP) {
  const last = Math.min(g + GROUP, SIZE) - 1;
  if (reuse && old.pending !== undefined && (await stored(g)) && (await stored(last))) continue;
  groups.push(g);
}
console.log(
  `seeding ${KEPT_DB}: ${start} confirmed, ${groups.length} groups of ${GROUP} to store up to ${SIZE}, ` +
    `${LANES} lanes${GRAPH ? ', graph built by the worker' : ', no graph'}`,
);
mark({ ingested: start, pending: SIZE });
if (BULK) {
  const dropped = await db.query<{ name: string }>(
    `SELECT c.relname AS name FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
     WHERE i.indrelid = 'memory_chunks'::regclass
       AND (c.relname LIKE 'memory_chunks\\_embedding%' OR c.relname LIKE 'memory_chunks\\_scan\\_%')`,
  );
  for (const { name } of dropped) await db.exec(`DROP INDEX IF EXISTS ${name}`);
  console.log(`bulk load: dropped ${dropped.map((r) => r.name).join(', ') || 'no vector index'}`);
}

const t0 = performance.now();
let done = 0;
let confirmed = start;
const finished = new Set<number>();
let next = 0;
async function lane(l: number) {
  for (;;) {
    const i = next++;
    if (i >= groups.length) return;
    const g = groups[i];
    const items: AddMemory[] = [];
    for (let k = g; k < Math.min(g + GROUP, SIZE); k++) items.push(syntheticMemory(k, USERS));
    const r = await services[l].addBatch(actor, items, {}, items.length, { skipBackgroundProcessing: !GRAPH });
    if (r.errors.length) throw new Error(`group at ${g}: ${r.errors.length} failed; first: ${r.errors[0].error}`);
    done += items.length;
    // The confirmed count advances over contiguous finished groups only (what a resume trusts).
    finished.add(g);
    while (finished.has(confirmed)) {
      finished.delete(confirmed);
      confirmed = Math.min(confirmed + GROUP, SIZE);
    }
    mark({ ingested: confirmed, pending: SIZE });
    if ((i + 1) % 20 === 0 || i === groups.length - 1) {
      const s = (performance.now() - t0) / 1000;
      console.log(`${new Date().toISOString()} ${confirmed} in; ${(done / s).toFixed(1)} memories/s this run`);
    }
  }
}
await Promise.all(lanes.map((_, l) => lane(l)));
const seconds = (performance.now() - t0) / 1000;
console.log(`stored ${done} memories in ${seconds.toFixed(1)} s: ${(done / seconds).toFixed(1)} memories/s`);

if (worker) {
  const t1 = performance.now();
  for (;;) {
    const [{ n }] = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM jobs WHERE kind = 'memory.process' AND status IN ('queued', 'running', 'failed')`,
    );
    if (n === 0) break;
    await new Promise((r) => setTimeout(r, 2000));
  }
  console.log(`graph: every memory processed ${((performance.now() - t1) / 1000).toFixed(1)} s after the last group`);
  await worker.stop();
}
stopMaintenance();
if (BULK) {
  const t3 = performance.now();
  await prepareVectorStore(db, lanes[0].index, log);
  console.log(`vector indexes built in ${((performance.now() - t3) / 1000).toFixed(1)} s`);
}
// As after a normal ingest once autovacuum (or the worker's pass) caught up: visibility map set,
// statistics current.
const t2 = performance.now();
const admin = new pg.Client({ connectionString: url });
await admin.connect();
await admin.query('VACUUM (ANALYZE) memories, memory_chunks');
await admin.end();
console.log(`vacuum analyse ${((performance.now() - t2) / 1000).toFixed(1)} s`);
mark({ ingested: SIZE });
await Promise.all(lanes.map((l) => l.close()));
await db.close();
