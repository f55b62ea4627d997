/**
 * What an upload is. Content decides first (magic bytes through `file-type`), so a PDF named
 * notes.txt is a PDF; formats without magic (HTML, Markdown, text) are told apart by extension,
 * declared MIME type and a look at the text, once the bytes prove to be text at all.
 */
import { fileTypeFromBuffer } from 'file-type';
import { decodeText } from './text.ts';
import type { DocumentFormat } from './types.ts';

export interface SupportedFormat {
  format: DocumentFormat;
  mime: string;
  extensions: string[];
}

/** What uploads may be: for the 415 error's list and docs. */
export const SUPPORTED_FORMATS: readonly SupportedFormat[] = Object.freeze([
  { format: 'pdf', mime: 'application/pdf', extensions: ['pdf'] },
  {
    format: 'docx',
    mime: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    extensions: ['docx'],
  },
  { format: 'html', mime: 'text/html', extensions: ['html', 'htm', 'xhtml'] },
  { format: 'markdown', mime: 'text/markdown', extensions: ['md', 'markdown', 'mdown', 'mkd'] },
  { format: 'text', mime: 'text/plain', extensions: ['txt', 'text'] },
  { format: 'image', mime: 'image/png', extensions: ['png'] },
  { format: 'image', mime: 'image/jpeg', extensions: ['jpg', 'jpeg'] },
  // tesseract reads these two as they are (checked in ocr.test.ts).
  { format: 'image', mime: 'image/webp', extensions: ['webp'] },
  { format: 'image', mime: 'image/tiff', extensions: ['tif', 'tiff'] },
]);

type Detected = { format: DocumentFormat; mime: string };

/** Formats recognised by their magic bytes, keyed by the MIME type file-type reports. */
const BY_MAGIC = new Map(
  SUPPORTED_FORMATS.filter((f) => f.format === 'pdf' || f.format === 'docx' || f.format === 'image').map((f) => [
    f.mime,
    { format: f.format, mime: f.mime },
  ]),
);

const TEXT_FORMATS = SUPPORTED_FORMATS.filter((f) => ['html', 'markdown', 'text'].includes(f.format));

/** Declared types that clients send for the text formats besides the canonical ones. */
const MIME_ALIASES: Record<string, DocumentFormat> = {
  'application/xhtml+xml': 'html',
  'text/x-markdown': 'markdown',
  'text/x-web-markdown': 'markdown',
};

/** Magic that file-type reports for some text (an XML declaration): the bytes may still be XHTML. */
const TEXTUAL_MAGIC = new Set(['application/xml', 'text/xml']);

// A document that opens as HTML, after an optional XML declaration and comments.
const HTML_START = /^\s*(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*<(!doctype\s+html|html[\s>])/i;

function extensionOf(filename: string): string {
  const dot = filename.lastIndexOf('.');
  return dot < 0 ? '' : filename.slice(dot + 1).toLowerCase();
}

/** The text format the name or the declared type claims (the extension wins: clients guess types). */
function claimedTextFormat(filename: string, declaredType?: string): Detected | null {
  const ext = extensionOf(filename);
  const byExt = TEXT_FORMATS.find((f) => f.extensions.includes(ext));
  if (byExt) return { format: byExt.format, mime: byExt.mime };
  const declared = (declaredType ?? '').split(';')[0].trim().toLowerCase();
  const format = TEXT_FORMATS.find((f) => f.mime === declared)?.format ?? MIME_ALIASES[declared];
  const entry = TEXT_FORMATS.find((f) => f.format === format);
  return entry ? { format: entry.format, mime: entry.mime } : null;
}

/** Detect from content first, then (for text) from the name, declared type and the text itself; null = unsupported. */
export async function detectFormat(
  bytes: Uint8Array,
  filename: string,
  declaredType?: string,
): Promise<{ format: DocumentFormat; mime: string } | null> {
  const magic = await fileTypeFromBuffer(bytes).catch(() => undefined);
  const byMagic = magic && BY_MAGIC.get(magic.mime);
  if (byMagic) return { ...byMagic };
  const claimed = claimedTextFormat(filename, declaredType);
  // Other magic means another binary format, unless the upload says it is text and decodes as
  // text (plain text can start with bytes that look like a signature, e.g. "ID3").
  if (magic && !TEXTUAL_MAGIC.has(magic.mime) && !claimed) return null;
  const text = decodeText(bytes);
  if (text === null) return null;
  if (claimed) return claimed;
  const html = TEXT_FORMATS.find((f) => f.format === 'html')!;
  if (HTML_START.test(text.slice(0, 4096))) return { format: 'html', mime: html.mime };
  // Readable text under an unknown name or type (README, notes.log, application/octet-stream).
  return { format: 'text', mime: 'text/plain' };
}
