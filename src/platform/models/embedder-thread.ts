/**
 * An embedder that runs in a worker thread of its own. Used for query embeddings: a USE lite
 * call blocks its thread (ONNX Runtime computes synchronously: ~1–3 ms a query, tens of ms an
 * indexing batch), so on the main thread it serialises with every
 * other request and waits behind indexing batches; in a thread it overlaps with the search's
 * SQL (user lookup, BM25) and keeps the event loop free. The thread loads its own copy of the
 * model (~40 MB on ONNX Runtime), lazily, and is restarted if it dies.
 */
import { EmbedderError, type Embedder, type EmbedderErrorCode } from './embedder.ts';
import type { EmbedderConfig } from './from-config.ts';
import { siblingEntry } from '../thread-start.ts';
import { threadClient } from './thread-client.ts';

/**
 * `nice`: the thread's scheduling priority (Linux nice, 0–19; per thread on Linux). Background
 * work (indexing, graph extraction) runs at a lower priority than what a request waits for,
 * so under a full CPU a search's query embedding is not queued behind an ingest's batches.
 */
export interface ThreadOptions {
  nice?: number;
  /** End the thread after this long without calls (see thread-client.ts). */
  idleExitMs?: number;
}

/** An {@link Embedder} backed by a worker thread; `close()` ends the thread. */
export interface ThreadedEmbedder extends Embedder {
  /** Whether its thread is running (it starts on a call and may end when idle). */
  alive(): boolean;
  close(): Promise<void>;
}

const ENTRY = siblingEntry('embedder-thread.worker', import.meta.url);

/**
 * Run the embedder `config` describes (a serialisable config: local kinds such as `use-lite`
 * or `onnx`) in a thread. `meta` is what callers read without waiting for the thread: it
 * must describe the same model (take it from an instance built from the same config).
 */
export function threadedEmbedder(
  config: EmbedderConfig,
  meta: Pick<Embedder, 'id' | 'dimensions' | 'maxTokens'>,
  opts: ThreadOptions = {},
): ThreadedEmbedder {
  const thread = threadClient<string[], number[][]>({
    entry: ENTRY,
    data: { config, nice: opts.nice ?? 0 },
    idleExitMs: opts.idleExitMs,
    lost: (why) => new EmbedderError('unavailable', `${meta.id} embedder thread ${why}`, true),
    failed: (e) => new EmbedderError(e.code as EmbedderErrorCode, e.message, e.retryable),
    unsendable: (err) => new EmbedderError('invalid_input', `texts for ${meta.id}: ${err.message}`),
  });
  return {
    ...meta,
    embed: (texts) => (texts.length ? thread.call(texts) : Promise.resolve([])),
    alive: () => thread.alive(),
    close: () => thread.close(),
  };
}
