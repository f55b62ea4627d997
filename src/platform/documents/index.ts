/**
 * The document layer's only door: detect what an upload is, parse it into headings and
 * paragraphs with page numbers (OCR for scanned pages and images), and cut it into chunks.
 * No product rules here: limits, storage and jobs belong to src/modules/documents.
 */
import { storable } from './storable.ts';
import { DocumentParseError, type DocumentFormat, type ParsedDocument, type ParseOptions } from './types.ts';

export { chunkDocument } from './chunk.ts';
export { detectFormat, SUPPORTED_FORMATS } from './detect.ts';
export { createTesseractOcr } from './ocr.tesseract.ts';
export { parseInThread, type ThreadParseOptions } from './parse-thread.ts';
export {
  DocumentParseError,
  type Block,
  type DocumentChunk,
  type DocumentFormat,
  type Ocr,
  type ParsedDocument,
  type ParseFailure,
  type ParseOptions,
} from './types.ts';

type Parser = (bytes: Uint8Array, opts: ParseOptions) => Promise<ParsedDocument>;

/**
 * The parsers, each imported on first use: pdf.js, the canvas, mammoth, linkedom and the rest cost
 * about a second and tens of MB to load, which a process that never parses need not pay at start.
 */
const PARSERS: Record<DocumentFormat, Parser> = {
  pdf: async (bytes, opts) => (await import('./pdf.ts')).parsePdf(bytes, opts),
  docx: async (bytes) => (await import('./docx.ts')).parseDocx(bytes),
  html: async (bytes) => (await import('./html.ts')).parseHtml(bytes),
  markdown: async (bytes) => (await import('./markdown.ts')).parseMarkdown(bytes),
  text: async (bytes) => (await import('./text.ts')).parseText(bytes),
  image: async (bytes, opts) => (await import('./image.ts')).parseImage(bytes, opts),
};

/** Parse bytes of a detected format. Throws DocumentParseError, or `signal.reason` on abort. */
export async function parseDocument(
  bytes: Uint8Array,
  format: DocumentFormat,
  opts: ParseOptions,
): Promise<ParsedDocument> {
  return storable(await parseAny(bytes, format, opts));
}

async function parseAny(bytes: Uint8Array, format: DocumentFormat, opts: ParseOptions): Promise<ParsedDocument> {
  opts.signal?.throwIfAborted();
  if (format === 'pdf') return PARSERS.pdf(bytes, opts); // pages, progress and aborts are its own
  // The other formats are one page, and their progress is one step.
  if (opts.maxPages < 1) {
    throw new DocumentParseError('too_many_pages', `the document has 1 page; at most ${opts.maxPages} are read`);
  }
  const doc = await PARSERS[format](bytes, opts);
  opts.signal?.throwIfAborted();
  opts.onPage?.(1, 1);
  return doc;
}
