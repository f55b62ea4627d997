/**
 * The local extractor in a worker thread of its own. compromise's parsing is synchronous
 * (~5 ms of CPU a memory, tens of ms for a long one), and the graph step of every processed
 * memory ran it on the event loop: under a mixed load (bench:load) it was the main thread's
 * largest consumer beside HTTP, and every search and write waited behind it. In a thread it
 * runs beside the event loop, as the embedders do (embedder-thread.ts). The thread starts on
 * the first extraction (a process that never builds graphs never pays its ~40 MB) and is
 * restarted if it dies; idle, it does not keep the process alive.
 */
import { Worker } from 'node:worker_threads';
import {
  ExtractorError,
  type Extraction,
  type ExtractionInput,
  type Extractor,
  type ExtractorErrorCode,
} from './extractor.ts';

/** An {@link Extractor} backed by a worker thread; `close()` ends the thread. */
export interface ThreadedExtractor extends Extractor {
  close(): Promise<void>;
}

type Reply = {
  id: number;
  extraction?: Extraction;
  error?: { message: string; code: ExtractorErrorCode; retryable: boolean };
};
interface Pending {
  resolve(v: Extraction): void;
  reject(e: Error): void;
}

const BOOT = new URL('../thread-boot.mjs', import.meta.url);
const ENTRY = new URL(`./extractor-thread.worker${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url);

/** The local (compromise + rules) extractor, `id` LOCAL_EXTRACTOR_ID, in a thread. */
export function threadedLocalExtractor(id: string, opts: { nice?: number } = {}): ThreadedExtractor {
  // Calls are kept per thread: a thread that ends fails only its own calls.
  let current: { w: Worker; pending: Map<number, Pending> } | null = null;
  let nextId = 0;

  function start() {
    const w = new Worker(BOOT, { workerData: { entry: ENTRY.href, nice: opts.nice ?? 0 } });
    const pending = new Map<number, Pending>();
    const thread = { w, pending };
    w.unref();
    w.on('message', (m: Reply) => {
      const p = pending.get(m.id);
      if (!p) return;
      pending.delete(m.id);
      if (!pending.size) w.unref();
      if (m.error) p.reject(new ExtractorError(m.error.code, m.error.message, m.error.retryable));
      else p.resolve(m.extraction!);
    });
    const lost = (why: string) => {
      if (current === thread) current = null;
      const err = new ExtractorError('unavailable', `extractor thread ${why}`, true);
      for (const p of pending.values()) p.reject(err);
      pending.clear();
    };
    w.on('error', (err) => lost(`failed: ${err.message}`));
    w.on('exit', (code) => lost(`exited with code ${code}`));
    return thread;
  }

  return {
    id,
    extract(input: ExtractionInput) {
      const { w, pending } = (current ??= start());
      const callId = nextId++;
      w.ref();
      return new Promise<Extraction>((resolve, reject) => {
        pending.set(callId, { resolve, reject });
        try {
          w.postMessage({ id: callId, input });
        } catch (err) {
          pending.delete(callId); // not cloneable: never reached the thread
          if (!pending.size) w.unref();
          reject(new ExtractorError('invalid_input', `extraction input: ${(err as Error).message}`, false));
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
