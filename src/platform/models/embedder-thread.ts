/**
 * An embedder that runs in a worker thread of its own. Used for query embeddings: a USE lite
 * call blocks its thread (ONNX Runtime computes synchronously: ~1–3 ms a query, tens of ms an
 * indexing batch), so on the main thread it serialises with every
 * other request and waits behind indexing batches; in a thread it overlaps with the search's
 * SQL (user lookup, BM25) and keeps the event loop free. The thread loads its own copy of the
 * model (~40 MB on ONNX Runtime), lazily, and is restarted if it dies.
 */
import { Worker } from 'node:worker_threads';
import { EmbedderError, type Embedder, type EmbedderErrorCode } from './embedder.ts';
import type { EmbedderConfig } from './from-config.ts';

/**
 * `nice`: the thread's scheduling priority (Linux nice, 0–19; per thread on Linux). Background
 * work (indexing, graph extraction) runs at a lower priority than what a request waits for,
 * so under a full CPU a search's query embedding is not queued behind an ingest's batches.
 */
export interface ThreadOptions {
  nice?: number;
}

/** An {@link Embedder} backed by a worker thread; `close()` ends the thread. */
export interface ThreadedEmbedder extends Embedder {
  close(): Promise<void>;
}

type Reply = {
  id: number;
  vectors?: number[][];
  error?: { message: string; code: EmbedderErrorCode; retryable: boolean };
};
interface Pending {
  resolve(v: number[][]): void;
  reject(e: Error): void;
}

const BOOT = new URL('../thread-boot.mjs', import.meta.url);
const ENTRY = new URL(`./embedder-thread.worker${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url);

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
  // Calls are kept per thread: a thread that ends fails only its own calls, never those of
  // the thread started after it (its 'exit' can come after a new call already started one).
  let current: { w: Worker; pending: Map<number, Pending> } | null = null;
  let nextId = 0;

  function start() {
    const w = new Worker(BOOT, { workerData: { entry: ENTRY.href, config, nice: opts.nice ?? 0 } });
    const pending = new Map<number, Pending>();
    const thread = { w, pending };
    // Idle threads must not keep the process alive; pending calls ref it again (see embed).
    w.unref();
    w.on('message', (m: Reply) => {
      const p = pending.get(m.id);
      if (!p) return;
      pending.delete(m.id);
      if (!pending.size) w.unref();
      if (m.error) p.reject(new EmbedderError(m.error.code, m.error.message, m.error.retryable));
      else p.resolve(m.vectors!);
    });
    // A crashed thread fails what it held; the next call starts a new one.
    const lost = (why: string) => {
      if (current === thread) current = null;
      const err = new EmbedderError('unavailable', `${meta.id} embedder thread ${why}`, true);
      for (const p of pending.values()) p.reject(err);
      pending.clear();
    };
    w.on('error', (err) => lost(`failed: ${err.message}`));
    w.on('exit', (code) => lost(`exited with code ${code}`));
    return thread;
  }

  return {
    ...meta,
    embed(texts) {
      if (!texts.length) return Promise.resolve([]);
      const { w, pending } = (current ??= start());
      const id = nextId++;
      w.ref();
      return new Promise<number[][]>((resolve, reject) => {
        pending.set(id, { resolve, reject });
        try {
          w.postMessage({ id, texts });
        } catch (err) {
          pending.delete(id); // not cloneable: never reached the thread
          if (!pending.size) w.unref();
          reject(new EmbedderError('invalid_input', `texts for ${meta.id}: ${(err as Error).message}`));
        }
      });
    },
    async close() {
      const thread = current;
      current = null;
      if (thread) await thread.w.terminate();
    },
  };
}
