import type { Queryable, Row } from '../src/platform/db/index.ts';
import { after, before } from 'node:test';
import { startApp, type TestApp, type TestStore } from './harness.ts';

/** Where a step of a request ends: the SQL of a statement run outside a transaction, or `'COMMIT'`. */
export type StepMatch = (step: string) => boolean;

export interface Interleave {
  /**
   * Run `fn` once, right after the next step `match` accepts, before the request that made that
   * step goes on; resolves to what `fn` resolved to.
   */
  after<T>(match: StepMatch, fn: () => Promise<T>): Promise<T>;
  /** If the armed `fn` has not run (its step never came), run it now. */
  flush(): void;
}

/**
 * `store`, whose databases let a test run a request *between* two steps of another one: right
 * after the next statement (outside a transaction) or transaction commit that the armed match
 * accepts, the armed function runs, and the request that took the step continues only once it
 * is done. A race that needs a narrow window (a busy event loop, a slow network; issue #17 saw
 * 19 in 150 rounds) then happens on every round that asks for it.
 */
export function interleavingStore(store: TestStore): { store: TestStore; interleave: Interleave } {
  let armed: { match: StepMatch; run: () => Promise<void> } | null = null;
  const stepDone = async (step: string) => {
    const a = armed;
    if (!a || !a.match(step)) return;
    armed = null;
    await a.run();
  };
  const interleave: Interleave = {
    after<T>(match: StepMatch, fn: () => Promise<T>) {
      return new Promise<T>((resolve, reject) => {
        armed = { match, run: () => fn().then(resolve, reject) };
      });
    },
    flush() {
      const a = armed;
      armed = null;
      void a?.run();
    },
  };
  return {
    interleave,
    store: {
      name: store.name,
      open: async () => {
        const db = await store.open();
        return {
          ...db,
          query: async <T extends object = Row>(sql: string, params?: unknown[]) => {
            const rows = await db.query<T>(sql, params);
            await stepDone(sql);
            return rows;
          },
          transaction: async <T>(fn: (tx: Queryable) => Promise<T>) => {
            const out = await db.transaction(fn);
            await stepDone('COMMIT');
            return out;
          },
        };
      },
    },
  };
}

/** Resolve after `n` turns of the event loop (so a second request starts a little later). */
export async function turns(n: number): Promise<void> {
  for (let i = 0; i < n; i++) await new Promise<void>((r) => setImmediate(r));
}

/**
 * The suite of race tests over one app: an interleaving store, the app started before the
 * suite (filling `t`) and closed after it, and `call` sending with its key (or `key`).
 */
export function racingApp(store: TestStore, opts?: Parameters<typeof startApp>[1]) {
  const racing = interleavingStore(store);
  const t = {} as TestApp;
  before(async () => {
    Object.assign(t, await startApp(racing.store, opts));
  });
  after(() => t.close());
  const call = (method: any, url: string, payload?: unknown, key = t.key) =>
    t.app.inject({ method, url, headers: { 'x-api-key': key }, payload: payload as any });
  return { t, interleave: racing.interleave, call };
}
