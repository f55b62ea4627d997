/**
 * The official client (@papr/memory 2.8.0), unmodified, against a real listening server on
 * both stores whose AI proxy is configured with local fake upstreams: every `client.ai.*`
 * method, the colon in Gemini's paths, a stream, the memory header, and the errors.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import Papr from '@papr/memory';
import { makeOrg } from './factories.ts';
import { fakeAiUpstream, REPLY, requests, UPSTREAM_KEYS, USAGE } from './fake-ai-upstream.ts';
import { startApp, testStores, type TestApp } from './harness.ts';

const TEXT = REPLY.join('');

for (const store of testStores) {
  describe(`official client: ai [${store.name}]`, () => {
    const fake = fakeAiUpstream();
    let t: TestApp;
    let client: Papr;
    let baseURL: string;
    before(async () => {
      await fake.start();
      t = await startApp(store, { env: fake.env() });
      baseURL = await t.app.listen({ port: 0, host: '127.0.0.1' });
      client = new Papr({ xAPIKey: t.key, baseURL, maxRetries: 0 });
    });
    after(async () => {
      await t.close();
      fake.stop();
    });

    it('every client.ai method reaches its upstream with our key and returns its answer', async () => {
      const chat = (await client.ai.openai.chat.createCompletion({ body: requests.chat() })) as any;
      assert.equal(chat.choices[0].message.content, TEXT);
      assert.equal(fake.last().path, '/openai/v1/chat/completions');
      assert.equal(fake.last().headers.authorization, `Bearer ${UPSTREAM_KEYS.openai}`);
      assert.equal(fake.last().headers['x-api-key'], undefined);

      const response = (await client.ai.openai.createResponse({ body: requests.responses() })) as any;
      assert.equal(response.output[0].content[0].text, TEXT);

      const message = (await client.ai.anthropic.sendMessage({ body: requests.anthropic() })) as any;
      assert.equal(message.content[0].text, TEXT);
      assert.equal(fake.last().headers['x-api-key'], UPSTREAM_KEYS.anthropic);

      const generated = (await client.ai.google.models.generateContent('gemini-2.0-flash', {
        body: requests.google(),
      })) as any;
      assert.equal(generated.candidates[0].content.parts[0].text, TEXT);
      assert.equal(fake.last().path, '/google/v1beta/models/gemini-2.0-flash:generateContent');
      assert.equal(fake.last().headers['x-goog-api-key'], UPSTREAM_KEYS.google);

      // Without alt=sse Gemini streams a JSON array, which the client parses whole.
      const array = (await client.ai.google.models.streamGenerateContent('gemini-2.0-flash', {
        body: requests.google(),
      })) as unknown as any[];
      assert.equal(array.map((c) => c.candidates[0].content.parts[0].text).join(''), TEXT);
      // With it, server-sent events, which the client hands back as text.
      const sse = (await client.ai.google.models.streamGenerateContent('gemini-1.5-pro-002', {
        body: requests.google(),
        query: { alt: 'sse' },
      })) as unknown as string;
      assert.equal(typeof sse, 'string');
      assert.equal(sse.match(/^data: /gm)?.length, REPLY.length);
      assert.equal(fake.last().path, '/google/v1beta/models/gemini-1.5-pro-002:streamGenerateContent');
      assert.equal(fake.last().query, 'alt=sse');

      const streamed = (await client.ai.openai.chat.createCompletion({
        body: requests.chat({ model: 'gpt-client-stream', stream: true }),
      })) as unknown as string;
      assert.match(streamed, /data: \[DONE\]\n\n$/);

      const usage = (await client.ai.getUsage()) as any;
      assert.ok(usage.totals.requests >= 7, JSON.stringify(usage.totals));
      const row = usage.days.find((d: { model: string }) => d.model === 'gpt-client-stream');
      assert.equal(row.input_tokens, USAGE.openai[0]);
      assert.equal(row.output_tokens, USAGE.openai[1]);
      assert.equal(usage.providers.google.configured, true);
    });

    it('memory by header through the client: a just-added memory reaches the upstream as context', async () => {
      await client.memory.add({ content: 'Kim is vegetarian and avoids mushrooms.', external_user_id: 'kim' });
      await client.ai.anthropic.sendMessage({
        body: requests.anthropic({ messages: [{ role: 'user', content: 'Suggest a vegetarian dinner for Kim' }] }),
        headers: { 'X-Engram-User': 'kim' },
      });
      assert.match(String(fake.last().body.system), /avoids mushrooms/);
    });

    it('errors: no body, the upstream’s own error, another organization’s usage', async () => {
      await assert.rejects(client.ai.openai.chat.createCompletion(), (err: any) => err.status === 422);
      fake.override((_call, res) => {
        res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '0' });
        res.end(JSON.stringify({ error: { message: 'Slow down' } }));
      });
      await assert.rejects(
        client.ai.openai.createResponse({ body: requests.responses() }),
        (err: any) => err.status === 429 && err.error.error.message === 'Slow down',
      );
      await assert.rejects(
        client.ai.google.models.generateContent('bad model', { body: requests.google() }),
        (err: any) => err.status === 422,
      );
      const other = new Papr({ xAPIKey: (await makeOrg(t.db)).key, baseURL, maxRetries: 0 });
      const theirs = (await other.ai.getUsage()) as any;
      assert.equal(theirs.totals.requests, 0);
      assert.deepEqual(theirs.days, []);
    });
  });
}
