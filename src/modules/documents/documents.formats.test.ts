/**
 * Documents of each paged or scanned kind through the whole path (upload → the parser's
 * thread → chunks → memories), on both stores: a PDF's pages and headings reach the chunks'
 * metadata, a scanned image is read by OCR, and with OCR off it is reported, not dropped.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { buildWorker } from '../../app.ts';
import { createLogger } from '../../platform/log.ts';
import type { Worker } from '../../platform/jobs/index.ts';
import { makePdf, textImage } from '../../platform/documents/test-files.ts';
import { startApp, testConfig, testStores, type TestApp } from '../../../test/harness.ts';
import { uploadDocument } from '../../../test/multipart.ts';
import { waitFor as waitForDefault } from '../../../test/wait.ts';

const waitFor = <T>(fn: () => T | PromiseLike<T>) => waitForDefault(fn, { timeoutMs: 120_000 });

for (const store of testStores) {
  describe(`document formats [${store.name}]`, () => {
    const log = createLogger('silent');
    let t: TestApp;
    let worker: Worker;
    let noOcr: Worker;
    before(async () => {
      t = await startApp(store, { env: { WORKER_POLL_MS: '50' } });
      worker = buildWorker({ config: testConfig({ WORKER_POLL_MS: '50' }), db: t.db, log });
      noOcr = buildWorker({ config: testConfig({ WORKER_POLL_MS: '50', OCR: 'off' }), db: t.db, log });
    });
    after(async () => {
      await worker.stop();
      await noOcr.stop();
      await t.close();
    });
    const upload = (name: string, bytes: Uint8Array<ArrayBuffer>, type: string) =>
      uploadDocument(t, { name, bytes, type }, { external_user_id: 'lena' });
    const finished = (id: string) =>
      waitFor(async () => {
        const s = (
          await t.app.inject({ method: 'GET', url: `/v1/document/status/${id}`, headers: { 'x-api-key': t.key } })
        ).json();
        return ['completed', 'failed', 'cancelled'].includes(s.status) ? s : null;
      });
    const memoriesOf = (id: string) =>
      t.db.query<{ content: string; metadata: Record<string, any> }>(
        `SELECT content, metadata FROM memories WHERE batch_id = $1 ORDER BY (metadata->>'chunk_index')::int`,
        [id],
      );

    it('a PDF: pages and headings become the chunks’ page and section', async () => {
      const pdf = await makePdf((doc) => {
        doc.fontSize(24).text('Field report');
        doc.fontSize(11).text('The expedition left Tromsø on the third of March with four sledges.');
        doc.addPage().fontSize(18).text('Weather');
        doc.fontSize(11).text('Storms kept the team in camp for two days near the glacier.');
        doc.addPage().fontSize(18).text('Findings');
        doc.fontSize(11).text('Ice cores from the ridge show ash layers from three eruptions.');
      });
      await worker.start();
      const s = await finished(await upload('report.pdf', new Uint8Array(pdf), 'application/pdf'));
      assert.equal(s.status, 'completed', JSON.stringify(s));
      assert.equal(s.total_pages, 3);
      const rows = await memoriesOf(s.upload_id);
      const find = (re: RegExp) => rows.find((r) => re.test(r.content))?.metadata;
      assert.deepEqual(
        [find(/four sledges/)?.page, find(/Storms kept/)?.page, find(/ash layers/)?.page],
        [1, 2, 3],
        JSON.stringify(rows),
      );
      assert.equal(find(/ash layers/)?.section, 'Field report › Findings');
    });

    it('a scanned image is read by OCR; with OCR off it is reported as skipped', async () => {
      const png = await textImage(['Delivery window Tuesday', 'between nine and noon']);
      await noOcr.stop();
      await worker.start();
      const read = await finished(await upload('scan.png', new Uint8Array(png), 'image/png'));
      assert.equal(read.status, 'completed', JSON.stringify(read));
      assert.deepEqual(read.ocr_pages, [1]);
      assert.match((await memoriesOf(read.upload_id))[0].content, /Delivery window Tuesday/i);

      await worker.stop();
      await noOcr.start();
      const skipped = await finished(await upload('scan-2.png', new Uint8Array(png), 'image/png'));
      assert.equal(skipped.status, 'failed');
      assert.deepEqual(skipped.skipped_pages, [{ page: 1, reason: 'ocr_disabled' }]);
      assert.match(skipped.error, /^empty: .*page 1: ocr_disabled/);
    });
  });
}
