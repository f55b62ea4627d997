import type { ParsedDocument } from './types.ts';

/**
 * Text the stores can keep: PostgreSQL refuses U+0000 in text (pdf.js reads a glyph without a
 * Unicode mapping as U+0000, and one such character failed a whole document), and the other
 * control characters but tab and newline carry nothing a reader or a search could use.
 */
export function storable(doc: ParsedDocument): ParsedDocument {
  const clean = (t: string) =>
    // eslint-disable-next-line no-control-regex -- matching control characters is the point
    t.replace(/\u0000/g, '').replace(/[\u0001-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/g, ' ');
  const blocks = doc.blocks.map((b) => ({ ...b, text: clean(b.text) })).filter((b) => b.text.trim() !== '');
  return { ...doc, blocks, ...(doc.title !== undefined ? { title: clean(doc.title) } : {}) };
}
