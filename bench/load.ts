/**
 * Mixed load (issue #17, finding 9): searches while writes run, as a busy deployment sees
 * them. One real server process (the build, dist/main.js) on a store made for the run is seeded through
 * the batch endpoint (LOAD_SEED memories across LOAD_USERS users, processed to the end), then
 * LOAD_CONNECTIONS closed-loop clients (each sends its next request when its previous one
 * answered, over a kept-alive loopback connection) run for LOAD_SECONDS with this mix, drawn
 * per client from a seeded PRNG (the same sequence of kinds on every run):
 *   70 % search      POST /v1/memory/search, a distinct natural-language query about one user
 *   20 % add         POST /v1/memory (background processing on: graph jobs run meanwhile)
 *    5 % batch       POST /v1/memory/batch with 10 memories (one group)
 *    5 % get+delete  GET then DELETE of a memory this run wrote (one written during the load
 *                    if any, else a seeded one: most are still being processed when deleted)
 * Then it waits until background processing has caught up and checks integrity: every
 * acknowledged memory (single adds and batch items) is found by GET and stored exactly once
 * (one row per write, per-user row counts as expected, read with SQL once the server has
 * stopped), and every deleted one answers 404 and has no row.
 *
 *   npm run bench:load
 *   LOAD_SECONDS=15 LOAD_SEED=500 npx tsx bench/load.ts        (a smoke run)
 *
 * Env: LOAD_STORE (postgres | pglite; default postgres), LOAD_SECONDS (60), LOAD_CONNECTIONS
 * (12), LOAD_SEED (2000), LOAD_USERS (20), LOAD_RNG_SEED (1), LOAD_TIMEOUT_MS (per request,
 * 60000; a timeout is an error), LOAD_DRAIN_TIMEOUT_S (900), LOAD_KEEP=1 (keep the database,
 * or the PGlite data dir, and print where it is), BENCH_DATABASE_URL (the PostgreSQL server
 * the run's database is created on; default postgres://postgres@127.0.0.1:5432/test).
 * Server settings come from the environment too (e.g. WORKER_CONCURRENCY=2), and
 * SERVER_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" profiles the server (test/process.ts).
 *
 * What it prints:
 * - per kind of request (get and delete are the two halves of get+delete): how many answered
 *   2xx, per second of the run, and p50/p95/p99 of the full request time (client clock, body
 *   read). Percentiles only (nearest rank), no averages: queueing makes the tail the story.
 *   These are latencies under load, not a request's own cost (bench:search measures that).
 * - errors by kind and status: any non-2xx, a batch that did not store every item, a body of
 *   the wrong shape, a timeout; a 404 on a GET of our own memory is a lost memory.
 * - the server process's CPU (all its threads, in cores) and RSS over the load, the PostgreSQL
 *   backends' CPU, this client's, and how busy the whole machine was: on a shared machine
 *   the numbers are only as good as that last figure.
 * - the backlog of background processing when the load stopped, and how long it took to clear.
 * - PASS/FAIL of the integrity check, and the issue's target beside this run's numbers.
 * Exit status 1 on FAIL or on any 5xx. The last line is the whole result as JSON.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import pg from 'pg';
import { openPglite } from '../src/platform/db/pglite.ts';
import { MODELS_CACHE } from '../test/harness.ts';
import { syntheticQueries } from './lib/corpus.ts';
import { checkByApi, checkRows, drain, type MemoryRowLite } from './lib/load-check.ts';
import { createLedger, createRecorder, httpCall, KINDS, MIX, runLoad, seedStore } from './lib/load-traffic.ts';
import { cpuBetween, cpuOf, watchProcess } from './lib/proc-stats.ts';
import { createDatabase, dropDatabase, newApiKey, startBenchServer, tmpDir } from './lib/server.ts';
import { fmt, percentile } from './stats.ts';

const STORE = process.env.LOAD_STORE || 'postgres';
const SECONDS = Number(process.env.LOAD_SECONDS || 60);
const CONNECTIONS = Number(process.env.LOAD_CONNECTIONS || 12);
const SEED = Number(process.env.LOAD_SEED || 2000);
const USERS = Number(process.env.LOAD_USERS || 20);
const RNG_SEED = Number(process.env.LOAD_RNG_SEED || 1);
const TIMEOUT_MS = Number(process.env.LOAD_TIMEOUT_MS || 60_000);
const DRAIN_TIMEOUT_MS = Number(process.env.LOAD_DRAIN_TIMEOUT_S || 900) * 1000;
const KEEP = process.env.LOAD_KEEP === '1';
const PG_BASE = process.env.BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
const WARMUP = 20; // searches before the load: JIT, model threads and caches warm
const TARGET = 'target (PostgreSQL): 0 errors, search p99 ≤ 250 ms with the writes running';
if (STORE !== 'postgres' && STORE !== 'pglite') throw new Error(`LOAD_STORE: unknown store ${STORE}`);

// Distinct queries (a repeated text would hit the query-embedding cache): more than the run can send.
const queries = syntheticQueries(Math.max(2000, CONNECTIONS * SECONDS * 15) + WARMUP, USERS);
const dataDir = tmpDir();
const dbName = STORE === 'postgres' ? `engram_bench_load_${randomBytes(4).toString('hex')}` : undefined;
const dbUrl = dbName ? await createDatabase(PG_BASE, dbName) : undefined;
const key = newApiKey();
const server = await startBenchServer({ dataDir, key, databaseUrl: dbUrl, env: { MODELS_CACHE_DIR: MODELS_CACHE } });
const pid = server.proc.pid!;
const call = httpCall(server.url, key, TIMEOUT_MS);
const rec = createRecorder();
const ledger = createLedger();
const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** Pids of the PostgreSQL backends serving the run's database (empty on PGlite). */
async function backends(): Promise<number[]> {
  if (!dbUrl) return [];
  const c = new pg.Client({ connectionString: dbUrl });
  await c.connect();
  try {
    const r = await c.query<{ pid: number }>(
      'SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
    );
    return r.rows.map((x) => x.pid);
  } finally {
    await c.end();
  }
}

