/**
 * The embedded store's thread (see pglite-thread.ts): owns the PGlite instance and answers
 * `{ id, op, … }` messages with `{ id, rows }` / `{ id }` or `{ id, error }`. A transaction is
 * held open across messages: `begin` enters `db.transaction`, statements name it by `tx`, and
 * `end` commits or rolls it back. PGlite runs one statement at a time and queues others behind
 * an open transaction itself, so this file needs no locking of its own.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { Db, Queryable } from './db.ts';
import { openPglite } from './pglite.ts';

export type Request =
  | { id: number; op: 'query'; sql: string; params?: unknown[]; tx?: number }
  | { id: number; op: 'exec'; sql: string; tx?: number }
  | { id: number; op: 'begin' }
  | { id: number; op: 'end'; tx: number; commit: boolean }
  | { id: number; op: 'listen'; channel: string }
  | { id: number; op: 'unlisten'; listener: number }
  | { id: number; op: 'ping' | 'close' };

/** What crosses back for a failed statement: PostgreSQL's error fields, not the object. */
export interface ErrorReply {
  message: string;
  name?: string;
  code?: string;
  detail?: string;
  hint?: string;
  constraint?: string;
  table?: string;
  column?: string;
}

const port = parentPort!;
const ROLLBACK = Symbol('rollback');

function errorReply(err: unknown): ErrorReply {
  if (!(err instanceof Error)) return { message: String(err) };
  const e = err as Error & Record<string, unknown>;
  const out: ErrorReply = { message: e.message, name: e.name };
  for (const k of ['code', 'detail', 'hint', 'constraint', 'table', 'column'] as const)
    if (typeof e[k] === 'string') out[k] = e[k] as string;
  return out;
}

/** What pglite-thread.ts starts this thread with. */
const data = workerData as { entry: string; dataDir: string | null; sharedBuffersMb: number | null };
let db: Db;
try {
  db = await openPglite(data.dataDir ?? undefined, {
    locked: true,
    sharedBuffersMb: data.sharedBuffersMb ?? undefined,
  });
  port.postMessage({ ready: true });
} catch (err) {
  port.postMessage({ ready: false, error: errorReply(err) });
  process.exit(1);
}

const txs = new Map<number, { q: Queryable; end(commit: boolean): void }>();
/** Each open transaction's outcome (a rollback we asked for counts as success). */
const ends = new Map<number, Promise<void>>();
const unlisteners = new Map<number, () => Promise<void>>();
const on = (tx: number | undefined): Queryable => {
  if (tx === undefined) return db;
  const t = txs.get(tx);
  if (!t) throw new Error(`transaction ${tx} is not open`);
  return t.q;
};

async function handle(m: Request): Promise<unknown> {
  switch (m.op) {
    case 'query':
      return { rows: await on(m.tx).query(m.sql, m.params) };
    case 'exec':
      await on(m.tx).exec(m.sql);
      return {};
    case 'begin': {
      // Replies once inside the transaction; the transaction's own outcome answers `end`.
      let entered!: () => void;
      const inside = new Promise<void>((resolve) => (entered = resolve));
      const done = db.transaction(
        (q) =>
          new Promise<void>((resolve, reject) => {
            txs.set(m.id, { q, end: (commit) => (commit ? resolve() : reject(ROLLBACK)) });
            entered();
          }),
      );
      const outcome = done.catch((err) => (err === ROLLBACK ? undefined : Promise.reject(err)));
      outcome.catch(() => undefined); // awaited by `end`; a BEGIN that failed gets no `end`
      ends.set(m.id, outcome);
      try {
        // A BEGIN that fails (closed store) rejects `done` before `inside` resolves.
        await Promise.race([inside, done]);
      } catch (err) {
        ends.delete(m.id);
        txs.delete(m.id);
        throw err;
      }
      return { tx: m.id };
    }
    case 'end': {
      const t = txs.get(m.tx);
      const done = ends.get(m.tx);
      if (!t || !done) throw new Error(`transaction ${m.tx} is not open`);
      txs.delete(m.tx);
      ends.delete(m.tx);
      t.end(m.commit);
      await done;
      return {};
    }
    case 'listen': {
      const unlisten = await db.listen(m.channel, (payload) => port.postMessage({ notify: m.id, payload }));
      unlisteners.set(m.id, unlisten);
      return {};
    }
    case 'unlisten': {
      const unlisten = unlisteners.get(m.listener);
      unlisteners.delete(m.listener);
      await unlisten?.();
      return {};
    }
    case 'ping':
      await db.ping();
      return {};
    case 'close':
      await db.close();
      return {};
  }
}

port.on('message', (m: Request) => {
  handle(m).then(
    (r) => port.postMessage({ id: m.id, ...(r as object) }),
    (err) => port.postMessage({ id: m.id, error: errorReply(err) }),
  );
});
