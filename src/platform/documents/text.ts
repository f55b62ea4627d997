/** Plain text: decoding (shared with detection, Markdown and HTML) and paragraphs on blank lines. */
import { paragraphsOf, singlePage } from './blocks.ts';
import { DocumentParseError, type ParsedDocument } from './types.ts';

// C0 control characters that never occur in text (tab, newlines, form feed and ESC may).
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const BINARY_CONTROLS = /[\u0000-\u0008\u000e-\u001a\u001c-\u001f]/;

/**
 * Bytes → text, or null when they are not text: UTF-8 (with or without a byte order mark), or
 * UTF-16 announced by its byte order mark. Invalid sequences or control characters mean binary.
 * Legacy 8-bit encodings are refused rather than guessed: a wrong guess stores garbage silently.
 */
export function decodeText(bytes: Uint8Array): string | null {
  let encoding = 'utf-8';
  if (bytes[0] === 0xff && bytes[1] === 0xfe) encoding = 'utf-16le';
  else if (bytes[0] === 0xfe && bytes[1] === 0xff) encoding = 'utf-16be';
  let text: string;
  try {
    // fatal: throw on an invalid sequence instead of inserting U+FFFD; the BOM is dropped.
    text = new TextDecoder(encoding, { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
  return BINARY_CONTROLS.test(text) ? null : text;
}

/** Decoded text of a text format, or 'corrupt' (detection let through bytes that are not text). */
export function textOf(bytes: Uint8Array, format: string): string {
  const text = decodeText(bytes);
  if (text === null) throw new DocumentParseError('corrupt', `the ${format} file is not valid UTF-8 or UTF-16 text`);
  return text;
}

export function parseText(bytes: Uint8Array): ParsedDocument {
  return singlePage('text', paragraphsOf(textOf(bytes, 'text'), 1, '\n'));
}
