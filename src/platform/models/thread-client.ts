/**
 * The calling side of a model thread (embedder-thread.ts, extractor-thread.ts): one worker
 * thread started on the first call, `{ id, input }` messages answered by `{ id, result }` or
 * `{ id, error }`, restarted when it dies. Calls are kept per thread, so a thread that ends
 * fails only its own calls, never those of the thread started after it (its 'exit' can come
 * after a new call already started one). Idle, the thread does not keep the process alive.
 */
import { startThread } from '../thread-start.ts';

/** What a model thread sends back for a failed call (a ModelError's fields). */
export interface ThreadError {
  message: string;
  code: string;
  retryable: boolean;
}

export interface ThreadClientOptions {
  /** The worker module (see thread-start.ts). */
  entry: URL;
  /** Passed to the thread beside `entry`. */
  data: Record<string, unknown>;
  /** The error a call gets when its thread ends (`why`: how it ended). */
  lost(why: string): Error;
  /** The error for a failure the thread reported. */
  failed(error: ThreadError): Error;
  /** The error for an input that cannot be sent (not cloneable). */
  unsendable(err: Error): Error;
  /**
   * End the thread after this long without calls (ms; it starts again on the next call). For
   * background work, whose threads hold a model or a parser (tens of MB each) that an idle
   * server need not keep; a request's thread (query embeddings) stays.
   */
  idleExitMs?: number;
}

interface Pending {
  resolve(v: unknown): void;
  reject(e: Error): void;
}

interface Thread {
  w: ReturnType<typeof startThread>;
  pending: Map<number, Pending>;
  idle?: NodeJS.Timeout;
}

export function threadClient<In, Out>(opts: ThreadClientOptions) {
  let current: Thread | null = null;
  let nextId = 0;

  function start() {
    const w = startThread(opts.entry, opts.data);
    const pending = new Map<number, Pending>();
    const thread: Thread = { w, pending };
    w.unref();
    w.on('message', (m: { id: number; result?: unknown; error?: ThreadError }) => {
      const p = pending.get(m.id);
      if (!p) return;
      pending.delete(m.id);
      if (!pending.size) idle(thread);
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

  /** No call in flight: the thread does not hold the process, and ends after idleExitMs. */
  function idle(thread: Thread) {
    thread.w.unref();
    if (opts.idleExitMs === undefined) return;
    clearTimeout(thread.idle);
    thread.idle = setTimeout(() => {
      if (thread.pending.size) return;
      if (current === thread) current = null;
      void thread.w.terminate();
    }, opts.idleExitMs).unref();
  }

  return {
    call(input: In): Promise<Out> {
      const thread = (current ??= start());
      const { w, pending } = thread;
      clearTimeout(thread.idle);
      const id = nextId++;
      w.ref();
      return new Promise<Out>((resolve, reject) => {
        pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
        try {
          w.postMessage({ id, input });
        } catch (err) {
          pending.delete(id); // not cloneable: never reached the thread
          if (!pending.size) idle(thread);
          reject(opts.unsendable(err as Error));
        }
      });
    },
    /** Whether a thread is running now (started and not ended, by idleness or otherwise). */
    alive: () => current !== null,
    async close() {
      const thread = current;
      current = null;
      clearTimeout(thread?.idle);
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
