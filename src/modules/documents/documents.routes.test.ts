import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { buildWorker } from '../../app.ts';
import { createLogger } from '../../platform/log.ts';
import type { Worker } from '../../platform/jobs/index.ts';
import { startApp, testConfig, testStores, type TestApp } from '../../../test/harness.ts';
import { assertEnvelope } from '../../../test/auth-kit.ts';
import { multipart } from '../../../test/multipart.ts';
import { startReceiver } from '../../../test/webhook-receiver.ts';
import { waitFor as waitForDefault } from '../../../test/wait.ts';

/** The worker's jobs load models on first use: slow on a busy machine. */
const waitFor = <T>(fn: () => T | PromiseLike<T>) => waitForDefault(fn, { timeoutMs: 90_000 });

const guide = [
  '# Coffee guide',
  '',
  'Our roastery in Porto sources beans from three farms.',
  '',
  '## Espresso',
  '',
  'Pull a double shot of 18 grams in 28 seconds. The crema should be hazelnut brown.',
  '',
  '## Cold brew',
  '',
  'Steep coarse grounds for 16 hours in the fridge, then filter twice through paper.',
].join('\n');

for (const store of testStores) {
  describe(`documents [${store.name}]`, () => {
    const env = { WEBHOOK_ALLOW_PRIVATE: 'true', WORKER_POLL_MS: '50', MAX_DOCUMENT_BYTES: '200000', OCR: 'off' };
    let t: TestApp;
    let other: TestApp;
    let worker: Worker;
    let receiver: Awaited<ReturnType<typeof startReceiver>>;
    const log = createLogger('silent');
    before(async () => {
      receiver = await startReceiver();
      t = await startApp(store, { env });
      other = await startApp(store, { env });
      worker = buildWorker({ config: testConfig(env), db: t.db, log });
    });
    after(async () => {
      await worker.stop();
      await t.close();
      await other.close();
      await receiver.close();
    });
    const upload = async (
      file: Parameters<typeof multipart>[0],
      fields: Record<string, string> = {},
      key = t.key,
      app = t.app,
    ) => {
      const { payload, contentType } = await multipart(file, { external_user_id: 'ana', ...fields });
      return app.inject({
        method: 'POST',
        url: '/v1/document',
        headers: { 'x-api-key': key, 'content-type': contentType },
        payload,
      });
    };
    const status = (id: string, query = '', key = t.key, app = t.app) =>
      app.inject({ method: 'GET', url: `/v1/document/status/${id}${query}`, headers: { 'x-api-key': key } });
    const finished = (id: string) =>
      waitFor(async () => {
        const s = (await status(id)).json();
        return ['completed', 'failed', 'cancelled'].includes(s.status) ? s : null;
      });

    it('stores a Markdown document, chunks it by its headings and makes searchable memories', async () => {
      const res = await upload(
        { name: 'guide.md', bytes: guide, type: 'text/markdown' },
        {
          metadata: JSON.stringify({ team: 'barista' }),
          webhook_url: receiver.url('/doc-done'),
          webhook_secret: 'shh',
        },
      );
      assert.equal(res.statusCode, 202, res.body);
      const body = res.json();
      assert.equal(body.status, 'success');
      assert.equal(body.document_status.status_type, 'queued');
      assert.equal(body.document_status.current_filename, 'guide.md');
      assert.deepEqual(body.memory_items, []);
      const id = body.document_status.upload_id;
      assert.equal((await status(id)).json().status, 'queued');

      await worker.start();
      const done = await finished(id);
      assert.equal(done.status, 'completed', JSON.stringify(done));
      assert.equal(done.progress, 1);
      assert.equal(done.format, 'markdown');
      assert.equal(done.chunks.total, 3, 'one chunk per section');
      assert.deepEqual(done.memories, { total: 3, completed: 3, failed: 0 });

      const timeline = (await status(id, '?timeline=true')).json().timeline;
      assert.deepEqual(
        timeline.steps.map((s: { id: string; status: string }) => `${s.id}:${s.status}`),
        ['stored', 'parsed', 'chunked', 'embedded', 'graph', 'completed'].map((s) => `${s}:completed`),
      );
      for (const s of timeline.steps.slice(1, 5)) assert.ok(s.duration_ms >= 0 && s.completed_at, JSON.stringify(s));
      assert.ok(timeline.total_elapsed_ms > 0);

      const search = await t.app.inject({
        method: 'POST',
        url: '/v1/memory/search',
        headers: { 'x-api-key': t.key },
        payload: { query: 'how long to steep cold brew', external_user_id: 'ana' },
      });
      assert.equal(search.statusCode, 200, search.body);
      const top = search.json().data.memories[0];
      assert.match(top.content, /Steep coarse grounds/);
      assert.equal(top.metadata.upload_id ?? top.metadata.customMetadata?.upload_id, id, JSON.stringify(top.metadata));
      const meta = { ...top.metadata, ...top.metadata.customMetadata };
      assert.equal(meta.section, 'Coffee guide › Cold brew');
      assert.equal(meta.filename, 'guide.md');
      assert.equal(meta.page, 1);
      assert.equal(meta.team, 'barista');

      // Completion calls the webhook once, like a batch's.
      const hook = await waitFor(() => receiver.at('/doc-done')[0]);
      assert.equal(hook.body.batch_id ?? hook.body.data?.batch_id, id, hook.raw);
      assert.equal(hook.headers['x-webhook-secret'], 'shh');
    });

    it('refuses bad uploads with a clear error and stores nothing', async () => {
      const before = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM document_uploads');
      const bad = await upload({ name: 'a.md', bytes: guide }, { memory_policy: '{"schema_id": ' });
      assertEnvelope(bad, 422);
      assert.match(bad.json().error, /memory_policy is not valid JSON/);
      assertEnvelope(await upload({ name: 'a.md', bytes: guide }, { metadata: '[1, 2]' }), 422);
      const binary = await upload({ name: 'blob.bin', bytes: new Uint8Array([0, 159, 146, 150, 0, 1, 2, 255, 254]) });
      assertEnvelope(binary, 415);
      assert.match(binary.json().error, /supported: .*pdf/);
      const big = await upload({ name: 'big.txt', bytes: 'word '.repeat(50_000) });
      assertEnvelope(big, 413);
      assert.match(big.json().error, /200000 bytes/);
      assertEnvelope(await upload(null), 422);
      assertEnvelope(await upload({ name: 'e.txt', bytes: '' }), 422);
      const hosted = await upload({ name: 'a.md', bytes: guide }, { preferred_provider: 'reducto' });
      assertEnvelope(hosted, 422);
      assert.match(hosted.json().error, /reducto needs a hosted parsing adapter/);
      const json = await t.app.inject({
        method: 'POST',
        url: '/v1/document',
        headers: { 'x-api-key': t.key },
        payload: { file: 'x' },
      });
      assertEnvelope(json, 415);
      // Multipart without its boundary, or cut short: the body's fault, never a 500 (found by the fuzz test).
      for (const [contentType, payload] of [
        ['multipart/form-data', '1e999'],
        [
          'multipart/form-data; boundary=xyz',
          '--xyz\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n\r\nhal',
        ],
      ]) {
        const res = await t.app.inject({
          method: 'POST',
          url: '/v1/document',
          headers: { 'x-api-key': t.key, 'content-type': contentType },
          payload,
        });
        assertEnvelope(res, 400);
      }
      const noKey = await t.app.inject({ method: 'POST', url: '/v1/document', payload: {} });
      assertEnvelope(noKey, 401);
      const after = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM document_uploads');
      assert.equal(after[0].n, before[0].n);
    });

    it('fails a corrupt file with the parser’s reason, and another tenant sees no upload', async () => {
      const res = await upload(
        {
          name: 'broken.pdf',
          bytes: '%PDF-1.7\n1 0 obj << /Type /Catalog >>\nthis is not a pdf',
        },
        { webhook_url: receiver.url('/doc-failed') },
      );
      assert.equal(res.statusCode, 202, res.body);
      const id = res.json().document_status.upload_id;
      await worker.start();
      const done = await finished(id);
      assert.equal(done.status, 'failed');
      assert.match(done.error, /^corrupt: /);
      const steps = (await status(id, '?timeline=true')).json().timeline.steps;
      assert.equal(steps.find((s: { id: string }) => s.id === 'parsed').status, 'failed');
      assert.equal((await t.db.query('SELECT 1 FROM document_files WHERE upload_id = $1', [id])).length, 0);
      // The failure is announced like a batch's end, with the reason.
      const hook = await waitFor(() => receiver.at('/doc-failed')[0]);
      const payload = hook.body.data ?? hook.body;
      assert.equal(payload.status, 'failed', hook.raw);
      assert.match(hook.raw, /corrupt: /);
      // The same id from another organization: 404, as for an unknown id.
      assertEnvelope(await status(id, '', other.key, other.app), 404);
      assertEnvelope(await status('no-such-upload'), 404);
    });

    it('cancels an upload: memories kept or deleted as asked, and a second cancel is harmless', async () => {
      await worker.stop();
      const res = await upload({ name: 'notes.txt', bytes: 'First paragraph about tea.\n\nSecond one about mugs.' });
      const id = res.json().document_status.upload_id;
      const cancel = await t.app.inject({
        method: 'DELETE',
        url: `/v1/document/${id}?delete_memories=true`,
        headers: { 'x-api-key': t.key },
      });
      assert.equal(cancel.statusCode, 200, cancel.body);
      assert.equal(cancel.json().document_status, 'cancelled');
      const again = await t.app.inject({
        method: 'DELETE',
        url: `/v1/document/${id}`,
        headers: { 'x-api-key': t.key },
      });
      assert.equal(again.statusCode, 200);
      assertEnvelope(
        await other.app.inject({ method: 'DELETE', url: `/v1/document/${id}`, headers: { 'x-api-key': other.key } }),
        404,
      );
      await worker.start();
      await worker.idle();
      const s = (await status(id)).json();
      assert.equal(s.status, 'cancelled');
      assert.equal(s.memories.total, 0, 'the job saw the cancel and stored nothing');
    });
  });
}
