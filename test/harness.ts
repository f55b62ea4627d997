import pg from 'pg';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createHash, randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { loadConfig, type Config } from '../src/config.ts';
import { buildApp } from '../src/app.ts';
import { openPglite } from '../src/platform/db/pglite.ts';
import { openPostgres } from '../src/platform/db/postgres.ts';
import { migrate, type Db } from '../src/platform/db/index.ts';
import { createLogger } from '../src/platform/log.ts';
import { ROOT_DIR } from '../src/platform/root.ts';
import { bootstrap } from '../src/modules/organizations/bootstrap.ts';

/** The PostgreSQL server the suite uses; unreachable means the PostgreSQL half fails, never skips. */
export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';

/** Converted model files shared by all tests (the first conversion takes seconds). */
export const MODELS_CACHE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../.cache/models');

export interface TestStore {
  name: 'pglite' | 'postgres';
  /** A fresh, migrated, empty database. */
  open(): Promise<Db>;
}

/** A new empty database on the test server, and how to drop it. */
export async function scratchDatabase(base = TEST_DATABASE_URL): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `engram_t_${randomBytes(6).toString('hex')}`;
  const admin = async (sql: string) => {
    const c = new pg.Client({ connectionString: base });
    await c.connect();
    try {
      await c.query(sql);
    } finally {
      await c.end();
    }
  };
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(base);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

/** A throwaway database on the test server, dropped when the returned Db closes; `url` reaches it from elsewhere. */
async function freshPostgres(): Promise<Db> {
  const scratch = await scratchDatabase();
  const db = await openPostgres(scratch.url, 5);
  const close = db.close;
  const fresh: Db & { url: string } = {
    ...db,
    url: scratch.url,
    close: async () => {
      await close();
      await scratch.drop();
    },
  };
  return fresh;
}

/** Where the migrated PGlite snapshot is kept between test processes. */
const SNAPSHOTS = path.join(ROOT_DIR, '.cache/test-pglite');
let snapshot: Promise<Blob> | null = null;

/**
 * A freshly migrated embedded store's data directory, as a tarball: a new cluster (initdb in
 * WASM) costs ~1.4 s and the migrations ~0.25 s, loading the tarball ~0.3 s, and the suite opens
 * about a hundred and fifty embedded stores, one process per file. Built once per migrations'
 * content and PGlite version and kept in .cache/ (written whole then renamed, so processes
 * starting together never read half a file; older snapshots removed then); a process that finds
 * none builds it.
 */
function migratedSnapshot(): Promise<Blob> {
  snapshot ??= (async () => {
    const migrations = path.join(ROOT_DIR, 'migrations');
    const hash = createHash('sha256');
    for (const f of fs.readdirSync(migrations).sort()) hash.update(f).update(fs.readFileSync(path.join(migrations, f)));
    // And the engine's version: another PGlite may not read an older one's data directory.
    hash.update(fs.readFileSync(path.join(ROOT_DIR, 'node_modules/@electric-sql/pglite/package.json')));
    const file = path.join(SNAPSHOTS, `migrated-${hash.digest('hex').slice(0, 16)}.tar`);
    if (fs.existsSync(file)) return new Blob([fs.readFileSync(file)]);
    const db = await openPglite();
    try {
      await migrate(db);
      const blob = await db.dump();
      fs.mkdirSync(SNAPSHOTS, { recursive: true });
      const tmp = `${file}.${process.pid}.tmp`;
      fs.writeFileSync(tmp, Buffer.from(await blob.arrayBuffer()));
      fs.renameSync(tmp, file);
      for (const f of fs.readdirSync(SNAPSHOTS))
        if (/^migrated-\w+\.tar$/.test(f) && f !== path.basename(file))
          fs.rmSync(path.join(SNAPSHOTS, f), { force: true });
      return blob;
    } finally {
      await db.close();
    }
  })();
  snapshot.catch(() => (snapshot = null));
  return snapshot;
}

/** Both stores every database test runs on. */
export const testStores: TestStore[] = [
  {
    name: 'pglite',
    open: async () => {
      const db = await openPglite(undefined, { snapshot: await migratedSnapshot() });
      // A no-op on the snapshot (every migration recorded); it would catch up a stale one.
      await migrate(db);
      return db;
    },
  },
  {
    name: 'postgres',
    open: async () => {
      const db = await freshPostgres();
      await migrate(db);
      return db;
    },
  },
];

export function testConfig(overrides: Record<string, string> = {}): Config {
  // In-process apps run USE lite on the main thread: the vectors are the same, and two model
  // threads per app would load it twice more for each of the suite's ~50 apps. The spawned
  // servers of the contract and process tests run the default (EMBEDDER_THREADS on).
  return loadConfig({
    // TEST_LOG_LEVEL=error shows the apps' errors (a 500's cause) in a test's output.
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    DATA_DIR: '/tmp/engram-test-unused',
    MODELS_CACHE_DIR: MODELS_CACHE,
    RATE_LIMIT_MAX: '100000',
    EMBEDDER_THREADS: 'false',
    ...overrides,
  });
}

export interface TestApp {
  app: FastifyInstance;
  db: Db;
  /** The bootstrap organization's id and its organization-wide key. */
  orgId: string;
  key: string;
  close(): Promise<void>;
}

/** A server (not listening; use `app.inject` or `app.listen`) over a fresh store with a known key. */
export async function startApp(
  store: TestStore,
  opts: { env?: Record<string, string>; beforeReady?: (app: FastifyInstance) => void } = {},
): Promise<TestApp> {
  const db = await store.open();
  const key = `ek_org_test_${randomBytes(16).toString('hex')}`;
  const config = testConfig({ BOOTSTRAP_API_KEY: key, ...opts.env });
  const log = createLogger((process.env.TEST_LOG_LEVEL as 'silent') ?? 'silent');
  const { organizationId } = await bootstrap(db, { bootstrapKey: key, dataDir: config.DATA_DIR, log });
  const app = await buildApp({ config, db, log });
  opts.beforeReady?.(app);
  await app.ready();
  return {
    app,
    db,
    orgId: organizationId,
    key,
    close: async () => {
      await app.close();
      await db.close();
    },
  };
}

/**
 * What spawned PostgreSQL-backed processes share in a scenario test: a throwaway database, a
 * data directory, a known organization key, and their environment (`extra` added); `cleanup`
 * drops the database and the directory.
 */
export async function scenarioStore(prefix: string, extra: Record<string, string> = {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const scratch = await scratchDatabase();
  const key = `ek_org_${randomBytes(20).toString('hex')}`;
  const env: Record<string, string> = {
    DATA_DIR: dir,
    DATABASE_URL: scratch.url,
    BOOTSTRAP_API_KEY: key,
    MODELS_CACHE_DIR: MODELS_CACHE,
    RATE_LIMIT_MAX: '0',
    ...extra,
  };
  return {
    key,
    env,
    databaseUrl: scratch.url,
    async cleanup() {
      await scratch.drop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
