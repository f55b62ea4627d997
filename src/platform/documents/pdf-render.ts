/**
 * Scanned pages: a page without a text layer that paints an image is a picture of text. It is
 * rendered with pdf.js onto an @napi-rs/canvas canvas (the canvas pdf.js itself uses in Node)
 * and encoded as PNG for OCR.
 */
import { OPS, type PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';

/** Tesseract reads best at about 300 DPI (its documentation); PDF units are 1/72 inch. */
const OCR_DPI = 300;
/** Caps for large pages (posters, drawings): memory is 4 bytes a pixel, and OCR time grows with area. */
const MAX_SIDE_PX = 5000;
const MAX_AREA_PX = 16_000_000;

const IMAGE_OPS: ReadonlySet<number> = new Set([
  OPS.paintImageXObject,
  OPS.paintImageXObjectRepeat,
  OPS.paintInlineImageXObject,
  OPS.paintInlineImageXObjectGroup,
  OPS.paintImageMaskXObject,
  OPS.paintImageMaskXObjectGroup,
  OPS.paintImageMaskXObjectRepeat,
]);

/**
 * Does the page paint any image? Called only for pages without text. pdf.js keeps the operator
 * list for the 'display' intent, so a render that follows reuses it instead of decoding twice.
 */
export async function paintsImages(page: PDFPageProxy): Promise<boolean> {
  const ops = await page.getOperatorList();
  return ops.fnArray.some((fn) => IMAGE_OPS.has(fn));
}

/** The scale (device pixels per PDF unit) for OCR, capped for very large pages. */
export function ocrScale(widthPt: number, heightPt: number): number {
  let scale = OCR_DPI / 72;
  scale = Math.min(scale, MAX_SIDE_PX / Math.max(widthPt, heightPt, 1));
  scale = Math.min(scale, Math.sqrt(MAX_AREA_PX / Math.max(widthPt * heightPt, 1)));
  return scale;
}

/** Render the page to PNG bytes at OCR resolution. */
export async function renderPng(page: PDFPageProxy): Promise<Uint8Array> {
  const base = page.getViewport({ scale: 1 });
  const viewport = page.getViewport({ scale: ocrScale(base.width, base.height) });
  // Loaded here: without the native canvas package only scanned pages fail, not every PDF.
  const { createCanvas } = await import('@napi-rs/canvas');
  const canvas = createCanvas(Math.ceil(viewport.width), Math.ceil(viewport.height));
  // pdf.js types its canvas as the DOM's; in Node it drives @napi-rs/canvas, which has the same 2D API.
  await page.render({ canvas: canvas as unknown as HTMLCanvasElement, viewport }).promise;
  const png = await canvas.encode('png');
  return new Uint8Array(png.buffer, png.byteOffset, png.byteLength);
}
