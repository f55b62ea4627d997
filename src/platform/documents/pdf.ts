/**
 * PDF with pdf.js: one page at a time (text, or OCR of a scanned page), each page's resources
 * released before the next, so memory follows the largest page rather than the whole file. Only
 * the lines' text is kept across pages: headings are sized against the whole document's body.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { getDocument, type PDFDocumentProxy, type PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { TextItem } from 'pdfjs-dist/types/src/display/api.js';
import { firstTopHeading, nonEmpty, paragraphsOf, squash } from './blocks.ts';
import { blocksOf, linesOf, type Line, type TextPiece } from './pdf-layout.ts';
import { paintsImages, renderPng } from './pdf-render.ts';
import { DocumentParseError, type Block, type ParsedDocument, type ParseOptions } from './types.ts';

// pdf.js reads its fonts, character maps, colour profiles and image decoders (JBIG2 and JPEG 2000,
// common in scans) from these folders of its package: from disk, never from the network.
const PDFJS_DIR = path.dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));
const ASSETS = {
  standardFontDataUrl: `${PDFJS_DIR}/standard_fonts/`,
  cMapUrl: `${PDFJS_DIR}/cmaps/`,
  iccUrl: `${PDFJS_DIR}/iccs/`,
  wasmUrl: `${PDFJS_DIR}/wasm/`,
};

/** Runs a pdf.js call; its failures mean the file is damaged. */
async function pdfjs<T>(what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    throw new DocumentParseError('corrupt', `the PDF could not be read (${what}): ${(err as Error).message}`, {
      cause: err,
    });
  }
}

async function open(bytes: Uint8Array): Promise<PDFDocumentProxy> {
  const task = getDocument({
    // pdf.js takes ownership of (detaches) the buffer it is given: a copy (Buffer#slice would not copy).
    data: new Uint8Array(bytes),
    ...ASSETS,
    // No code generated from the file's fonts (the path of CVE-2024-4367); errors only on the console.
    isEvalSupported: false,
    verbosity: 0,
  });
  try {
    return await task.promise;
  } catch (err) {
    await task.destroy();
    if ((err as Error).name === 'PasswordException') {
      throw new DocumentParseError('encrypted', 'the PDF is protected by a password', { cause: err });
    }
    throw new DocumentParseError('corrupt', `the PDF could not be opened: ${(err as Error).message}`, { cause: err });
  }
}

async function textPieces(page: PDFPageProxy): Promise<TextPiece[]> {
  const content = await page.getTextContent();
  return content.items
    .filter((item): item is TextItem => 'str' in item)
    .map((item) => {
      const t = item.transform as number[];
      return {
        str: item.str,
        x: t[4],
        y: t[5],
        width: item.width,
        size: item.height || Math.hypot(t[2], t[3]),
        hasEOL: item.hasEOL,
      };
    });
}

async function titleOf(pdf: PDFDocumentProxy): Promise<string | undefined> {
  try {
    const { info } = await pdf.getMetadata();
    const title = (info as { Title?: unknown }).Title;
    return typeof title === 'string' && squash(title) !== '' ? squash(title) : undefined;
  } catch {
    return undefined; // a damaged info dictionary costs the title, not the document
  }
}

export async function parsePdf(bytes: Uint8Array, opts: ParseOptions): Promise<ParsedDocument> {
  opts.signal?.throwIfAborted();
  const pdf = await open(bytes);
  try {
    const total = pdf.numPages;
    if (total > opts.maxPages) {
      throw new DocumentParseError('too_many_pages', `the PDF has ${total} pages; at most ${opts.maxPages} are read`);
    }
    const lines: Line[] = [];
    const ocrBlocks: Block[] = [];
    const doc: ParsedDocument = { format: 'pdf', totalPages: total, blocks: [], skippedPages: [], ocrPages: [] };
    for (let n = 1; n <= total; n++) {
      opts.signal?.throwIfAborted();
      const page = await pdfjs(`page ${n}`, () => pdf.getPage(n));
      try {
        const pageLines = linesOf(await pdfjs(`text of page ${n}`, () => textPieces(page)), n);
        if (pageLines.length > 0) {
          lines.push(...pageLines);
        } else if (await pdfjs(`images of page ${n}`, () => paintsImages(page))) {
          if (opts.ocr === null) {
            doc.skippedPages.push({ page: n, reason: 'ocr_disabled' });
          } else {
            const png = await pdfjs(`rendering of page ${n}`, () => renderPng(page));
            const { text } = await opts.ocr.recognize(png, opts.signal);
            ocrBlocks.push(...paragraphsOf(text, n, ' '));
            doc.ocrPages.push(n);
          }
        }
      } finally {
        page.cleanup();
      }
      opts.onPage?.(n, total);
    }
    // Stable sort: text blocks come out in page order already; OCR pages slot in by number.
    doc.blocks = [...blocksOf(lines), ...ocrBlocks].sort((a, b) => a.page - b.page);
    const title = (await titleOf(pdf)) ?? firstTopHeading(doc.blocks);
    if (title) doc.title = title;
    return nonEmpty(doc);
  } finally {
    await pdf.destroy();
  }
}
