/**
 * The local extractor in a worker thread of its own. compromise's parsing is synchronous
 * (~5 ms of CPU a memory, tens of ms for a long one), and the graph step of every processed
 * memory ran it on the event loop: under a mixed load (bench:load) it was the main thread's
 * largest consumer beside HTTP, and every search and write waited behind it. In a thread it
 * runs beside the event loop, as the embedders do (embedder-thread.ts). The thread starts on
 * the first extraction (a process that never builds graphs never pays its ~40 MB) and is
 * restarted if it dies; idle, it does not keep the process alive.
 */
import {
  ExtractorError,
  type Extraction,
  type ExtractionInput,
  type Extractor,
  type ExtractorErrorCode,
} from './extractor.ts';
import { siblingEntry } from '../thread-start.ts';
import type { ThreadOptions } from './embedder-thread.ts';
import { threadClient } from './thread-client.ts';

/** An {@link Extractor} backed by a worker thread; `close()` ends the thread. */
export interface ThreadedExtractor extends Extractor {
  close(): Promise<void>;
}

const ENTRY = siblingEntry('extractor-thread.worker', import.meta.url);

/**
 * The local (compromise + rules) extractor, `id` LOCAL_EXTRACTOR_ID, in a thread (`nice`,
 * `idleExitMs`: see embedder-thread.ts).
 */
export function threadedLocalExtractor(id: string, opts: ThreadOptions = {}): ThreadedExtractor {
  const thread = threadClient<ExtractionInput, Extraction>({
    entry: ENTRY,
    data: { nice: opts.nice ?? 0 },
    idleExitMs: opts.idleExitMs,
    lost: (why) => new ExtractorError('unavailable', `extractor thread ${why}`, true),
    failed: (e) => new ExtractorError(e.code as ExtractorErrorCode, e.message, e.retryable),
    unsendable: (err) => new ExtractorError('invalid_input', `extraction input: ${err.message}`, false),
  });
  return { id, extract: (input) => thread.call(input), close: () => thread.close() };
}
