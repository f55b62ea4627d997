/**
 * Test files made on the spot (no binary fixtures): PDFs with pdfkit, pictures of text with
 * @napi-rs/canvas, and the word-level comparisons the tests assert with. Used by tests only.
 */
import { createCanvas } from '@napi-rs/canvas';
import PDFDocument from 'pdfkit';

/** A PDF drawn by `build` (pdfkit starts with one page). */
export function makePdf(
  build: (doc: PDFKit.PDFDocument) => void,
  options: PDFKit.PDFDocumentOptions = {},
): Promise<Uint8Array> {
  const doc = new PDFDocument({ size: 'A4', ...options });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  return new Promise((resolve, reject) => {
    doc.on('end', () => resolve(new Uint8Array(Buffer.concat(chunks))));
    doc.on('error', reject);
    build(doc);
    doc.end();
  });
}

/** Lines of large, clear text (40px sans-serif, black on white): what a clean scan looks like. */
export function textCanvas(lines: string[], width = 1400) {
  const lineHeight = 64;
  const canvas = createCanvas(width, lineHeight * lines.length + 80);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = 'white';
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  ctx.fillStyle = 'black';
  ctx.font = '40px sans-serif';
  lines.forEach((line, i) => ctx.fillText(line, 40, 80 + i * lineHeight));
  return canvas;
}

export async function textImage(lines: string[], format: 'png' | 'jpeg' | 'webp' = 'png'): Promise<Uint8Array> {
  const canvas = textCanvas(lines);
  const bytes = format === 'png' ? await canvas.encode('png') : await canvas.encode(format, 90);
  return new Uint8Array(bytes);
}

/**
 * The same picture as an uncompressed 8-bit grayscale TIFF (canvas encodes no TIFF): a header and
 * one directory of nine baseline tags in front of the pixels.
 */
export function textTiff(lines: string[]): Uint8Array {
  const canvas = textCanvas(lines);
  const { width, height } = canvas;
  const rgba = canvas.getContext('2d').getImageData(0, 0, width, height).data;
  const tags: [tag: number, type: 3 | 4, value: number][] = [
    [256, 3, width], // ImageWidth
    [257, 3, height], // ImageLength
    [258, 3, 8], // BitsPerSample
    [259, 3, 1], // Compression: none
    [262, 3, 1], // PhotometricInterpretation: black is zero
    [273, 4, 0], // StripOffsets (set below)
    [277, 3, 1], // SamplesPerPixel
    [278, 3, height], // RowsPerStrip
    [279, 4, width * height], // StripByteCounts
  ];
  const pixelsAt = 8 + 2 + tags.length * 12 + 4;
  const out = Buffer.alloc(pixelsAt + width * height);
  out.write('II', 0);
  out.writeUInt16LE(42, 2);
  out.writeUInt32LE(8, 4);
  out.writeUInt16LE(tags.length, 8);
  tags.forEach(([tag, type, value], i) => {
    const at = 10 + i * 12;
    out.writeUInt16LE(tag, at);
    out.writeUInt16LE(type, at + 2);
    out.writeUInt32LE(1, at + 4);
    const v = tag === 273 ? pixelsAt : value;
    if (type === 3) out.writeUInt16LE(v, at + 8);
    else out.writeUInt32LE(v, at + 8);
  });
  for (let p = 0; p < width * height; p++) out[pixelsAt + p] = rgba[p * 4];
  return new Uint8Array(out);
}

/** Lower-case words (letters and digits only): what OCR output is compared by. */
export function wordsOf(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w !== '');
}

/** The share of `expected` words found in `text` (OCR may misread a few). */
export function recall(expected: string, text: string): number {
  const found = new Set(wordsOf(text));
  const words = wordsOf(expected);
  return words.filter((w) => found.has(w)).length / words.length;
}
