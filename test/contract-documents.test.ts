/**
 * The official client (@papr/memory 2.8.0), unmodified, against a real listening server on
 * both stores: `client.document.upload`, `getStatus` (with the timeline) and
 * `cancelProcessing`, and the client's own multipart encoding of every text part.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import Papr, { toFile } from '@papr/memory';
import { buildWorker } from '../src/app.ts';
import type { Worker } from '../src/platform/jobs/index.ts';
import { createLogger } from '../src/platform/log.ts';
import { startApp, testConfig, testStores, type TestApp } from './harness.ts';
import { waitFor as waitForDefault } from './wait.ts';

const waitFor = <T>(fn: () => T | PromiseLike<T>) => waitForDefault(fn, { timeoutMs: 90_000 });

const page = `<!doctype html><html><head><title>Trail notes</title></head><body>
<nav><a href="/">Home</a> · <a href="/about">About</a></nav>
<article><h1>Trail notes</h1>
<p>The ridge trail above Sintra starts at the Moorish castle and takes about three hours.</p>
<h2>Water</h2><p>There is no spring on the ridge: carry two litres in summer.</p>
<h2>Parking</h2><p>The lot at the castle fills by nine; the bus from the station runs every twenty minutes.</p>
</article><footer>© 2026 Trail club · Privacy · Terms</footer></body></html>`;

for (const store of testStores) {
  describe(`official client: document [${store.name}]`, () => {
    let t: TestApp;
    let client: Papr;
    let worker: Worker;
    const env = { WORKER_POLL_MS: '50', OCR: 'off' };
    before(async () => {
      t = await startApp(store, { env });
      const baseURL = await t.app.listen({ port: 0, host: '127.0.0.1' });
      client = new Papr({ xAPIKey: t.key, baseURL, maxRetries: 0 });
      worker = buildWorker({ config: testConfig(env), db: t.db, log: createLogger('silent') });
    });
    after(async () => {
      await worker.stop();
      await t.close();
    });

    it('upload, getStatus with the timeline, and the memories in search', async () => {
      const res = await client.document.upload({
        file: await toFile(Buffer.from(page), 'trail.html', { type: 'text/html' }),
        external_user_id: 'rui',
        hierarchical_enabled: true,
        metadata: JSON.stringify({ club: 'trail' }),
        memory_policy: JSON.stringify({ mode: 'auto' }),
        preferred_provider: 'auto',
      });
      assert.equal(res.document_status.status_type, 'queued');
      const id = res.document_status.upload_id!;
      await worker.start();
      const done = await waitFor(async () => {
        const s = await client.document.getStatus(id, { timeline: true });
        return s.status === 'completed' || s.status === 'failed' ? s : null;
      });
      assert.equal(done.status, 'completed', JSON.stringify(done));
      assert.equal(done.progress, 1);
      assert.equal(done.timeline?.steps?.length, 6);
      assert.ok(done.timeline?.steps?.every((s) => s.status === 'completed'));

      const found = await client.memory.search({ query: 'is there water on the ridge trail', external_user_id: 'rui' });
      const contents = (found.data?.memories ?? []).map((m) => String(m.content));
      assert.equal(contents.length, 3, 'one memory per section');
      assert.ok(
        contents.slice(0, 2).some((c) => /no spring on the ridge/.test(c)),
        contents.join('\n---\n'),
      );
      for (const c of contents) assert.doesNotMatch(c, /Privacy|Home/, 'boilerplate left out');
    });

    it('cancelProcessing, and a bad part is a 422 through the client', async () => {
      await worker.stop();
      const res = await client.document.upload({
        file: await toFile(Buffer.from('One line about tea.'), 'tea.txt', { type: 'text/plain' }),
        external_user_id: 'rui',
      });
      const id = res.document_status.upload_id!;
      const cancelled = (await client.document.cancelProcessing(id)) as { document_status: string };
      assert.equal(cancelled.document_status, 'cancelled');
      assert.equal((await client.document.getStatus(id)).status, 'cancelled');
      await assert.rejects(
        client.document.upload({
          file: await toFile(Buffer.from('x'), 'x.txt'),
          external_user_id: 'rui',
          metadata: '{not json',
        }),
        (err: { status?: number; message: string }) => err.status === 422 && /metadata/.test(err.message),
      );
    });
  });
}
