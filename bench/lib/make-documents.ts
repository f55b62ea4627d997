/**
 * Test documents for the documents benchmark, built from SciFact abstracts: each abstract's title
 * is a heading and its text one paragraph, in a PDF (pdfkit), a DOCX (docx) and an HTML page; plus
 * a "scanned" PDF page (an abstract drawn into a PNG, embedded with no text layer) for OCR, and a
 * long PDF of a fixed number of pages for memory use while parsing.
 *
 * PDFs embed DejaVu Sans when the system has it: pdfkit's built-in Helvetica covers only WinAnsi,
 * and a fifth of the abstracts hold Greek letters and symbols (β, ≥, ±) that it would write as
 * other glyphs, which would measure the font rather than the parser. The text is written as it is:
 * a few abstracts hold C1 control characters (U+0082, U+0094, U+0096, mojibake in the corpus) that
 * no font has a glyph for, and pdf.js reads such glyphs back as U+0000, as it does in real PDFs.
 */
import fs from 'node:fs';
import { createCanvas, GlobalFonts } from '@napi-rs/canvas';
import { Document as DocxDocument, HeadingLevel, Packer, Paragraph } from 'docx';
import PDFDocument from 'pdfkit';
import type { Abstract } from './scifact.ts';

export type Format = 'pdf' | 'docx' | 'html';

/** A file ready to upload. */
export interface TestFile {
  name: string;
  type: string;
  bytes: Uint8Array<ArrayBuffer>;
  /** Pages as the generator laid them out (1 for formats without pages). */
  pages: number;
}

const FONT_DIR = process.env.DOCS_FONT_DIR || '/usr/share/fonts/truetype/dejavu';
const REGULAR = `${FONT_DIR}/DejaVuSans.ttf`;
const BOLD = `${FONT_DIR}/DejaVuSans-Bold.ttf`;
const hasFonts = fs.existsSync(REGULAR) && fs.existsSync(BOLD);
if (!hasFonts) console.error(`no DejaVu fonts in ${FONT_DIR}: PDFs use Helvetica, non-WinAnsi characters will differ`);

const TITLE_PT = 14;
const BODY_PT = 11;
/** One inch: the usual margin; A4 pages. */
const MARGIN = 72;

type Pdf = InstanceType<typeof PDFDocument>;

/** A pdfkit document with the fonts registered, its bytes collected and its pages counted. */
function newPdf(title: string): { doc: Pdf; pages: () => number; done: () => Promise<Uint8Array<ArrayBuffer>> } {
  const doc = new PDFDocument({ size: 'A4', margin: MARGIN, info: { Title: title } });
  if (hasFonts) {
    doc.registerFont('body', REGULAR);
    doc.registerFont('title', BOLD);
  }
  const parts: Buffer[] = [];
  let pages = 1;
  doc.on('data', (b: Buffer) => parts.push(b));
  doc.on('pageAdded', () => pages++);
  const ended = new Promise<void>((resolve) => doc.on('end', () => resolve()));
  return {
    doc,
    pages: () => pages,
    done: async () => {
      doc.end();
      await ended;
      return new Uint8Array(Buffer.concat(parts)); // a copy: an ArrayBuffer of its own, as Blob wants
    },
  };
}

const font = (doc: Pdf, which: 'title' | 'body') =>
  doc.font(hasFonts ? which : which === 'title' ? 'Helvetica-Bold' : 'Helvetica');

/** Height of `a`'s title and first three lines of text: what a page must have left to start it. */
function startHeight(doc: Pdf, a: Abstract, width: number): number {
  const title = font(doc, 'title').fontSize(TITLE_PT).heightOfString(a.title, { width });
  return title + 3 * font(doc, 'body').fontSize(BODY_PT).currentLineHeight(true) + BODY_PT;
}

/**
 * Title in bold 14 pt, text in 11 pt, a blank line between abstracts; the text flows over pages,
 * but a title is kept with its first lines as typesetters do (a title split over two pages would
 * test the layout of this generator, not the parser).
 */
function writeAbstract(doc: Pdf, a: Abstract): void {
  const width = doc.page.width - 2 * MARGIN;
  if (doc.y + startHeight(doc, a, width) > doc.page.height - MARGIN) doc.addPage();
  font(doc, 'title').fontSize(TITLE_PT).text(a.title);
  doc.moveDown(0.4);
  font(doc, 'body').fontSize(BODY_PT).text(a.text);
  doc.moveDown(1.2);
}

export async function makePdf(name: string, abstracts: Abstract[]): Promise<TestFile> {
  const pdf = newPdf(name);
  for (const a of abstracts) writeAbstract(pdf.doc, a);
  const bytes = await pdf.done();
  return { name: `${name}.pdf`, type: 'application/pdf', bytes, pages: pdf.pages() };
}

/**
 * A PDF of exactly `pages` pages, laid out as {@link makePdf} does, with abstracts taken in turn
 * from `pool` (round again if needed). On the last page only abstracts that fit whole are
 * written, so the document ends there.
 */
