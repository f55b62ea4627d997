/** Images (PNG, JPEG, WebP, TIFF): their text is whatever OCR reads, as paragraphs of page 1. */
import { paragraphsOf, singlePage } from './blocks.ts';
import type { ParsedDocument, ParseOptions } from './types.ts';

export async function parseImage(bytes: Uint8Array, opts: ParseOptions): Promise<ParsedDocument> {
  if (opts.ocr === null) {
    return singlePage('image', [], undefined, { ocrPages: [], skippedPages: [{ page: 1, reason: 'ocr_disabled' }] });
  }
  const { text } = await opts.ocr.recognize(bytes, opts.signal);
  return singlePage('image', paragraphsOf(text, 1, ' '), undefined, { ocrPages: [1], skippedPages: [] });
}
