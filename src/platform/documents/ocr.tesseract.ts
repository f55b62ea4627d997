/**
 * Local OCR: tesseract.js (WebAssembly, in a worker thread) with the English data of
 * @tesseract.js-data/eng, both read from node_modules: nothing is downloaded, ever. An explicit
 * `langPath` is what keeps tesseract.js off its default CDN, and cacheMethod 'none' keeps it from
 * writing a copy of the data into the working directory.
 *
 * One worker, created on first use and reused; calls are serialized (a worker runs one job at a
 * time, and one page at a time keeps memory flat).
 */
import { access } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Worker as TesseractWorker } from 'tesseract.js';
import { DocumentParseError, type Ocr } from './types.ts';

/** The integer-quantised LSTM model (2.9 MB against 10.9 MB): what tesseract.js itself picks for LSTM. */
const DEFAULT_DATA = '4.0.0_best_int';

function defaultLangPath(): string {
  const pkg = createRequire(import.meta.url).resolve('@tesseract.js-data/eng/package.json');
  return path.join(path.dirname(pkg), DEFAULT_DATA);
}

async function startWorker(langPath: string): Promise<TesseractWorker> {
  const data = path.join(langPath, 'eng.traineddata.gz');
  // Checked first: tesseract.js would fail inside its thread and leave the thread running.
  await access(data).catch((err: unknown) => {
    throw new Error(`OCR language data not found at ${data}`, { cause: err });
  });
  // Imported here, on first use, like the parsers (see index.ts).
  const { createWorker, OEM } = await import('tesseract.js');
  return createWorker('eng', OEM.LSTM_ONLY, {
    langPath,
    gzip: true,
    cacheMethod: 'none',
    // Without a handler tesseract.js rethrows a failed job inside its message listener, which
    // crashes the process; with one, the job's promise rejects and we handle it here.
    errorHandler: () => {},
  });
}

/** tesseract.js rejects with strings; an unreadable image means the upload is damaged. */
function ocrError(err: unknown): Error {
  const message = err instanceof Error ? err.message : String(err);
  if (/read image|pixRead/i.test(message)) {
    return new DocumentParseError('corrupt', 'the image could not be read', { cause: err });
  }
  return new Error(`OCR failed: ${message}`, { cause: err });
}

/** Local OCR with tesseract.js and the English data from disk. `close()` terminates the worker. */
export function createTesseractOcr(opts: { langPath?: string } = {}): Ocr {
  const langPath = path.resolve(opts.langPath ?? defaultLangPath());
  let worker: Promise<TesseractWorker> | null = null;
  let queue: Promise<unknown> = Promise.resolve();

  const getWorker = () =>
    (worker ??= startWorker(langPath).catch((err: unknown) => {
      worker = null; // the next call tries again
      throw err;
    }));

  /** Stops the worker (and so a recognition in progress); the next call starts a new one. */
  const stop = async () => {
    const current = worker;
    worker = null;
    if (current) await current.then((w) => w.terminate()).catch(() => {});
  };

  const run = async (image: Uint8Array, signal?: AbortSignal) => {
    signal?.throwIfAborted();
    const w = await getWorker();
    signal?.throwIfAborted();
    const job = w.recognize(Buffer.from(image.buffer, image.byteOffset, image.byteLength), {}, { text: true });
    let onAbort = () => {};
    const aborted = new Promise<never>((_, reject) => {
      onAbort = () => {
        reject(signal?.reason);
        void stop(); // tesseract.js cannot cancel a job: end its thread instead
      };
      signal?.addEventListener('abort', onAbort, { once: true });
    });
    try {
      const { data } = await Promise.race([job.catch((err: unknown) => Promise.reject(ocrError(err))), aborted]);
      return { text: data.text, confidence: data.confidence };
    } finally {
      signal?.removeEventListener('abort', onAbort);
      job.catch(() => {}); // after an abort the job's own rejection is expected
    }
  };

  return {
    id: `tesseract-eng-${path.basename(langPath)}`,
    recognize(image, signal) {
      const result = queue.then(() => run(image, signal));
      queue = result.catch(() => {});
      return result;
    },
    async close() {
      await queue;
      await stop();
    },
  };
}
