/**
 * Foundation benchmark: cold start (first start on an empty store, process spawn to
 * first successful /health) and GET /me latency (median of 1000 sequential calls over
 * keep-alive), on the embedded store and on PostgreSQL. Prints medians; no assertions.
 *
 *   npm run bench:foundation            (BENCH_DATABASE_URL defaults to the local test server)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { startServer } from '../test/process.ts';
import { fmt, median, percentile } from './stats.ts';

const BASE = process.env.BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
const CALLS = Number(process.env.BENCH_CALLS || 1000);
const COLD_RUNS = Number(process.env.BENCH_COLD_RUNS || 3);

async function coldStart(env: Record<string, string>): Promise<number> {
  const t0 = performance.now();
  const s = await startServer({ ...env, LOG_LEVEL: 'info' });
  const ms = performance.now() - t0;
  await s.stop();
  return ms;
}

async function meLatency(env: Record<string, string>, key: string): Promise<number[]> {
  const s = await startServer({ ...env, LOG_LEVEL: 'warn', RATE_LIMIT_MAX: '0' });
  try {
    const times: number[] = [];
    for (let i = 0; i < CALLS + 50; i++) {
      const t0 = performance.now();
      const res = await fetch(`${s.url}/me`, { headers: { 'X-API-Key': key } });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`/me answered ${res.status}`);
      if (i >= 50) times.push(performance.now() - t0); // first 50 are warm-up
    }
    return times;
  } finally {
    await s.stop();
  }
}

async function withPgDatabase<T>(fn: (url: string) => Promise<T>): Promise<T> {
  const name = `engram_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: BASE });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(BASE);
  url.pathname = `/${name}`;
  try {
    return await fn(url.toString());
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}

const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'engram-bench-'));
const key = `ek_org_${randomBytes(20).toString('hex')}`;

const rows: string[] = [];
{
  const colds: number[] = [];
  for (let i = 0; i < COLD_RUNS; i++) colds.push(await coldStart({ DATA_DIR: tmp() }));
  const dir = tmp();
  await coldStart({ DATA_DIR: dir, BOOTSTRAP_API_KEY: key });
  const warm = await coldStart({ DATA_DIR: dir, BOOTSTRAP_API_KEY: key });
  const me = await meLatency({ DATA_DIR: dir, BOOTSTRAP_API_KEY: key }, key);
  rows.push(
    `pglite    cold start median ${fmt(median(colds))} (n=${COLD_RUNS}); restart ${fmt(warm)}; /me p50 ` +
      `${fmt(median(me))} p95 ${fmt(percentile(me, 95))} (n=${me.length})`,
  );
}
{
  const colds: number[] = [];
  for (let i = 0; i < COLD_RUNS; i++)
    colds.push(await withPgDatabase((url) => coldStart({ DATA_DIR: tmp(), DATABASE_URL: url })));
  const me = await withPgDatabase((url) =>
    meLatency({ DATA_DIR: tmp(), DATABASE_URL: url, BOOTSTRAP_API_KEY: key }, key),
  );
  rows.push(
    `postgres  cold start median ${fmt(median(colds))} (n=${COLD_RUNS}); /me p50 ${fmt(median(me))} p95 ` +
      `${fmt(percentile(me, 95))} (n=${me.length})`,
  );
}
console.log(rows.join('\n'));