export async function makeLongPdf(pages: number, pool: Abstract[]): Promise<TestFile> {
  const pdf = newPdf(`${pages}-page SciFact PDF`);
  const { doc } = pdf;
  const width = doc.page.width - 2 * MARGIN;
  for (let i = 0; ; i++) {
    const a = pool[i % pool.length];
    if (pdf.pages() >= pages) {
      const need =
        font(doc, 'title').fontSize(TITLE_PT).heightOfString(a.title, { width }) +
        font(doc, 'body').fontSize(BODY_PT).heightOfString(a.text, { width }) +
        2 * doc.currentLineHeight(true);
      if (doc.y + need > doc.page.height - MARGIN) break;
    }
    writeAbstract(doc, a);
  }
  const bytes = await pdf.done();
  return { name: `long-${pages}.pdf`, type: 'application/pdf', bytes, pages: pdf.pages() };
}

export async function makeDocx(name: string, abstracts: Abstract[]): Promise<TestFile> {
  const children = abstracts.flatMap((a) => [
    new Paragraph({ text: a.title, heading: HeadingLevel.HEADING_1 }),
    new Paragraph({ text: a.text }),
  ]);
  const doc = new DocxDocument({ title: name, sections: [{ children }] });
  const bytes = new Uint8Array(await Packer.toBuffer(doc));
  return {
    name: `${name}.docx`,
    type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    bytes,
    pages: 1,
  };
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * An article page as a site would serve it: navigation, a search form and a footer around the
 * <article>, which the parser should drop (the benchmark reports any chunk holding their words).
 */
export function makeHtml(name: string, abstracts: Abstract[]): TestFile {
  const body = abstracts.map((a) => `<h2>${esc(a.title)}</h2>\n<p>${esc(a.text)}</p>`).join('\n');
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${esc(name)}</title></head>
<body>
<header><nav><a href="/">Home</a> | <a href="/browse">Browse journals</a> | <a href="/login">Sign in</a></nav>
<form action="/search"><input name="q" placeholder="Search"><button>Go</button></form></header>
<main><article>
${body}
</article></main>
<footer><p>${BOILERPLATE}</p><nav><a href="/privacy">Privacy</a> <a href="/terms">Terms</a></nav></footer>
</body></html>`;
  return { name: `${name}.html`, type: 'text/html', bytes: new TextEncoder().encode(html), pages: 1 };
}

/** The footer's sentence: a chunk that contains it means the boilerplate was not dropped. */
export const BOILERPLATE = 'Copyright Quokkatronic Publishing Group. All rights reserved. Cookie settings.';

/** Split `text` into lines no wider than `width` px as `measure` measures them. */
function wrap(text: string, width: number, measure: (s: string) => number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    const next = line ? `${line} ${word}` : word;
    if (line && measure(next) > width) {
      lines.push(line);
      line = word;
    } else line = next;
  }
  if (line) lines.push(line);
  return lines;
}

/**
 * A scanned page: `a` drawn black on white into an A4 PNG at 300 DPI (title 14 pt bold, text
 * 11 pt, as in the text PDFs), placed on a PDF page as an image with no text layer.
 */
export async function makeScannedPdf(a: Abstract): Promise<TestFile> {
  const dpi = 300;
  const px = (pt: number) => Math.round((pt * dpi) / 72);
  const [w, h] = [px(595.28), px(841.89)];
  if (hasFonts) {
    GlobalFonts.registerFromPath(REGULAR, 'BenchSans');
    GlobalFonts.registerFromPath(BOLD, 'BenchSansBold');
  }
  const canvas = createCanvas(w, h);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#fff';
  ctx.fillRect(0, 0, w, h);
  ctx.fillStyle = '#000';
  ctx.textBaseline = 'top';
  let y = px(MARGIN);
  const width = w - 2 * px(MARGIN);
  for (const [text, pt, family] of [
    [a.title, TITLE_PT, hasFonts ? 'BenchSansBold' : 'sans-serif'],
    [a.text, BODY_PT, hasFonts ? 'BenchSans' : 'sans-serif'],
  ] as const) {
    ctx.font = `${family === 'sans-serif' && pt === TITLE_PT ? 'bold ' : ''}${px(pt)}px ${family}`;
    for (const line of wrap(text, width, (s) => ctx.measureText(s).width)) {
      ctx.fillText(line, px(MARGIN), y);
      y += px(pt * 1.25);
    }
    y += px(pt * 0.6);
  }
  const png = await canvas.encode('png');
  const pdf = newPdf('Scanned SciFact abstract');
  pdf.doc.image(png, 0, 0, { width: pdf.doc.page.width, height: pdf.doc.page.height });
  return { name: 'scanned.pdf', type: 'application/pdf', bytes: await pdf.done(), pages: 1 };
}

/** One document of `abstracts` in `format`, named `name` (plus the extension). */
export function makeDocument(format: Format, name: string, abstracts: Abstract[]): Promise<TestFile> {
  if (format === 'pdf') return makePdf(name, abstracts);
  if (format === 'docx') return makeDocx(name, abstracts);
  return Promise.resolve(makeHtml(name, abstracts));
}
