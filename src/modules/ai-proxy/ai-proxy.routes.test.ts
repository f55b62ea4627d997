import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, testStores, type TestApp } from '../../../test/harness.ts';
import { assertEnvelope, authKitFor } from '../../../test/auth-kit.ts';
import { makeKey, makeNamespace, makeOrg, makeSession } from '../../../test/factories.ts';
import { fakeAiUpstream, requests, UPSTREAM_KEYS, USAGE } from '../../../test/fake-ai-upstream.ts';
import { freePort } from '../../../test/process.ts';

const CHAT = '/v1/ai/openai/chat/completions';
const RESPONSES = '/v1/ai/openai/responses';
const ANTHROPIC = '/v1/ai/anthropic/messages';
const GOOGLE = '/v1/ai/google/models/gemini-test:generateContent';
const GOOGLE_STREAM = '/v1/ai/google/models/gemini-test:streamGenerateContent';

for (const store of testStores) {
  describe(`AI proxy [${store.name}]`, () => {
    const fake = fakeAiUpstream();
    let t: TestApp;
    before(async () => {
      await fake.start();
      t = await startApp(store, { env: fake.env() });
    });
    after(async () => {
      await t.close();
      fake.stop();
    });
    const post = (url: string, payload: unknown, headers: Record<string, string> = {}) =>
      t.app.inject({ method: 'POST', url, headers: { 'x-api-key': t.key, ...headers }, payload: payload as object });
    const usage = async (query = '', key = t.key) => {
      const res = await t.app.inject({ method: 'GET', url: `/v1/ai/usage${query}`, headers: { 'x-api-key': key } });
      assert.equal(res.statusCode, 200, res.body);
      return res.json();
    };

    it('forwards each provider’s call with our upstream key in its header, never the caller’s', async () => {
      const chat = await post(CHAT, requests.chat(), { 'x-custom-caller': 'not for the upstream' });
      assert.equal(chat.statusCode, 200, chat.body);
      assert.equal(chat.json().choices[0].message.content, 'Hello from the upstream.');
      assert.equal(chat.headers['x-engram-upstream'], 'openai');
      assert.equal(chat.headers['x-upstream-request-id'], 'up-req-1');
      let seen = fake.last();
      assert.equal(seen.path, '/openai/v1/chat/completions');
      assert.equal(seen.headers.authorization, `Bearer ${UPSTREAM_KEYS.openai}`);
      assert.equal(seen.headers['x-api-key'], undefined, 'the caller’s key stays here');
      assert.equal(seen.headers['x-custom-caller'], undefined, 'nor do its other headers go');
      assert.deepEqual(seen.body, requests.chat(), 'the body as sent');

      const responses = await post(RESPONSES, requests.responses());
      assert.equal(responses.statusCode, 200, responses.body);
      assert.equal(fake.last().path, '/openai/v1/responses');
      assert.deepEqual(fake.last().body, requests.responses());

      const claude = await post(ANTHROPIC, requests.anthropic(), { 'anthropic-beta': 'tools-2024' });
      assert.equal(claude.statusCode, 200, claude.body);
      assert.equal(claude.json().content[0].text, 'Hello from the upstream.');
      seen = fake.last();
      assert.equal(seen.headers['x-api-key'], UPSTREAM_KEYS.anthropic);
      assert.equal(seen.headers['anthropic-version'], '2023-06-01');
      assert.equal(seen.headers['anthropic-beta'], 'tools-2024');
      assert.equal(seen.headers.authorization, undefined);
      assert.equal(claude.headers['x-upstream-request-id'], 'up-req-2');

      const gemini = await post(GOOGLE, requests.google());
      assert.equal(gemini.statusCode, 200, gemini.body);
      assert.equal(gemini.json().candidates[0].content.parts[0].text, 'Hello from the upstream.');
      seen = fake.last();
      assert.equal(seen.path, '/google/v1beta/models/gemini-test:generateContent');
      assert.equal(seen.headers['x-goog-api-key'], UPSTREAM_KEYS.google);
      assert.equal(seen.query, '', 'no key in the query');
      assert.equal(seen.headers['x-api-key'], undefined);
      assert.deepEqual(seen.body, requests.google());
    });

    it('records usage per provider and model and reports it with totals, filters and keys', async () => {
      const before = await usage('?model=gpt-usage');
      assert.equal(before.totals.requests, 0);
      assert.equal((await post(CHAT, requests.chat({ model: 'gpt-usage' }))).statusCode, 200);
      assert.equal((await post(CHAT, requests.chat({ model: 'gpt-usage' }))).statusCode, 200);
      assert.equal((await post(GOOGLE.replace('gemini-test', 'gemini-usage'), requests.google())).statusCode, 200);
      const report = await usage('?model=gpt-usage');
      assert.deepEqual(report.totals, {
        requests: 2,
        errors: 0,
        input_tokens: 2 * USAGE.openai[0],
        output_tokens: 2 * USAGE.openai[1],
      });
      const today = new Date().toISOString().slice(0, 10);
      assert.deepEqual(report.days, [{ day: today, provider: 'openai', model: 'gpt-usage', ...report.totals }]);
      assert.equal(report.end, today);
      assert.equal(report.by_api_key.length, 1);
      assert.ok(report.by_api_key[0].api_key_id);
      assert.deepEqual(report.providers, {
        openai: { configured: true },
        anthropic: { configured: true },
        google: { configured: true },
      });
      const google = await usage('?provider=google&model=gemini-usage');
      assert.equal(google.totals.input_tokens, USAGE.google[0]);
      assert.equal(google.totals.output_tokens, USAGE.google[1]);
      const all = await usage();
      assert.ok(all.totals.requests >= 3);
      const past = await usage('?start=2020-01-01&end=2020-01-31&model=gpt-usage');
      assert.equal(past.totals.requests, 0);
      assert.deepEqual([past.start, past.end], ['2020-01-01', '2020-01-31']);
      const bad = await t.app.inject({
        method: 'GET',
        url: '/v1/ai/usage?start=2024-03-01&end=2024-02-01',
        headers: { 'x-api-key': t.key },
      });
      assertEnvelope(bad, 422);
      const tooLong = await t.app.inject({
        method: 'GET',
        url: '/v1/ai/usage?start=2020-01-01&end=2024-01-01',
        headers: { 'x-api-key': t.key },
      });
      assertEnvelope(tooLong, 422);
      const empty = await usage('?start=&end=&provider=&model=');
      assert.equal(empty.totals.requests, all.totals.requests, 'empty query values are absent');
    });

    it('passes upstream errors through with their status, body and retry advice, counted as errors', async () => {
      fake.override((_call, res) => {
        res.writeHead(429, {
          'content-type': 'application/json',
          'retry-after': '1',
          'x-ratelimit-remaining-requests': '0',
        });
        res.end(JSON.stringify({ error: { message: 'Rate limit reached', type: 'requests' } }));
      });
      const limited = await post(CHAT, requests.chat({ model: 'gpt-errors' }));
      assert.equal(limited.statusCode, 429);
      assert.deepEqual(limited.json(), { error: { message: 'Rate limit reached', type: 'requests' } });
      assert.equal(limited.headers['retry-after'], '1');
      assert.equal(limited.headers['x-ratelimit-remaining-requests'], '0');
      assert.equal(limited.headers['x-engram-upstream'], 'openai');
      fake.override((_call, res) => {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ type: 'error', error: { type: 'api_error', message: 'Overloaded' } }));
      });
      const failed = await post(ANTHROPIC, requests.anthropic({ model: 'claude-errors' }));
      assert.equal(failed.statusCode, 500);
      assert.equal(failed.json().error.message, 'Overloaded');
      assert.equal(failed.headers['x-engram-upstream'], 'anthropic');
      const counted = await usage('?model=gpt-errors');
      assert.deepEqual(counted.totals, { requests: 1, errors: 1, input_tokens: 0, output_tokens: 0 });
      assert.equal((await usage('?model=claude-errors')).totals.errors, 1);
    });

    it('refuses bad input in the envelope before any upstream call', async () => {
      const calls = fake.seen.length;
      const none = await t.app.inject({ method: 'POST', url: CHAT, headers: { 'x-api-key': t.key } });
      assert.equal(assertEnvelope(none, 422).details.field, 'body');
      assertEnvelope(await post(CHAT, [1, 2]), 422);
      assertEnvelope(await post(CHAT, requests.chat({ model: 7 })), 422);
      assertEnvelope(await post(CHAT, requests.chat({ engram: { user: 'typo' } })), 422);
      const store = await post(CHAT, requests.chat({ engram: { memory: 'store', external_user_id: 'ana' } }));
      assert.equal(assertEnvelope(store, 422).details.field, 'engram.session_id');
      assertEnvelope(await post(CHAT, requests.chat(), { 'x-engram-memory': 'sometimes' }), 422);
      assertEnvelope(await post('/v1/ai/google/models/gemini%20x:generateContent', requests.google()), 422);
      assertEnvelope(await post('/v1/ai/google/models/gemini-test:countTokens', requests.google()), 404);
      assertEnvelope(await post(`${GOOGLE_STREAM}?alt=proto`, requests.google()), 422);
      assert.equal(fake.seen.length, calls, 'nothing was forwarded');
    });

    it('end users act as themselves, namespace keys in their namespace; other tenants see none of ours', async () => {
      const ana = await makeSession(t.db, t.orgId, 'ana-end-user');
      const asAna = { 'x-api-key': '', 'x-session-token': ana.token };
      const other = await post(CHAT, requests.chat(), { ...asAna, 'x-engram-user': 'someone-else' });
      assertEnvelope(other, 403);
      const own = await post(CHAT, requests.chat({ model: 'gpt-end-user' }), {
        ...asAna,
        'x-engram-user': 'ana-end-user',
        'x-engram-memory': 'off',
      });
      assert.equal(own.statusCode, 200, own.body);
      const anaUsage = await t.app.inject({ method: 'GET', url: '/v1/ai/usage', headers: asAna });
      assert.equal(anaUsage.statusCode, 200);
      assert.deepEqual(
        anaUsage.json().days.map((d: { model: string }) => d.model),
        ['gpt-end-user'],
        'an end user sees only their own calls',
      );

      const ns = await makeNamespace(t.db, t.orgId);
      const { key: nsKey } = await makeKey(t.db, t.orgId, { namespaceId: ns });
      const elsewhere = await post(CHAT, requests.chat({ engram: { namespace_id: 'another-ns' } }), {
        'x-api-key': nsKey,
      });
      assertEnvelope(elsewhere, 403);
      assert.equal((await post(CHAT, requests.chat({ model: 'gpt-ns' }), { 'x-api-key': nsKey })).statusCode, 200);
      const nsUsage = await usage('', nsKey);
      assert.deepEqual(
        nsUsage.days.map((d: { model: string }) => d.model),
        ['gpt-ns'],
      );

      const foreign = await makeOrg(t.db);
      assert.equal(
        (await post(CHAT, requests.chat({ model: 'gpt-foreign' }), { 'x-api-key': foreign.key })).statusCode,
        200,
      );
      const theirs = await usage('', foreign.key);
      assert.deepEqual(
        theirs.days.map((d: { model: string }) => d.model),
        ['gpt-foreign'],
      );
      assert.equal((await usage('?model=gpt-foreign')).totals.requests, 0, 'their call is not ours');
      assert.ok((await usage()).totals.requests > 0);
    });

    const kit = authKitFor(() => t);
    // Another organization's key is a caller of its own: its call is forwarded and counted for it.
    const ownCall = (res: { statusCode: number; body: string }) => assert.equal(res.statusCode, 200, res.body);
    kit(
      'chat',
      'POST',
      () => CHAT,
      'write',
      () => requests.chat(),
      ownCall,
    );
    kit(
      'responses',
      'POST',
      () => RESPONSES,
      'write',
      () => requests.responses(),
      ownCall,
    );
    kit(
      'anthropic',
      'POST',
      () => ANTHROPIC,
      'write',
      () => requests.anthropic(),
      ownCall,
    );
    kit(
      'generateContent',
      'POST',
      () => GOOGLE,
      'write',
      () => requests.google(),
      ownCall,
    );
    kit(
      'streamGenerateContent',
      'POST',
      () => GOOGLE_STREAM,
      'write',
      () => requests.google(),
      ownCall,
    );
    kit(
      'usage',
      'GET',
      () => '/v1/ai/usage',
      'read',
      undefined,
      (res) => {
        assert.equal(res.statusCode, 200, res.body);
        assert.deepEqual(res.json().days, [], 'another organization sees none of ours');
      },
    );
  });

  describe(`AI proxy without upstreams [${store.name}]`, () => {
    const fake = fakeAiUpstream();
    let t: TestApp;
    before(async () => {
      await fake.start();
      const dead = `http://127.0.0.1:${await freePort()}/v1`;
      const anthropic = fake.env().AI_ANTHROPIC_BASE_URL;
      t = await startApp(store, {
        env: { AI_OPENAI_BASE_URL: dead, AI_ANTHROPIC_BASE_URL: anthropic, AI_TIMEOUT_MS: '300' },
      });
    });
    after(async () => {
      await t.close();
      fake.stop();
    });
    const post = (url: string, payload: unknown) =>
      t.app.inject({ method: 'POST', url, headers: { 'x-api-key': t.key }, payload: payload as object });

    it('an unconfigured provider is a 400 saying so; the usage report says which are configured', async () => {
      for (const url of [GOOGLE, GOOGLE_STREAM]) {
        const res = await post(url, requests.google());
        const body = assertEnvelope(res, 400);
        assert.equal(body.details.reason, 'provider_not_configured');
        assert.equal(body.details.provider, 'google');
      }
      const bodiless = await t.app.inject({ method: 'POST', url: GOOGLE, headers: { 'x-api-key': t.key } });
      assertEnvelope(bodiless, 400);
      const report = await t.app.inject({ method: 'GET', url: '/v1/ai/usage', headers: { 'x-api-key': t.key } });
      assert.deepEqual(report.json().providers, {
        openai: { configured: true },
        anthropic: { configured: true },
        google: { configured: false },
      });
    });

    it('an unreachable upstream is a 502 and a silent one a 504, in the envelope, counted as errors', async () => {
      const down = await post(CHAT, requests.chat({ model: 'gpt-down' }));
      assert.equal(assertEnvelope(down, 502).details.provider, 'openai');
      assert.equal(down.headers['x-should-retry'], 'true', 'nothing happened: the client may retry');
      fake.override(() => undefined); // never answers
      const silent = await post(ANTHROPIC, requests.anthropic({ model: 'claude-silent' }));
      assertEnvelope(silent, 504);
      assert.equal(silent.headers['x-should-retry'], 'false');
      const report = (
        await t.app.inject({ method: 'GET', url: '/v1/ai/usage', headers: { 'x-api-key': t.key } })
      ).json();
      assert.deepEqual(
        report.days.map((d: { model: string; requests: number; errors: number }) => [d.model, d.requests, d.errors]),
        [
          ['claude-silent', 1, 1],
          ['gpt-down', 1, 1],
        ],
      );
    });
  });
}
