/**
 * OCR end to end with the real tesseract adapter (one worker shared by the file): scanned PDF
 * pages and image uploads, with OCR and without, and the adapter's failure and abort paths.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { createTesseractOcr, detectFormat, DocumentParseError, parseDocument, type Ocr } from './index.ts';
import { makePdf, recall, textImage, textTiff } from './test-files.ts';

const SCAN = ['Quarterly minutes of the garden club', 'Members agreed to plant tulips', 'near the northern fence'];
const SCAN_TEXT = SCAN.join(' ');

/** Page 1 has a text layer; page 2 is only a picture of text, like a scanner makes. */
async function halfScanned(): Promise<Uint8Array> {
  const png = Buffer.from(await textImage(SCAN));
  return makePdf((doc) => {
    doc.fontSize(12).text('Typed cover page.');
    doc.addPage();
    doc.image(png, 40, 60, { width: 515 });
  });
}

describe('OCR (tesseract, English, from disk)', () => {
  let ocr: Ocr;
  before(() => {
    ocr = createTesseractOcr();
  });
  after(async () => {
    await ocr.close();
  });

  it('names its engine and data, and reads a PNG of text', async (t) => {
    assert.equal(ocr.id, 'tesseract-eng-4.0.0_best_int');
    const started = performance.now();
    const { text, confidence } = await ocr.recognize(await textImage(SCAN));
    t.diagnostic(`first recognition (worker start included): ${((performance.now() - started) / 1000).toFixed(2)} s`);
    assert.ok(recall(SCAN_TEXT, text) >= 0.9, text);
    assert.ok(confidence > 50 && confidence <= 100, `confidence ${confidence}`);
  });

  it('reads the scanned page of a PDF and records it in ocrPages', async (t) => {
    const started = performance.now();
    const doc = await parseDocument(await halfScanned(), 'pdf', { ocr, maxPages: 10 });
    t.diagnostic(
      `2-page PDF, one page scanned (render at 300 DPI + OCR): ${((performance.now() - started) / 1000).toFixed(2)} s`,
    );
    assert.deepEqual(doc.ocrPages, [2]);
    assert.deepEqual(doc.skippedPages, []);
    assert.deepEqual(doc.blocks[0], { kind: 'paragraph', text: 'Typed cover page.', page: 1 });
    const scanned = doc.blocks.filter((b) => b.page === 2);
    assert.ok(scanned.length > 0 && scanned.every((b) => b.kind === 'paragraph'));
    const text = scanned.map((b) => b.text).join(' ');
    assert.ok(recall(SCAN_TEXT, text) >= 0.8, text);
  });

  it('lists the scanned page as skipped when OCR is disabled, never dropping it silently', async () => {
    const doc = await parseDocument(await halfScanned(), 'pdf', { ocr: null, maxPages: 10 });
    assert.deepEqual(doc.skippedPages, [{ page: 2, reason: 'ocr_disabled' }]);
    assert.deepEqual(doc.ocrPages, []);
    assert.deepEqual(
      doc.blocks.map((b) => b.page),
      [1],
    );
  });

  it('returns a wholly scanned PDF without OCR as skipped pages, not as empty', async () => {
    const png = Buffer.from(await textImage(['Only a picture']));
    const bytes = await makePdf((doc) => doc.image(png, 40, 60, { width: 400 }));
    const doc = await parseDocument(bytes, 'pdf', { ocr: null, maxPages: 10 });
    assert.deepEqual(doc.blocks, []);
    assert.deepEqual(doc.skippedPages, [{ page: 1, reason: 'ocr_disabled' }]);
  });

  it('reads image uploads: PNG, JPEG, WebP and TIFF are detected and read', async (t) => {
    const lines = ['Invoice number 4471', 'Payment due in thirty days'];
    const images = {
      png: await textImage(lines, 'png'),
      jpeg: await textImage(lines, 'jpeg'),
      webp: await textImage(lines, 'webp'),
      tiff: textTiff(lines),
    };
    for (const [kind, bytes] of Object.entries(images)) {
      assert.deepEqual(await detectFormat(bytes, 'upload.bin'), { format: 'image', mime: `image/${kind}` });
      const started = performance.now();
      const doc = await parseDocument(bytes, 'image', { ocr, maxPages: 1 });
      t.diagnostic(`${kind} image: ${((performance.now() - started) / 1000).toFixed(2)} s`);
      assert.deepEqual(doc.ocrPages, [1]);
      assert.equal(doc.totalPages, 1);
      assert.ok(recall(lines.join(' '), doc.blocks.map((b) => b.text).join(' ')) >= 0.8, kind);
    }
  });

  it('lists an image as skipped when OCR is disabled', async () => {
    const doc = await parseDocument(await textImage(['hello']), 'image', { ocr: null, maxPages: 1 });
    assert.deepEqual(doc, {
      format: 'image',
      totalPages: 1,
      blocks: [],
      skippedPages: [{ page: 1, reason: 'ocr_disabled' }],
      ocrPages: [],
    });
  });

  it('refuses an unreadable image as corrupt, and keeps working after it', async () => {
    const broken = (await textImage(['broken'])).subarray(0, 40);
    const err = await parseDocument(broken, 'image', { ocr, maxPages: 1 }).catch((e: unknown) => e);
    assert.ok(err instanceof DocumentParseError && err.reason === 'corrupt', String(err));
    const { text } = await ocr.recognize(await textImage(['still here']));
    assert.ok(recall('still here', text) === 1, text);
  });

  it('abandons a recognition when its signal aborts, and recovers for the next one', async () => {
    const controller = new AbortController();
    const reason = new Error('cancelled');
    const running = ocr.recognize(await textImage(SCAN), controller.signal);
    setTimeout(() => controller.abort(reason), 20);
    await assert.rejects(running, (e) => e === reason);
    await assert.rejects(ocr.recognize(await textImage(['x']), AbortSignal.abort(reason)), (e) => e === reason);
    const { text } = await ocr.recognize(await textImage(['after the abort']));
    assert.ok(recall('after the abort', text) === 1, text);
  });

  it('writes no copy of the language data into the working directory', () => {
    assert.equal(existsSync(path.join(process.cwd(), 'eng.traineddata')), false);
  });

  it('works with no network at all (run in a namespace without one)', { timeout: 60_000 }, (t) => {
    if (spawnSync('unshare', ['-rn', 'true']).status !== 0) {
      t.skip('unshare -rn is not available here');
      return;
    }
    const here = path.dirname(fileURLToPath(import.meta.url));
    // CommonJS -e with dynamic imports: --input-type would be passed on to tesseract's worker thread.
    const script = `(async () => {
      const { createTesseractOcr } = await import(${JSON.stringify(path.join(here, 'index.ts'))});
      const { textImage } = await import(${JSON.stringify(path.join(here, 'test-files.ts'))});
      const ocr = createTesseractOcr();
      const { text } = await ocr.recognize(await textImage(['offline reading works']));
      await ocr.close();
      console.log(JSON.stringify(text));
    })();`;
    const run = spawnSync('unshare', ['-rn', process.execPath, '--import', 'tsx', '-e', script], {
      cwd: here,
      encoding: 'utf8',
    });
    assert.equal(run.status, 0, run.stderr);
    assert.ok(recall('offline reading works', String(JSON.parse(run.stdout))) === 1, run.stdout);
  });
});
