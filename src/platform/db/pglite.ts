import { PGlite, types } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { SESSION_SETTINGS, type Db, type Queryable } from './db.ts';
import { acquireDirLock } from './dir-lock.ts';
import { initClusterApart } from './pglite-init.ts';

/** int8 (counts, sums) as JS numbers on both stores; our values stay far below 2^53. */
const parsers = { [types.INT8]: (v: string) => Number(v) };

let engine: Promise<{ pgliteWasmModule?: WebAssembly.Module; fsBundle?: Blob }> | null = null;

/**
 * PGlite's engine (its WebAssembly module and file-system bundle), read and compiled once per
 * process: PGlite otherwise does both for every store it opens. A server opens one store, but the
 * test suite opens one or more per file, ~150 in all, and reuse saves 0.3–0.5 s of each
 * 1.3–1.8 s open (measured on this machine's 2 cores).
 */
function pgliteEngine() {
  engine ??= (async () => {
    const dist = path.dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'));
    const [wasm, data] = await Promise.all(
      ['pglite.wasm', 'pglite.data'].map((f) => fs.promises.readFile(path.join(dist, f))),
    );
    return { pgliteWasmModule: await WebAssembly.compile(wasm), fsBundle: new Blob([data]) };
  })().catch(() => ({})); // the files are PGlite's internals: if they moved, PGlite loads its own, as before
  return engine;
}

/**
 * Embedded store: PGlite (PostgreSQL compiled to WASM) with pgvector. `dataDir` undefined
 * gives an in-memory database (tests); otherwise the directory is locked against a
 * second process, since two PGlite instances on one directory corrupt it.
 */
export interface PgliteOptions {
  /** The caller holds the directory's lock already (the store's thread: pglite-thread.ts). */
  locked?: boolean;
  /** shared_buffers in MB (PostgreSQL's default 128 when unset); see PGLITE_SHARED_BUFFERS_MB. */
  sharedBuffersMb?: number;
  /**
   * An in-memory store (no `dataDir`) started from another's `dump()` instead of a new cluster:
   * initdb in WASM costs ~1.4 s, loading a dump ~0.3 s (the test suite's stores).
   */
  snapshot?: Blob;
}

/** An embedded store; `dump` writes its data directory as a tarball (a `snapshot` to start others from). */
export type PgliteDb = Db & { dump(): Promise<Blob> };

export async function openPglite(dataDir?: string, opts: PgliteOptions = {}): Promise<PgliteDb> {
  if (dataDir && opts.snapshot)
    throw new Error('openPglite: a snapshot starts an in-memory store, not a data directory');
  let release = () => {};
  let pgDir: string | undefined;
  if (dataDir) {
    fs.mkdirSync(dataDir, { recursive: true });
    if (!opts.locked) release = acquireDirLock(dataDir);
    pgDir = path.join(dataDir, 'pg');
  }
  let pg: PGlite;
  try {
    if (pgDir) await initClusterApart(pgDir);
    const startParams = [
      ...PGlite.defaultStartParams,
      ...SESSION_SETTINGS.flatMap((s) => ['-c', s]),
      ...(opts.sharedBuffersMb ? ['-c', `shared_buffers=${opts.sharedBuffersMb}MB`] : []),
    ];
    pg = await PGlite.create(pgDir, {
      ...(await pgliteEngine()),
      extensions: { vector },
      parsers,
      startParams,
      ...(opts.snapshot ? { loadDataDir: opts.snapshot } : {}),
    });
  } catch (err) {
    release();
    throw err;
  }
  const wrap = (q: Pick<PGlite, 'query' | 'exec'>): Queryable => ({
    async query<T extends object>(sql: string, params: unknown[] = []) {
      const res = await q.query<T>(sql, params);
      return res.rows;
    },
    async exec(sql: string) {
      await q.exec(sql);
    },
  });
  return {
    kind: 'pglite',
    ...wrap(pg),
    transaction: (fn) => pg.transaction((tx) => fn(wrap(tx))),
    ping: async () => {
      await pg.query('SELECT 1');
    },
    // One process owns the embedded store, so NOTIFY is delivered in-process.
    listen: async (channel, fn) => {
      const unlisten = await pg.listen(channel, fn);
      return async () => {
        if (!pg.closed) await unlisten();
      };
    },
    dump: () => pg.dumpDataDir('none'),
    close: async () => {
      try {
        await pg.close();
      } finally {
        release();
      }
    },
  };
}
