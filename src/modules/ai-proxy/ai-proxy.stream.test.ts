/**
 * Streams through the AI proxy, over a real socket: every streamed format reaches the caller
 * event by event while the upstream is still answering (it holds after its first event until
 * the test has seen that event arrive), byte for byte, with its tokens counted at the end.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'undici';
import { startApp, testStores, type TestApp } from '../../../test/harness.ts';
import { fakeAiUpstream, requests, streamEvents, USAGE, type StreamKind } from '../../../test/fake-ai-upstream.ts';
import { waitFor } from '../../../test/wait.ts';

const cases: {
  kind: StreamKind;
  path: string;
  body: object;
  model: string;
  first: string;
  tokens: readonly [number, number];
  type: RegExp;
}[] = [
  {
    kind: 'chat',
    path: '/v1/ai/openai/chat/completions',
    body: requests.chat({ model: 'gpt-stream', stream: true }),
    model: 'gpt-stream',
    first: '"role":"assistant"',
    tokens: USAGE.openai,
    type: /^text\/event-stream/,
  },
  {
    kind: 'responses',
    path: '/v1/ai/openai/responses',
    body: requests.responses({ model: 'gpt-resp-stream', stream: true }),
    model: 'gpt-resp-stream',
    first: 'event: response.created',
    tokens: USAGE.responses,
    type: /^text\/event-stream/,
  },
  {
    kind: 'anthropic',
    path: '/v1/ai/anthropic/messages',
    body: requests.anthropic({ model: 'claude-stream', stream: true }),
    model: 'claude-stream',
    first: 'event: message_start',
    tokens: USAGE.anthropic,
    type: /^text\/event-stream/,
  },
  {
    kind: 'google-sse',
    path: '/v1/ai/google/models/gemini-sse:streamGenerateContent?alt=sse',
    body: requests.google(),
    model: 'gemini-sse',
    first: 'data: {"candidates"',
    tokens: USAGE.google,
    type: /^text\/event-stream/,
  },
  {
    kind: 'google-array',
    path: '/v1/ai/google/models/gemini-array:streamGenerateContent',
    body: requests.google(),
    model: 'gemini-array',
    first: '[{"candidates"',
    tokens: USAGE.google,
    type: /^application\/json/,
  },
];

for (const store of testStores) {
  describe(`AI proxy streams [${store.name}]`, () => {
    const fake = fakeAiUpstream();
    let t: TestApp;
    let base: string;
    before(async () => {
      await fake.start();
      t = await startApp(store, { env: fake.env() });
      base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    });
    after(async () => {
      await t.close();
      fake.stop();
    });

    /** POST over the socket; the body is read chunk by chunk. */
    async function open(path: string, body: object) {
      const res = await request(`${base}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': t.key, 'accept-encoding': 'gzip, br' },
        body: JSON.stringify(body),
      });
      const chunks = res.body[Symbol.asyncIterator]();
      let text = '';
      const readUntil = async (done: (text: string) => boolean) => {
        while (!done(text)) {
          const next = await chunks.next();
          if (next.done) return { text, ended: true };
          text += Buffer.from(next.value as Uint8Array).toString('utf8');
        }
        return { text, ended: false };
      };
      return { res, readUntil, rest: async () => (await readUntil(() => false)).text, close: () => res.body.destroy() };
    }

    const usage = async (model: string) =>
      (
        await t.app.inject({ method: 'GET', url: `/v1/ai/usage?model=${model}`, headers: { 'x-api-key': t.key } })
      ).json().totals;

    for (const c of cases) {
      it(`${c.kind}: the first event comes before the upstream has finished; bytes as sent; tokens`, async () => {
        const release = fake.holdStreams();
        const finished = fake.streams.finished;
        try {
          const s = await open(c.path, c.body);
          assert.equal(s.res.statusCode, 200);
          assert.match(String(s.res.headers['content-type']), c.type);
          assert.equal(s.res.headers['content-encoding'], undefined, 'a stream is never compressed');
          assert.equal(s.res.headers['x-engram-upstream'], c.kind.split('-')[0].replace(/chat|responses/, 'openai'));
          const first = await s.readUntil((text) => text.includes(c.first));
          assert.equal(first.ended, false);
          assert.equal(fake.streams.finished, finished, 'the upstream is still holding the rest of its answer');
          release();
          const all = await s.rest();
          assert.equal(all, streamEvents(c.kind, fake.last()).join(''), 'passed through byte for byte');
        } finally {
          release();
        }
        // The row is written before the stream ends: no waiting.
        assert.deepEqual(await usage(c.model), {
          requests: 1,
          errors: 0,
          input_tokens: c.tokens[0],
          output_tokens: c.tokens[1],
        });
      });
    }

    it('asks OpenAI streams for their usage chunk, unless the caller said otherwise', async () => {
      const s = await open('/v1/ai/openai/chat/completions', requests.chat({ model: 'gpt-no-usage', stream: true }));
      await s.rest();
      assert.deepEqual(fake.last().body.stream_options, { include_usage: true });
      const body = requests.chat({ model: 'gpt-no-usage', stream: true, stream_options: { include_usage: false } });
      const told = await open('/v1/ai/openai/chat/completions', body);
      assert.doesNotMatch(await told.rest(), /"usage"/);
      assert.deepEqual(fake.last().body.stream_options, { include_usage: false });
      assert.deepEqual(await usage('gpt-no-usage'), {
        requests: 2,
        errors: 0,
        input_tokens: USAGE.openai[0],
        output_tokens: USAGE.openai[1],
      });
    });

    it('a caller going away cancels the upstream stream; the call is counted, not as an error', async () => {
      const release = fake.holdStreams();
      try {
        const s = await open('/v1/ai/anthropic/messages', requests.anthropic({ model: 'claude-gone', stream: true }));
        await s.readUntil((text) => text.includes('message_start'));
        s.close();
      } finally {
        release();
      }
      const totals = await waitFor(async () => {
        const u = await usage('claude-gone');
        return u.requests === 1 && u;
      });
      assert.equal(totals.errors, 0);
      assert.equal(totals.input_tokens, USAGE.anthropic[0], 'what was read before the end is counted');
      const health = await t.app.inject({ method: 'GET', url: '/health' });
      assert.equal(health.statusCode, 200);
    });

    it('an upstream breaking off mid-stream ends the stream with an error event, counted as an error', async () => {
      fake.override((_call, res) => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write('data: {"choices":[{"index":0,"delta":{"content":"Hel"}}]}\n\n', () => res.socket?.destroy());
      });
      const s = await open('/v1/ai/openai/chat/completions', requests.chat({ model: 'gpt-broken', stream: true }));
      const all = await s.rest();
      assert.match(all, /^data: \{"choices".*"Hel"/);
      const error = /event: error\ndata: (.*)\n\n$/.exec(all);
      assert.ok(error, all);
      const envelope = JSON.parse(error[1]);
      assert.equal(envelope.code, 502);
      assert.equal(envelope.status, 'error');
      assert.equal(envelope.details.provider, 'openai');
      assert.deepEqual(await usage('gpt-broken'), { requests: 1, errors: 1, input_tokens: 0, output_tokens: 0 });
    });

    it('an upstream error to a stream request comes back whole, with its status', async () => {
      fake.override((_call, res) => {
        res.writeHead(400, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: 'stream not supported for this model' } }));
      });
      const s = await open('/v1/ai/openai/responses', requests.responses({ model: 'gpt-refused', stream: true }));
      assert.equal(s.res.statusCode, 400);
      assert.deepEqual(JSON.parse(await s.rest()), { error: { message: 'stream not supported for this model' } });
      assert.equal((await usage('gpt-refused')).errors, 1);
    });
  });
}
