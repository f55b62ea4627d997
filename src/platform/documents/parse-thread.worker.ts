/**
 * The document parser's thread (see parse-thread.ts): parses the document it was started with,
 * posts page progress and then the result or the failure, and ends.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { lowerPriority } from '../models/thread-priority.ts';
import { createTesseractOcr } from './ocr.tesseract.ts';
import type { ParseThreadMessage } from './parse-thread.ts';
import { parseDocument } from './index.ts';
import { DocumentParseError, type DocumentFormat } from './types.ts';

const port = parentPort!;
const data = workerData as { bytes: Uint8Array; format: DocumentFormat; maxPages: number; ocr: boolean; nice: number };
const post = (m: ParseThreadMessage) => port.postMessage(m);
lowerPriority(data.nice);

const ocr = data.ocr ? createTesseractOcr() : null;
try {
  const doc = await parseDocument(data.bytes, data.format, {
    ocr,
    maxPages: data.maxPages,
    onPage: (page, total) => post({ page, total }),
  });
  post({ doc });
} catch (err) {
  const message = err instanceof Error ? err.message : String(err);
  post({ error: { message, reason: err instanceof DocumentParseError ? err.reason : null } });
} finally {
  await ocr?.close();
}
