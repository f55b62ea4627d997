/** Small helpers every parser shares: whitespace, paragraphs of plain text, the empty check. */
import { DocumentParseError, type Block, type ParsedDocument } from './types.ts';

/** Collapse every run of whitespace (newlines and no-break spaces included) to one space. */
export function squash(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/**
 * Plain text → paragraph blocks, split on blank lines. `lineJoin` ' ' re-flows lines that were
 * only wrapped for layout (OCR output); '\n' keeps them, since a text file's line breaks may mean
 * something (addresses, verse, lists).
 */
export function paragraphsOf(text: string, page: number, lineJoin: ' ' | '\n'): Block[] {
  const blocks: Block[] = [];
  for (const para of text.replace(/\r\n?/g, '\n').split(/\n[ \t\f\v\u00a0]*\n/)) {
    const lines = para
      .split('\n')
      .map((l) => (lineJoin === ' ' ? squash(l) : l.trimEnd()))
      .filter((l) => l.trim() !== '');
    // Keep a text file's indentation inside the paragraph, but not before its first line.
    const joined = lines.join(lineJoin).replace(/^\s+/, '');
    if (joined !== '') blocks.push({ kind: 'paragraph', text: joined, page });
  }
  return blocks;
}

/** The first heading of the outermost level present: the title when the format has no other. */
export function firstTopHeading(blocks: Block[]): string | undefined {
  let best: Block | undefined;
  for (const b of blocks) {
    if (b.kind === 'heading' && (best === undefined || (b.level ?? 1) < (best.level ?? 1))) best = b;
  }
  return best?.text;
}

/** Returns the document, or throws 'empty' when no text was read and no page was skipped. */
export function nonEmpty(doc: ParsedDocument): ParsedDocument {
  if (doc.blocks.length === 0 && doc.skippedPages.length === 0) {
    throw new DocumentParseError('empty', `the ${doc.format} document has no text`);
  }
  return doc;
}

/** A ParsedDocument of a format without pages (everything on page 1). */
export function singlePage(
  format: ParsedDocument['format'],
  blocks: Block[],
  title?: string,
  ocr?: { ocrPages: number[]; skippedPages: ParsedDocument['skippedPages'] },
): ParsedDocument {
  const doc: ParsedDocument = {
    format,
    totalPages: 1,
    blocks,
    skippedPages: ocr?.skippedPages ?? [],
    ocrPages: ocr?.ocrPages ?? [],
  };
  if (title) doc.title = title;
  return nonEmpty(doc);
}
