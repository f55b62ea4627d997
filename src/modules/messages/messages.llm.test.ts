/**
 * Session summaries through an LLM (SUMMARIZER=llm): the messages routes with the chat adapter
 * pointed at a local server speaking the OpenAI chat-completions format.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, testStores, type TestApp } from '../../../test/harness.ts';
import { assertEnvelope } from '../../../test/auth-kit.ts';
import { useFakeJsonServer, type Reply } from '../../../test/fake-json-server.ts';

interface ChatBody {
  model: string;
  messages: { role: string; content: string }[];
}

const summary = {
  short_term: 'Ana asked for rate limiting; Ben added it with Redis counters.',
  medium_term: 'Ana and Ben planned the gateway work.',
  long_term: 'Ana and Ben moved billing to PostgreSQL 16 and added rate limiting to the gateway.',
  topics: ['rate limiting', 'billing'],
  key_decisions: ['Counters live in Redis.'],
  next_steps: ['Write the limiter tests.'],
  technical_details: ['Redis 7.2'],
  session_intent: 'Plan the gateway work.',
  current_state: 'Rate limiting is done.',
  project_context: { participants: ['Ana', 'Ben'] },
  files_accessed: { 'src/gateway/limiter.ts': 1 },
  last_updated: '2024-06-02T10:00:00.000Z',
};
const ok: Reply<ChatBody> = () => ({
  status: 200,
  body: {
    id: 'c1',
    object: 'chat.completion',
    choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: JSON.stringify(summary) } }],
  },
});
const overloaded: Reply<ChatBody> = () => ({ status: 503, body: { error: { message: 'overloaded' } } });

for (const store of testStores) {
  describe(`messages with the LLM summarizer [${store.name}]`, () => {
    let reply = ok;
    const llm = useFakeJsonServer<ChatBody>(() => reply);
    let t: TestApp;
    before(async () => {
      t = await startApp(store, {
        env: { SUMMARIZER: 'llm', LLM_BASE_URL: llm.url(), LLM_MODEL: 'test-model', LLM_TIMEOUT_MS: '5000' },
      });
    });
    after(() => t.close());
    const call = (method: 'GET' | 'POST', url: string, payload?: object) =>
      t.app.inject({ method, url, headers: { 'x-api-key': t.key }, payload });

    it('compress asks the chat server and stores its summary; a failure is a retryable 503', async () => {
      for (const content of ['Add rate limiting please.', 'Done; counters live in Redis 7.2.'])
        await call('POST', '/v1/messages', { sessionId: 'gw', role: 'user', content, process_messages: false });
      reply = overloaded;
      const failed = await call('GET', '/v1/messages/sessions/gw/compress');
      assertEnvelope(failed, 503);
      assert.equal(failed.headers['x-should-retry'], 'true');
      const status = (await call('GET', '/v1/messages/sessions/gw/status')).json();
      assert.match(status.summary_error, /overloaded/);

      reply = ok;
      const res = await call('GET', '/v1/messages/sessions/gw/compress');
      assert.equal(res.statusCode, 200, res.body);
      const body = res.json();
      assert.equal(body.from_cache, false);
      assert.equal(body.summaries.long_term, summary.long_term);
      assert.deepEqual(body.summaries.key_decisions, summary.key_decisions);
      const asked = llm.seen.at(-1)!.body;
      assert.equal(asked.model, 'test-model');
      assert.ok(asked.messages.some((m) => m.content.includes('counters live in Redis 7.2')));
      const again = (await call('GET', '/v1/messages/sessions/gw/compress')).json();
      assert.equal(again.from_cache, true);
      assert.equal(llm.seen.length, 2 + 0 * again.message_count, 'the cached answer did not ask again');
    });
  });
}