/** Every memory row, read once the server has stopped (PGlite: only one process may open it). */
async function memoryRows(): Promise<MemoryRowLite[]> {
  const sql = 'SELECT id, external_user_id, content FROM memories';
  if (dbUrl) {
    const c = new pg.Client({ connectionString: dbUrl });
    await c.connect();
    try {
      return (await c.query<MemoryRowLite>(sql)).rows;
    } finally {
      await c.end();
    }
  }
  const db = await openPglite(dataDir);
  try {
    return await db.query<MemoryRowLite>(sql);
  } finally {
    await db.close();
  }
}

let exitCode = 1;
try {
  console.log(
    `load: ${STORE}, ${CONNECTIONS} connections, ${SECONDS} s, mix ${JSON.stringify(MIX)}, ` +
      `seed ${SEED} memories across ${USERS} users, rng seed ${RNG_SEED}`,
  );
  const t = performance.now();
  await seedStore(call, ledger, SEED, USERS);
  const seeded = performance.now() - t;
  const seedDrain = await drain(call, ledger, DRAIN_TIMEOUT_MS);
  console.log(`seed: ${SEED} memories stored in ${secs(seeded)}, all processed ${secs(seedDrain.ms)} later`);
  for (const q of queries.slice(-WARMUP))
    rec.record('search', await call('POST', '/v1/memory/search', { query: q.query, external_user_id: q.user }));
  const warmupErrors = [...rec.errors];
  if (warmupErrors.length) throw new Error(`warm-up searches failed: ${JSON.stringify(warmupErrors)}`);
  rec.ok.search.length = 0;
  ledger.batchIds.length = 0; // the seed's are processed; only the load's are followed from here

  const watch = watchProcess(pid);
  const pg0 = cpuOf(await backends());
  const cpu0 = process.cpuUsage();
  const wallMs = await runLoad(call, rec, ledger, {
    seconds: SECONDS,
    connections: CONNECTIONS,
    users: USERS,
    rngSeed: RNG_SEED,
    queries: queries.slice(0, -WARMUP),
    firstIndex: SEED,
  });
  const srv = watch.stop();
  const pgCores = dbUrl ? cpuBetween(pg0, cpuOf(await backends())) / (wallMs / 1000) : NaN;
  const cpu1 = process.cpuUsage(cpu0);
  const clientCores = (cpu1.user + cpu1.system) / 1000 / wallMs;

  const rows: string[] = [];
  const stats: Record<string, unknown> = {};
  const all = KINDS.flatMap((k) => rec.ok[k]);
  for (const [kind, lat] of [...KINDS.map((k) => [k, rec.ok[k]] as const), ['all', all] as const]) {
    const errs = [...rec.errors].filter(([k]) => kind === 'all' || k.startsWith(`${kind} `));
    const n = errs.reduce((s, [, c]) => s + c, 0);
    const p = (q: number) => (lat.length ? percentile(lat, q) : NaN);
    const label = kind === 'batch' ? 'batch (10)' : kind === 'get' || kind === 'delete' ? `${kind} (get+delete)` : kind;
    rows.push(
      `| ${label} | ${lat.length} | ${(lat.length / (wallMs / 1000)).toFixed(1)} | ${fmt(p(50))} | ` +
        `${fmt(p(95))} | ${fmt(p(99))} | ${n} |`,
    );
    stats[kind] = {
      ok: lat.length,
      per_s: lat.length / (wallMs / 1000),
      p50: p(50),
      p95: p(95),
      p99: p(99),
      errors: n,
    };
  }
  const writtenPerSec = (rec.ok.add.length + 10 * rec.ok.batch.length) / (wallMs / 1000);
  console.log(`\n${CONNECTIONS} closed-loop clients for ${secs(wallMs)} on ${STORE} (latencies of 2xx answers):\n`);
  console.log('| kind | 2xx | per s | p50 | p95 | p99 | errors |\n|---|---|---|---|---|---|---|');
  for (const r of rows) console.log(r);
  const errorList = [...rec.errors].map(([k, c]) => `${k} ×${c}`);
  console.log(`\nerrors by status: ${errorList.length ? errorList.join(', ') : 'none'}`);
  console.log(`memories written: ${writtenPerSec.toFixed(1)}/s (adds + batch items acknowledged)`);
  console.log(
    `server process: ${srv.cores.toFixed(2)} cores, RSS peak ${srv.peakRssMb.toFixed(0)} MB ` +
      `(end ${srv.endRssMb.toFixed(0)} MB)` +
      (dbUrl ? `; PostgreSQL backends: ${pgCores.toFixed(2)} cores` : '') +
      `; this client: ${clientCores.toFixed(2)} cores; machine: ${(100 * srv.machineBusy).toFixed(0)} % of ` +
      `its cores busy (every process)`,
  );

  const d = await drain(call, ledger, DRAIN_TIMEOUT_MS);
  console.log(
    `background processing: ${d.backlog} memories still to process when the load stopped; ` +
      `all done ${secs(d.ms)} later, ${d.failed.length} failed`,
  );
  const api = await checkByApi(call, ledger);
  await server.stop();
  const check = checkRows(await memoryRows(), ledger);
  const problems: [string, string[]][] = [
    ['processing failed', d.failed],
    ['GET does not find acknowledged', api.missing],
    ['GET still finds deleted', api.resurrected],
    ['no row for acknowledged', check.missing],
    ['stored more than once', check.duplicated],
    ['row still there for deleted', check.resurrected],
    ['rows nobody wrote', check.unexpected],
    ['per-user row count (rows/expected)', check.userCounts],
  ];
  const failures = problems.filter(([, xs]) => xs.length);
  const pass = failures.length === 0;
  console.log(
    `integrity: ${ledger.live.size} acknowledged memories (${SEED} seeded), ${ledger.deleted.size} deleted, ` +
      `${ledger.unsure.size} failed deletes and ${ledger.unacknowledged.size} failed writes left out ` +
      `(${check.unacknowledgedStored} of those stored anyway) → ` +
      (pass ? 'PASS' : `FAIL: ${failures.map(([what, xs]) => `${what}: ${xs.slice(0, 5).join(', ')}`).join('; ')}`),
  );
  const errors = [...rec.errors.values()].reduce((s, c) => s + c, 0);
  const p99 = rec.ok.search.length ? percentile(rec.ok.search, 99) : NaN;
  console.log(`\n${TARGET}`);
  console.log(
    `this run (${STORE}): ${errors} errors, search p99 ${fmt(p99)} → ` +
      `${STORE === 'postgres' && errors === 0 && p99 <= 250 ? 'met' : 'not met'}`,
  );
  console.log(
    JSON.stringify({
      bench: 'load',
      store: STORE,
      seconds: wallMs / 1000,
      connections: CONNECTIONS,
      seed: SEED,
      users: USERS,
      rng_seed: RNG_SEED,
      kinds: stats,
      errors: Object.fromEntries(rec.errors),
      memories_written_per_s: writtenPerSec,
      server_cores: srv.cores,
      server_rss_peak_mb: srv.peakRssMb,
      postgres_cores: dbUrl ? pgCores : null,
      client_cores: clientCores,
      machine_busy: srv.machineBusy,
      backlog_at_end: d.backlog,
      drain_ms: d.ms,
      integrity: pass ? 'PASS' : 'FAIL',
    }),
  );
  exitCode = pass && rec.serverErrors() === 0 ? 0 : 1;
} catch (err) {
  console.error(`server output (tail):\n${server.output().slice(-4000)}`);
  console.error(err);
} finally {
  await server.stop();
  if (KEEP) console.log(`kept: ${dbUrl ?? dataDir} (API key ${key})`);
  else {
    if (dbName) await dropDatabase(PG_BASE, dbName);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
process.exit(exitCode);
