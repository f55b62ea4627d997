/**
 * The calling side of a model thread (embedder-thread.ts, extractor-thread.ts): one worker
 * thread started on the first call, `{ id, input }` messages answered by `{ id, result }` or
 * `{ id, error }`, restarted when it dies. Calls are kept per thread, so a thread that ends
 * fails only its own calls, never those of the thread started after it (its 'exit' can come
 * after a new call already started one). Idle, the thread does not keep the process alive.
 */
import { Worker } from 'node:worker_threads';

/** What a model thread sends back for a failed call (a ModelError's fields). */
export interface ThreadError {
  message: string;
  code: string;
  retryable: boolean;
}

export interface ThreadClientOptions {
  /** The worker module (a .ts entry is loaded through thread-boot.mjs's tsx registration). */
  entry: URL;
  /** Passed to the thread beside `entry`. */
  data: Record<string, unknown>;
  /** The error a call gets when its thread ends (`why`: how it ended). */
  lost(why: string): Error;
  /** The error for a failure the thread reported. */
  failed(error: ThreadError): Error;
  /** The error for an input that cannot be sent (not cloneable). */
  unsendable(err: Error): Error;
}

interface Pending {
  resolve(v: unknown): void;
  reject(e: Error): void;
}

const BOOT = new URL('../thread-boot.mjs', import.meta.url);

export function threadClient<In, Out>(opts: ThreadClientOptions) {
  let current: { w: Worker; pending: Map<number, Pending> } | null = null;
  let nextId = 0;

  function start() {
    const w = new Worker(BOOT, { workerData: { ...opts.data, entry: opts.entry.href } });
    const pending = new Map<number, Pending>();
    const thread = { w, pending };
    w.unref();
    w.on('message', (m: { id: number; result?: unknown; error?: ThreadError }) => {
      const p = pending.get(m.id);
      if (!p) return;
      pending.delete(m.id);
      if (!pending.size) w.unref();
      if (m.error) p.reject(opts.failed(m.error));
      else p.resolve(m.result);
    });
    const lost = (why: string) => {
      if (current === thread) current = null;
      const err = opts.lost(why);
      for (const p of pending.values()) p.reject(err);
      pending.clear();
    };
    w.on('error', (err) => lost(`failed: ${err.message}`));
    w.on('exit', (code) => lost(`exited with code ${code}`));
    return thread;
  }

  return {
    call(input: In): Promise<Out> {
      const { w, pending } = (current ??= start());
      const id = nextId++;
      w.ref();
      return new Promise<Out>((resolve, reject) => {
        pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
        try {
          w.postMessage({ id, input });
        } catch (err) {
          pending.delete(id); // not cloneable: never reached the thread
          if (!pending.size) w.unref();
          reject(opts.unsendable(err as Error));
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

/** The thread side: answer each `{ id, input }` with `{ id, result }` or `{ id, error }`. */
export function serveThread<In, Out>(
  port: { on(event: 'message', fn: (m: { id: number; input: In }) => void): unknown; postMessage(m: unknown): void },
  handle: (input: In) => Promise<Out>,
  describe: (err: unknown) => ThreadError,
): void {
  port.on('message', async (m) => {
    try {
      port.postMessage({ id: m.id, result: await handle(m.input) });
    } catch (err) {
      port.postMessage({ id: m.id, error: describe(err) });
    }
  });
}
