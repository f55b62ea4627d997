/**
 * Parsing a document in a worker thread of its own, one thread per document.
 *
 * pdf.js runs its "worker" in-process under Node, so every page's parse, and the rendering of
 * a scanned page for OCR (up to a second or two each), would block the event loop of the
 * process that runs the job; with the embedded store that is the API's process. In a thread
 * the parse runs beside requests, at background priority. A thread per document also returns
 * pdf.js's caches and the OCR engine's WebAssembly heap (~1 GB on dense scans, and a WASM
 * heap never shrinks) when it ends, and a cancel simply ends it. Starting one costs ~0.1–0.3 s,
 * small beside any document's processing.
 */
import { siblingEntry, startThread } from '../thread-start.ts';
import { DocumentParseError, type DocumentFormat, type ParsedDocument, type ParseFailure } from './types.ts';

const ENTRY = siblingEntry('parse-thread.worker', import.meta.url);

export interface ThreadParseOptions {
  /** Run OCR on scanned pages and images (tesseract.js, started in the thread when first needed). */
  ocr: boolean;
  maxPages: number;
  /** Aborting ends the thread at once; the promise rejects with `signal.reason`. */
  signal?: AbortSignal;
  onPage?: (done: number, total: number) => void;
  /** Scheduling priority of the thread (see thread-priority.ts). */
  nice?: number;
}

/** What the thread posts: page progress, then the document or the failure. */
export type ParseThreadMessage =
  | { page: number; total: number }
  | { doc: ParsedDocument }
  | { error: { message: string; reason: ParseFailure | null } };

export function parseInThread(
  bytes: Uint8Array,
  format: DocumentFormat,
  opts: ThreadParseOptions,
): Promise<ParsedDocument> {
  opts.signal?.throwIfAborted();
  const w = startThread(ENTRY, { bytes, format, maxPages: opts.maxPages, ocr: opts.ocr, nice: opts.nice ?? 0 });
  return new Promise<ParsedDocument>((resolve, reject) => {
    let settled = false;
    const settle = (fn: () => void) => {
      if (settled) return;
      settled = true;
      opts.signal?.removeEventListener('abort', onAbort);
      fn();
    };
    const onAbort = () => settle(() => void w.terminate().finally(() => reject(opts.signal!.reason)));
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    w.on('message', (m: ParseThreadMessage) => {
      if ('page' in m) {
        if (!settled) opts.onPage?.(m.page, m.total);
      } else if ('doc' in m) settle(() => resolve(m.doc));
      else
        settle(() =>
          reject(m.error.reason ? new DocumentParseError(m.error.reason, m.error.message) : new Error(m.error.message)),
        );
    });
    w.on('error', (err) => settle(() => reject(err)));
    w.on('exit', (code) => settle(() => reject(new Error(`the document parser thread ended (exit code ${code})`))));
  });
}
