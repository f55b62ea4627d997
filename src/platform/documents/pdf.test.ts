/** PDF parsing on PDFs made here with pdfkit: text, headings, pages, and the failure reasons. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DocumentParseError, parseDocument, type ParseOptions } from './index.ts';
import { ocrScale } from './pdf-render.ts';
import { makePdf } from './test-files.ts';

const LONG =
  'The committee met on several occasions during the year to review the accounts, and each time it ' +
  'found the records in good order, with every payment matched to an approved invoice and receipt.';

/** Three pages: a 24pt title, 16pt section headings, 12pt body text (one paragraph wraps). */
const report = () =>
  makePdf(
    (doc) => {
      doc.fontSize(24).text('Annual Report');
      doc.moveDown();
      doc.fontSize(12).text('This report covers the whole year.');
      doc.moveDown();
      doc.fontSize(16).text('Background');
      doc.moveDown(0.5);
      doc.fontSize(12).text(LONG);
      doc.moveDown();
      doc.text('A second paragraph of background.');
      doc.addPage();
      doc.fontSize(16).text('Results');
      doc.moveDown(0.5);
      doc.fontSize(12).text('Revenue grew by ten percent.');
      doc.addPage();
      doc.fontSize(12).text('Closing remarks on the last page.');
    },
    { info: { Title: 'Report 2024' } },
  );

const opts = (extra: Partial<ParseOptions> = {}): ParseOptions => ({ ocr: null, maxPages: 100, ...extra });

async function parseFailure(promise: Promise<unknown>): Promise<string> {
  const err = await promise.then(
    () => assert.fail('expected a DocumentParseError'),
    (e: unknown) => e,
  );
  assert.ok(err instanceof DocumentParseError, `not a DocumentParseError: ${String(err)}`);
  return err.reason;
}

describe('PDF', () => {
  it('reads headings by font size, paragraphs, pages and reading order', async () => {
    const progress: [number, number][] = [];
    const doc = await parseDocument(await report(), 'pdf', opts({ onPage: (d, t) => progress.push([d, t]) }));
    assert.equal(doc.format, 'pdf');
    assert.equal(doc.totalPages, 3);
    assert.equal(doc.title, 'Report 2024'); // from the document information
    assert.deepEqual(
      doc.blocks.map((b) => [b.kind, b.level, b.page, b.text]),
      [
        ['heading', 1, 1, 'Annual Report'],
        ['paragraph', undefined, 1, 'This report covers the whole year.'],
        ['heading', 2, 1, 'Background'],
        ['paragraph', undefined, 1, LONG], // wrapped over lines by pdfkit, one paragraph again
        ['paragraph', undefined, 1, 'A second paragraph of background.'],
        ['heading', 2, 2, 'Results'],
        ['paragraph', undefined, 2, 'Revenue grew by ten percent.'],
        ['paragraph', undefined, 3, 'Closing remarks on the last page.'],
      ],
    );
    assert.deepEqual(doc.skippedPages, []);
    assert.deepEqual(doc.ocrPages, []);
    assert.deepEqual(progress, [
      [1, 3],
      [2, 3],
      [3, 3],
    ]);
  });

  it('takes the title from the top heading when the file has none', async () => {
    const bytes = await makePdf((doc) => {
      doc.fontSize(12).text('Lead paragraph before the title.');
      doc.fontSize(20).text('Minor Heading');
      doc.fontSize(30).text('Big Heading');
      doc.fontSize(12).text('Body.');
    });
    const doc = await parseDocument(bytes, 'pdf', opts());
    assert.equal(doc.title, 'Big Heading');
    const headings = doc.blocks.filter((b) => b.kind === 'heading').map((b) => [b.text, b.level]);
    assert.deepEqual(headings, [
      ['Minor Heading', 2],
      ['Big Heading', 1],
    ]);
  });

  it('refuses a password-protected PDF as encrypted', async () => {
    const bytes = await makePdf((doc) => doc.text('secret'), { userPassword: 'pw', ownerPassword: 'owner' });
    assert.equal(await parseFailure(parseDocument(bytes, 'pdf', opts())), 'encrypted');
  });

  it('reads a PDF that has only an owner password (permissions, no password to open)', async () => {
    const bytes = await makePdf((doc) => doc.text('open to all readers'), {
      ownerPassword: 'owner',
      permissions: { modifying: false },
    });
    const doc = await parseDocument(bytes, 'pdf', opts());
    assert.deepEqual(
      doc.blocks.map((b) => b.text),
      ['open to all readers'],
    );
  });

  it('refuses truncated and garbage PDFs as corrupt', async () => {
    const good = await report();
    assert.equal(await parseFailure(parseDocument(good.subarray(0, good.length / 2), 'pdf', opts())), 'corrupt');
    const garbage = new Uint8Array(2000);
    for (let i = 0; i < garbage.length; i++) garbage[i] = (i * 7919 + 13) % 256;
    garbage.set(new TextEncoder().encode('%PDF-1.7\n'));
    assert.equal(await parseFailure(parseDocument(garbage, 'pdf', opts())), 'corrupt');
  });

  it('refuses a PDF with no text and nothing skipped as empty', async () => {
    const bytes = await makePdf((doc) => doc.rect(100, 100, 200, 100).stroke());
    assert.equal(await parseFailure(parseDocument(bytes, 'pdf', opts())), 'empty');
  });

  it('refuses more pages than maxPages before reading any', async () => {
    let pagesRead = 0;
    const failure = parseDocument(await report(), 'pdf', opts({ maxPages: 2, onPage: () => pagesRead++ }));
    assert.equal(await parseFailure(failure), 'too_many_pages');
    assert.equal(pagesRead, 0);
  });

  it('stops between pages when the signal aborts, throwing its reason', async () => {
    const controller = new AbortController();
    const reason = new Error('upload cancelled');
    const seen: number[] = [];
    const parsing = parseDocument(
      await report(),
      'pdf',
      opts({
        signal: controller.signal,
        onPage: (done) => {
          seen.push(done);
          controller.abort(reason);
        },
      }),
    );
    await assert.rejects(parsing, (err) => err === reason);
    assert.deepEqual(seen, [1]);
  });

  it('leaves the caller’s bytes alone (pdf.js detaches the buffer it is given)', async () => {
    const bytes = await report();
    const length = bytes.byteLength;
    await parseDocument(bytes, 'pdf', opts());
    assert.equal(bytes.byteLength, length);
    assert.equal(new TextDecoder().decode(bytes.subarray(0, 5)), '%PDF-');
  });

  it('renders scanned pages for OCR at 300 DPI, capped for very large pages', () => {
    assert.equal(ocrScale(595.28, 841.89), 300 / 72); // A4: 2480 × 3508 pixels
    for (const [w, h] of [
      [2384, 3370], // A0
      [14400, 200], // a very long banner
    ]) {
      const s = ocrScale(w, h);
      assert.ok(s < 300 / 72);
      assert.ok(Math.max(w, h) * s <= 5000 && w * h * s * s <= 16_000_000 + 1);
    }
  });
});
