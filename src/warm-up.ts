/** Search's warm-up: what /ready reports while the models load (part of the composition root, app.ts). */
import { type SearchReadiness } from './modules/health/index.ts';
import { prepareVectorStore } from './modules/search/index.ts';
import type { Db } from './platform/db/index.ts';
import type { Logger } from './platform/log.ts';
import type { embeddersFromConfig } from './platform/models/index.ts';

export type Models = ReturnType<typeof embeddersFromConfig>;

/** Loading search's models and preparing their vector indexes; /ready reports where it is. */
export interface SearchWarmUp {
  /** Runs it once (later calls share the run); rejects with the failure, which status() also reports. */
  start(): Promise<void>;
  status(): SearchReadiness;
}

/**
 * The warm-up of search: the models' vector indexes (created here for a model the migrations
 * do not know, which can take a while on a large store) and the models themselves, loaded
 * (~2 s for USE lite in its two threads and the GloVe table; more on a first start, which
 * converts USE lite). Requests do not wait for it: a model loads on first use anyway.
 */
export function searchWarmUp({ db, log }: { db: Db; log: Logger }, models: Models): SearchWarmUp {
  const { primary, secondary } = models.index;
  const embedders: SearchReadiness['embedders'] = [
    { id: primary.id, role: 'primary', dimensions: primary.dimensions },
    ...(secondary ? [{ id: secondary.id, role: 'secondary' as const, dimensions: secondary.dimensions }] : []),
  ];
  let state: Omit<SearchReadiness, 'embedders'> = { ready: false };
  let run: Promise<void> | undefined;
  return {
    start: () =>
      (run ??= (async () => {
        const t0 = performance.now();
        try {
          await Promise.all([prepareVectorStore(db, models.index, log), models.load()]);
          state = { ready: true, warmup_ms: Math.round(performance.now() - t0) };
        } catch (err) {
          state = { ready: false, error: err instanceof Error ? err.message : String(err) };
          throw err;
        }
      })()),
    status: () => ({ ...state, embedders }),
  };
}
