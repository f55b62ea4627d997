/**
 * Runs one embedder inside a worker thread (see embedder-thread.ts): answers
 * `{ id, input: texts }` with `{ id, result: vectors }` or `{ id, error }`.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { Embedder } from './embedder.ts';
import { ModelError } from './model-error.ts';
import { createEmbedder, type EmbedderConfig } from './from-config.ts';
import { lowerPriority } from './thread-priority.ts';
import { serveThread } from './thread-client.ts';

const port = parentPort!;
// A model that cannot be built (missing files) fails every call with its own error and code,
// as the same embedder would on the main thread, instead of killing the thread.
let embedder: Embedder | undefined;
let failure: unknown;
/** What embedder-thread.ts starts this thread with. */
const data = workerData as { entry: string; config: EmbedderConfig; nice: number };
lowerPriority(data.nice);
try {
  embedder = createEmbedder(data.config);
} catch (err) {
  failure = err;
}

const describe = (err: unknown) => ({
  message: err instanceof Error ? err.message : String(err),
  code: err instanceof ModelError ? (err as ModelError<string>).code : 'unavailable',
  retryable: err instanceof ModelError ? err.retryable : false,
});

serveThread<string[], number[][]>(
  port,
  async (texts) => {
    if (!embedder) throw failure;
    return embedder.embed(texts);
  },
  describe,
);
