import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { dot, EmbedderError } from './embedder.ts';
import { threadedEmbedder } from './embedder-thread.ts';
import { createUseLiteEmbedder } from './use-lite.ts';

describe('embedder in a worker thread', () => {
  const local = createUseLiteEmbedder();
  const threaded = threadedEmbedder({ kind: 'use-lite' }, local);
  after(() => threaded.close());

  it('returns the vectors the same model returns on the main thread', async () => {
    const texts = ['Where did Melanie go camping last summer?', 'Caroline joined a support group', ''];
    const [mine, theirs] = await Promise.all([local.embed(texts), threaded.embed(texts)]);
    assert.equal(threaded.id, 'use-lite-512');
    assert.equal(theirs.length, 3);
    for (let i = 0; i < texts.length; i++) {
      assert.equal(theirs[i].length, 512);
      assert.ok(dot(mine[i], theirs[i]) > 0.999999, `text ${i}: cosine ${dot(mine[i], theirs[i])}`);
    }
    assert.deepEqual(await threaded.embed([]), []);
  });

  it('answers concurrent callers each with their own vectors', async () => {
    const texts = ['apples', 'the quarterly budget review', 'a trip to Paris'];
    const one = await Promise.all(texts.map((t) => threaded.embed([t])));
    const all = await threaded.embed(texts);
    one.forEach(([v], i) => assert.ok(dot(v, all[i]) > 0.999999));
    assert.ok(dot(all[0], all[1]) < 0.9); // different texts, different vectors
  });

  it('starts a new thread after close()', async () => {
    await threaded.close();
    const [v] = await threaded.embed(['after a restart']);
    assert.equal(v.length, 512);
  });

  it("reports the model's own error with its code", async () => {
    const onnx = threadedEmbedder(
      { kind: 'onnx', modelsDir: '/nonexistent-models', model: 'all-MiniLM-L6-v2' },
      { id: 'onnx:x', dimensions: 384, maxTokens: 256 },
    );
    try {
      await assert.rejects(
        onnx.embed(['hello']),
        (err: unknown) =>
          err instanceof EmbedderError && err.code === 'model_missing' && /nonexistent-models/.test(err.message),
      );
    } finally {
      await onnx.close();
    }
  });

  it(
    'fails the calls of a thread that ends as retryable, ' + 'and only those: a call made meanwhile gets a new thread',
    async () => {
      // Seconds of work, so the thread is certainly still busy when it is ended.
      const cut = threaded.embed(Array.from({ length: 200 }, (_, i) => `a long enough text to embed, number ${i}`));
      const closing = threaded.close();
      const next = threaded.embed(['asked while the old thread is ending']); // before its 'exit' event
      await assert.rejects(
        cut,
        (err: unknown) =>
          err instanceof EmbedderError && err.code === 'unavailable' && err.retryable && /thread/.test(err.message),
      );
      await closing;
      const [v] = await next;
      assert.equal(v.length, 512);
    },
  );

  it('ends an idle thread after idleExitMs, not one with a call in flight; the next call starts it', async () => {
    const idle = threadedEmbedder({ kind: 'use-lite' }, local, { idleExitMs: 300 });
    try {
      assert.equal(idle.alive(), false); // started by the first call, not before
      const first = await idle.embed(['the first call starts the thread']);
      assert.equal(idle.alive(), true);
      // A call longer than the idle time keeps the thread: the timer starts when none is pending.
      // The check is made while the call is known to be in flight, well past idleExitMs; a fixed
      // sleep would race a fast machine (120 texts take ~0.1 s on ONNX Runtime).
      let settled = false;
      const started = Date.now();
      const pending = idle
        .embed(Array.from({ length: 2000 }, (_, i) => `a text to keep the thread busy, ${i}`))
        .finally(() => (settled = true));
      let checkedInFlight = 0;
      while (!settled) {
        await new Promise((r) => setTimeout(r, 25));
        if (!settled && Date.now() - started > 400) {
          assert.equal(idle.alive(), true, 'alive while a call is pending');
          checkedInFlight++;
        }
      }
      assert.equal((await pending).length, 2000);
      assert.ok(checkedInFlight > 0, 'the call outlasted idleExitMs, so the check above ran');
      await new Promise((r) => setTimeout(r, 700));
      assert.equal(idle.alive(), false, 'ended after 300 ms without calls');
      const [again] = await idle.embed(['the first call starts the thread']);
      assert.equal(idle.alive(), true);
      assert.ok(dot(first[0], again) > 0.999999, 'the restarted thread embeds the same');
    } finally {
      await idle.close();
    }
  });

  it('refuses what cannot be sent to the thread, without leaving the call pending', async () => {
    await assert.rejects(
      threaded.embed([Symbol('x') as never]),
      (err: unknown) => err instanceof EmbedderError && err.code === 'invalid_input',
    );
  });
});
