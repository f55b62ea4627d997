/**
 * Servers and stores for benchmarks: the built server as a real process (test/process.ts)
 * on PGlite in a directory or on a PostgreSQL database made for the run.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { startServer, type Server } from '../../test/process.ts';

/** A fresh organization key for BOOTSTRAP_API_KEY. */
export const newApiKey = () => `ek_org_${randomBytes(20).toString('hex')}`;

/** A new empty directory under the system temp dir. */
export const tmpDir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'engram-bench-'));

/**
 * Start a server with `key` as its bootstrap key and no rate limit, on PostgreSQL when
 * `databaseUrl` is given, else on PGlite in `dataDir` (which also holds the model caches).
 */
export function startBenchServer(opts: {
  dataDir: string;
  key: string;
  databaseUrl?: string;
  env?: Record<string, string>;
}): Promise<Server> {
  return startServer(
    {
      DATA_DIR: opts.dataDir,
      // Empty means unset to the config loader: a DATABASE_URL in our shell must not turn a PGlite run into a PG one.
      DATABASE_URL: opts.databaseUrl ?? '',
      BOOTSTRAP_API_KEY: opts.key,
      RATE_LIMIT_MAX: '0',
      LOG_LEVEL: 'warn',
      ...opts.env,
    },
    300_000, // the first start on a new DATA_DIR converts the GloVe table and loads the models
  );
}

/** `baseUrl` with its database replaced by `name`. */
export function databaseUrl(baseUrl: string, name: string): string {
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function asAdmin<T>(baseUrl: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: baseUrl });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

function checkName(name: string): string {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`Unsafe database name ${JSON.stringify(name)}`);
  return name; // interpolated into DDL, which takes no parameters
}

/** Create database `name` on the server of `baseUrl`, replacing any database of that name; returns its URL. */
export async function createDatabase(baseUrl: string, name: string): Promise<string> {
  await asAdmin(baseUrl, async (c) => {
    await c.query(`DROP DATABASE IF EXISTS ${checkName(name)} WITH (FORCE)`);
    await c.query(`CREATE DATABASE ${name}`);
  });
  return databaseUrl(baseUrl, name);
}

/** Drop database `name` on the server of `baseUrl` if it exists. */
export function dropDatabase(baseUrl: string, name: string): Promise<void> {
  return asAdmin(baseUrl, async (c) => {
    await c.query(`DROP DATABASE IF EXISTS ${checkName(name)} WITH (FORCE)`);
  });
}

/**
 * Run `fn` against a server on a store made for it: a throwaway PostgreSQL database on the
 * server of `pgBaseUrl` when given, else PGlite in a temp dir. Both are removed afterwards.
 */
export async function withFreshServer<T>(
  pgBaseUrl: string | undefined,
  fn: (server: Server, key: string) => Promise<T>,
  env?: Record<string, string>,
): Promise<T> {
  const dataDir = tmpDir();
  const dbName = pgBaseUrl ? `engram_bench_${randomBytes(4).toString('hex')}` : undefined;
  try {
    const url = pgBaseUrl && dbName ? await createDatabase(pgBaseUrl, dbName) : undefined;
    const key = newApiKey();
    const server = await startBenchServer({ dataDir, key, databaseUrl: url, env });
    try {
      return await fn(server, key);
    } catch (err) {
      console.error(`server output (tail):\n${server.output().slice(-4000)}`); // the why is usually in there
      throw err;
    } finally {
      await server.stop();
    }
  } finally {
    if (pgBaseUrl && dbName) await dropDatabase(pgBaseUrl, dbName);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
