/**
 * Fill the kept PGlite store of `bench:search` with a copy of the kept PostgreSQL store, so
 * the 100k-memory searches on PGlite do not need a second hour-long ingest. The copy is
 * row for row what the product wrote through the HTTP API on PostgreSQL (same key, users,
 * memories, vectors, graph); search latency is then measured on PGlite by
 * `SEARCH_STORES=pglite SEARCH_KEEP_DIR=<dir> npm run bench:search`, which finds the store
 * already holding its sizes and only searches. (Ingest throughput on PGlite is measured at
 * 10k by a normal run; this copy says nothing about it.)
 *
 *   SEARCH_KEEP_DIR=<dir> npx tsx bench/seed-pglite.ts
 *
 * The vector indexes of the copy are built after it (100k memories: ~2.5 min), which is
 * faster than maintaining them row by row. Measured: 100k memories copied in 2.2 min.
 */
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { migrate } from '../src/platform/db/index.ts';
import { openPglite } from '../src/platform/db/pglite.ts';
import { ensureVectorIndex } from '../src/modules/search/dense.store.ts';
import { databaseUrl } from './lib/server.ts';

const KEEP_DIR = process.env.SEARCH_KEEP_DIR;
if (!KEEP_DIR) throw new Error('SEARCH_KEEP_DIR: the directory of a kept bench:search run');
const PG_BASE = process.env.BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
const BATCH = 500;

const pgMarker = JSON.parse(fs.readFileSync(path.join(KEEP_DIR, 'postgres', 'bench.json'), 'utf8'));
if (pgMarker.pending !== undefined) throw new Error('the kept PostgreSQL store has an unfinished ingest');
const source = new pg.Client({
  connectionString: databaseUrl(PG_BASE, process.env.SEARCH_KEEP_DB || 'engram_bench_search'),
});
await source.connect();

const pgliteDir = path.join(KEEP_DIR, 'pglite');
fs.rmSync(pgliteDir, { recursive: true, force: true });
const target = await openPglite(path.join(pgliteDir, 'data'));
await migrate(target);
// The copy goes in without vector indexes (those of the default models come with migration
// 0013, the server builds others at start), and they are built once at the end.
for (const { name } of await target.query<{ name: string }>(
  `SELECT indexname AS name FROM pg_indexes WHERE tablename = 'memory_chunks'
     AND (indexname LIKE 'memory\\_chunks\\_embedding%' OR indexname LIKE 'memory\\_chunks\\_scan\\_%')`,
))
  await target.exec(`DROP INDEX ${name}`);

const tables = (
  await source.query<{ table_name: string }>(
    `SELECT table_name FROM information_schema.tables
     WHERE table_schema = 'public' AND table_type = 'BASE TABLE' AND table_name <> 'schema_migrations' ORDER BY 1`,
  )
).rows.map((r) => r.table_name);

const t0 = performance.now();
await source.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY'); // one snapshot for every table
for (const table of tables) {
  const cols = (
    await source.query<{ column_name: string }>(
      `SELECT column_name FROM information_schema.columns
       WHERE table_schema = 'public' AND table_name = $1 AND is_generated = 'NEVER' ORDER BY ordinal_position`,
      [table],
    )
  ).rows
    .map((r) => `"${r.column_name}"`)
    .join(', ');
  await source.query(
    `DECLARE rows_of_${table} NO SCROLL CURSOR FOR
     SELECT row_to_json(t)::text AS j FROM (SELECT ${cols} FROM "${table}") t`,
  );
  let copied = 0;
  await target.transaction(async (tx) => {
    // A verbatim copy: no triggers (graph pruning, event notifications), no FK order to keep.
    await tx.exec(`SET LOCAL session_replication_role = replica`);
    await tx.exec(`DELETE FROM "${table}"`); // rows the migrations seeded come over from the source
    for (;;) {
      const { rows } = await source.query<{ j: string }>(`FETCH ${BATCH} FROM rows_of_${table}`);
      if (!rows.length) break;
      await tx.query(
        `INSERT INTO "${table}" (${cols}) SELECT ${cols} FROM json_populate_recordset(null::"${table}", $1::json)`,
        [`[${rows.map((r) => r.j).join(',')}]`],
      );
      copied += rows.length;
    }
  });
  console.log(`${table.padEnd(24)} ${copied}`);
}
await source.query('COMMIT');
console.log(`copied in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
await target.exec(`SET maintenance_work_mem = '1GB'`);
for (const slot of ['embedding', 'embedding2'] as const) {
  const models = await target.query<{ model: string; dims: number }>(
    `SELECT DISTINCT ${slot}_model AS model, vector_dims(${slot}) AS dims FROM memory_chunks
     WHERE ${slot}_model IS NOT NULL`,
  );
  for (const { model, dims } of models) {
    const t = performance.now();
    await ensureVectorIndex(target, slot, model, dims);
    console.log(`${slot} index (${model}): built in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  }
}
await target.exec('VACUUM ANALYZE');
await target.close();
await source.end();
fs.writeFileSync(path.join(pgliteDir, 'bench.json'), JSON.stringify({ ...pgMarker, copied_from: 'postgres' }));
