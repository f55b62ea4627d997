/**
 * The official client (@papr/memory 2.8.0), unmodified, against a real listening server on
 * both stores: every `client.messages.*` method, and the bad input the issue names.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import Papr from '@papr/memory';
import { buildWorker } from '../src/app.ts';
import type { Worker } from '../src/platform/jobs/index.ts';
import { createLogger } from '../src/platform/log.ts';
import { makeOrg } from './factories.ts';
import { startApp, testConfig, testStores, type TestApp } from './harness.ts';
import { waitFor as waitForDefault } from './wait.ts';

/** The worker's jobs load models on first use: slow on a busy machine. */
const waitFor = <T>(fn: () => T | PromiseLike<T>) => waitForDefault(fn, { timeoutMs: 60_000 });

for (const store of testStores) {
  describe(`official client: messages [${store.name}]`, () => {
    let t: TestApp;
    let client: Papr;
    let baseURL: string;
    let worker: Worker;
    before(async () => {
      t = await startApp(store);
      baseURL = await t.app.listen({ port: 0, host: '127.0.0.1' });
      client = new Papr({ xAPIKey: t.key, baseURL, maxRetries: 0 });
      worker = buildWorker({ config: testConfig({ WORKER_POLL_MS: '50' }), db: t.db, log: createLogger('silent') });
    });
    after(async () => {
      await worker.stop();
      await t.close();
    });

    it('store, retrieveHistory, compress, retrieveStatus, process, update', async () => {
      const lines = [
        'I moved to Porto in March and started at a design studio.',
        'Congratulations! How is the new job going?',
        'Great so far. I plan to learn Portuguese before the summer.',
      ];
      for (const [i, content] of lines.entries()) {
        const stored = await client.messages.store({
          content,
          role: i % 2 ? 'assistant' : 'user',
          sessionId: 'porto',
          external_user_id: 'ana',
          process_messages: i < 2,
        });
        assert.equal(stored.sessionId, 'porto');
        assert.equal(stored.content, content);
        assert.ok(stored.objectId);
      }
      const history = await client.messages.sessions.retrieveHistory('porto', { limit: 10 });
      assert.equal(history.total_count, 3);
      assert.equal(history.messages[0].content, lines[2], 'newest first');
      assert.ok(history.context_for_llm?.includes('Porto'));

      const processed = (await client.messages.sessions.process('porto')) as { queued: number };
      assert.equal(processed.queued, 1);
      await worker.start();
      await waitFor(async () => {
        const s = (await client.messages.sessions.retrieveStatus('porto')) as { processing: { completed: number } };
        return s.processing.completed === 3;
      });
      const found = await client.memory.search({ query: 'Where did Ana move?', external_user_id: 'ana' });
      assert.ok(found.data!.memories!.some((m) => /Porto/.test(m.content ?? '')));

      const compressed = await client.messages.sessions.compress('porto');
      assert.equal(compressed.session_id, 'porto');
      assert.equal(compressed.message_count, 3);
      assert.ok(compressed.summaries.long_term);
      assert.equal((await client.messages.sessions.compress('porto')).from_cache, true);

      const updated = (await client.messages.sessions.update('porto', { title: 'Moving', metadata: { a: 1 } })) as {
        title: string;
      };
      assert.equal(updated.title, 'Moving');
    });

    it('bad input and other tenants: the documented errors', async () => {
      await assert.rejects(
        client.messages.store({ content: 'x', role: 'user' } as never),
        (err: any) => err.status === 422 && err.error.details.field === 'sessionId',
      );
      await assert.rejects(
        client.messages.store({ content: 'x', role: 'robot' as never, sessionId: 's' }),
        (err: any) => err.status >= 400 && err.status < 500,
      );
      await assert.rejects(
        client.messages.store({ content: '', role: 'user', sessionId: 's' }),
        (err: any) => err.status === 422,
      );
      await client.messages.store({ content: 'mine', role: 'user', sessionId: 'ana-only', external_user_id: 'ana' });
      await assert.rejects(
        client.messages.store({ content: 'theirs', role: 'user', sessionId: 'ana-only', external_user_id: 'bob' }),
        (err: any) => err.status === 404,
      );
      const other = new Papr({ xAPIKey: (await makeOrg(t.db)).key, baseURL, maxRetries: 0 });
      await assert.rejects(other.messages.sessions.retrieveHistory('ana-only'), (err: any) => err.status === 404);
      await assert.rejects(other.messages.sessions.process('ana-only'), (err: any) => err.status === 404);
    });
  });
}
