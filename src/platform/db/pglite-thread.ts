/**
 * PGlite in a worker thread of its own. PGlite runs PostgreSQL as WASM on the thread that
 * calls it, and every statement blocks that thread until it is done: on the main thread a
 * batch's inserts (~0.5 s for 100 memories with their vector indexes) stall HTTP, job
 * heartbeats and the replies of the model threads, which then sit idle. In a thread of its
 * own the store runs beside the event loop and the embedders (docs/ARCHITECTURE.md, "Work
 * off the event loop"). Same `Db` contract as pglite.ts: statements and their errors cross
 * as messages; a transaction stays open in the thread across them.
 */
import fs from 'node:fs';
import { siblingEntry, startThread } from '../thread-start.ts';
import type { Db, Queryable, Row } from './db.ts';
import { acquireDirLock } from './dir-lock.ts';
import type { ErrorReply, Request } from './pglite-thread.worker.ts';

const ENTRY = siblingEntry('pglite-thread.worker', import.meta.url);

type Reply =
  | { id: number; rows?: Row[]; tx?: number; error?: ErrorReply }
  | { notify: number; payload: string }
  | { ready: boolean; error?: ErrorReply };

/** A database error as the caller would have seen it on the main thread (message, code, detail…). */
function toError(e: ErrorReply): Error {
  const err = new Error(e.message) as Error & Record<string, unknown>;
  for (const [k, v] of Object.entries(e)) if (k !== 'message' && v !== undefined) err[k] = v;
  return err;
}

/**
 * Open the embedded store (`dataDir`, or in memory when undefined) in a thread. The data
 * directory's lock is taken here, on the calling thread, so a second process gets the same
 * DataDirLockedError as with pglite.ts.
 */
export async function openPgliteThread(dataDir?: string, opts: { sharedBuffersMb?: number } = {}): Promise<Db> {
  let release = () => {};
  if (dataDir) {
    fs.mkdirSync(dataDir, { recursive: true });
    release = acquireDirLock(dataDir);
  }
  const w = startThread(ENTRY, { dataDir: dataDir ?? null, sharedBuffersMb: opts.sharedBuffersMb ?? null });
  const pending = new Map<number, { resolve(r: Reply & { id: number }): void; reject(e: Error): void }>();
  const listeners = new Map<number, (payload: string) => void>();
  let nextId = 1;
  let dead: Error | null = null;

  const ready = new Promise<void>((resolve, reject) => {
    w.once('message', (m: { ready: boolean; error?: ErrorReply }) => (m.ready ? resolve() : reject(toError(m.error!))));
    w.once('error', reject);
  });
  w.on('message', (m: Reply) => {
    if ('notify' in m) return listeners.get(m.notify)?.(m.payload);
    if (!('id' in m)) return;
    const p = pending.get(m.id);
    if (!p) return;
    pending.delete(m.id);
    if (m.error) p.reject(toError(m.error));
    else p.resolve(m);
  });
  // A thread that ends (closed, or PGlite aborted) fails what it held and every later call.
  const lost = (why: string) => {
    dead ??= new Error(`embedded store thread ${why}`);
    for (const p of pending.values()) p.reject(dead);
    pending.clear();
    release();
  };
  w.on('error', (err) => lost(`failed: ${err.message}`));
  w.on('exit', (code) => lost(`exited with code ${code}`));
  try {
    await ready;
  } catch (err) {
    await w.terminate();
    throw err;
  }

  type Call = Request extends infer R ? (R extends { id: number } ? Omit<R, 'id'> : never) : never;
  function call(msg: Call): Promise<Reply & { id: number; rows?: Row[]; tx?: number }> {
    if (dead) return Promise.reject(dead);
    const id = nextId++;
    return new Promise((resolve, reject) => {
      pending.set(id, { resolve, reject });
      w.postMessage({ ...msg, id });
    });
  }
  const queryable = (tx?: number): Queryable => ({
    async query<T extends object>(sql: string, params: unknown[] = []) {
      return (await call({ op: 'query', sql, params, tx })).rows as T[];
    },
    async exec(sql: string) {
      await call({ op: 'exec', sql, tx });
    },
  });

  return {
    kind: 'pglite',
    ...queryable(),
    async transaction(fn) {
      const { tx } = await call({ op: 'begin' });
      let result;
      try {
        result = await fn(queryable(tx));
      } catch (err) {
        await call({ op: 'end', tx: tx!, commit: false }).catch(() => undefined);
        throw err;
      }
      await call({ op: 'end', tx: tx!, commit: true });
      return result;
    },
    ping: async () => {
      await call({ op: 'ping' });
    },
    listen: async (channel, fn) => {
      const { id } = await call({ op: 'listen', channel });
      listeners.set(id, fn);
      return async () => {
        listeners.delete(id);
        if (!dead) await call({ op: 'unlisten', listener: id });
      };
    },
    close: async () => {
      if (dead) return;
      try {
        await call({ op: 'close' });
      } finally {
        await w.terminate();
      }
    },
  };
}
