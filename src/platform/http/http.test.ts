import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { startApp, testStores, type TestApp } from '../../../test/harness.ts';
import { assertEnvelope } from '../../../test/auth-kit.ts';
import { AppError } from '../../shared/errors.ts';
import { makeKey, makeNamespace } from '../../../test/factories.ts';
import { jsonDepth, MAX_JSON_DEPTH } from './json-body.ts';
import { stripNulls } from './normalise.ts';
import { unstorableText } from './text-guard.ts';

/** Probe routes exercising the cross-cutting rules every real route inherits. */
function probeRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.post(
    '/v1/_probe',
    {
      schema: {
        querystring: z.object({
          n: z.coerce.number().int().max(5).optional(),
          flag: z.enum(['true', 'false']).optional(),
        }),
        body: z.object({
          name: z.string().min(1),
          count: z.number().int().optional(),
          nested: z.object({ a: z.string().optional() }).optional(),
        }),
      },
    },
    async (req) => ({ query: req.query, body: req.body, big: 'x'.repeat(Number(req.query.n ?? 0) * 1000) }),
  );
  r.get('/v1/_boom', async () => {
    throw new Error('secret internal detail: password=hunter2');
  });
  r.post('/v1/_boom', async () => {
    throw new Error('secret internal detail');
  });
  r.get('/v1/_apperror', async () => {
    throw new AppError(403, 'Not allowed here', { reason: 'probe' });
  });
}

for (const store of testStores) {
  describe(`HTTP cross-cutting rules [${store.name}]`, () => {
    let t: TestApp;
    let limited: TestApp;
    before(async () => {
      t = await startApp(store, {
        beforeReady: probeRoutes,
        env: { BODY_LIMIT_BYTES: '2048' },
      });
      limited = await startApp(store, {
        env: { RATE_LIMIT_MAX: '3', RATE_LIMIT_WINDOW_MS: '1000', COMPRESS_MIN_BYTES: '1000000' },
      });
    });
    after(async () => {
      await t.close();
      await limited.close();
    });
    const auth = () => ({ 'x-api-key': t.key });

    it('GET /health needs no credentials; /ready reports the store', async () => {
      const h = await t.app.inject({ url: '/health' });
      assert.equal(h.statusCode, 200);
      assert.equal(h.json().status, 'ok');
      const r = await t.app.inject({ url: '/ready' });
      assert.equal(r.statusCode, 200);
      assert.equal(r.json().status, 'ready');
      assert.equal(r.json().store.kind, store.name);
      // buildApp without a warm-up of the caller's warms search up before it returns.
      assert.equal(r.json().search.ready, true);
      assert.equal(r.json().search.embedders[0].role, 'primary');
    });

    it('unknown paths are 404 and wrong methods 405, in the envelope', async () => {
      const nf = assertEnvelope(await t.app.inject({ url: '/v1/nothing-here', headers: auth() }), 404);
      assert.match(nf.error, /not found/);
      const na = await t.app.inject({ method: 'DELETE', url: '/me', headers: auth() });
      assertEnvelope(na, 405);
      assert.match(String(na.headers.allow), /GET/);
    });

    it('schema validation failures are 422 naming the field', async () => {
      const res = await t.app.inject({ method: 'POST', url: '/v1/_probe', headers: auth(), payload: { name: 5 } });
      const body = assertEnvelope(res, 422);
      assert.ok(JSON.stringify(body.details).includes('name'));
      const q = assertEnvelope(
        await t.app.inject({ method: 'POST', url: '/v1/_probe?n=99', headers: auth(), payload: { name: 'a' } }),
        422,
      );
      assert.ok(JSON.stringify(q.details).includes('n'));
    });

    it('null and empty values are absent; unknown query parameters and body fields are ignored', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/v1/_probe?n=&flag=&unknown_param=1',
        headers: auth(),
        payload: { name: 'a', count: null, nested: { a: null }, extra_field: true },
      });
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(res.json().query, {});
      assert.deepEqual(res.json().body, { name: 'a', nested: {} });
    });

    it('bad JSON is 400, a wrong media type 415, an oversized body 413', async () => {
      const bad = await t.app.inject({
        method: 'POST',
        url: '/v1/_probe',
        headers: { ...auth(), 'content-type': 'application/json' },
        payload: '{"name":',
      });
      assertEnvelope(bad, 400);
      const media = await t.app.inject({
        method: 'POST',
        url: '/v1/_probe',
        headers: { ...auth(), 'content-type': 'application/xml' },
        payload: '<a/>',
      });
      assertEnvelope(media, 415);
      const big = await t.app.inject({
        method: 'POST',
        url: '/v1/_probe',
        headers: auth(),
        payload: { name: 'x'.repeat(5000) },
      });
      assertEnvelope(big, 413);
    });

    it('a JSON body nested deeper than 64 levels is a 400 in the envelope, before anything walks it', async () => {
      // Issue #17 finding 2: 10,000 levels overflowed the stack in stripNulls (a 500 on 18 routes).
      const { key } = await makeKey(limited.db, limited.orgId); // the default body limit; a rate budget of its own
      for (const url of ['/v1/user', '/v1/memory']) {
        const res = await limited.app.inject({
          method: 'POST',
          url,
          headers: { 'x-api-key': key, 'content-type': 'application/json' },
          payload: '['.repeat(10_000) + ']'.repeat(10_000),
        });
        const body = assertEnvelope(res, 400);
        assert.match(body.error, /nested more than 64 levels/);
        assert.deepEqual(body.details, { limit: MAX_JSON_DEPTH });
      }
      // The limit exactly: 64 levels pass (the probe ignores the unknown field), 65 do not.
      const nested = (levels: number) => `{"name":"a","extra":${'['.repeat(levels - 1)}${']'.repeat(levels - 1)}}`;
      const send = (payload: string) =>
        t.app.inject({
          method: 'POST',
          url: '/v1/_probe',
          headers: { ...auth(), 'content-type': 'application/json' },
          payload,
        });
      assert.equal((await send(nested(64))).statusCode, 200);
      assertEnvelope(await send(nested(65)), 400);
      // Brackets inside strings (escaped quotes too) are text, not nesting.
      const text = await send(JSON.stringify({ name: '\\"' + '['.repeat(500) }));
      assert.equal(text.statusCode, 200, text.body);
    });

    it(
      'NUL characters and lone surrogates anywhere in the input ' + 'are a 422 naming the field; nothing is stored',
      async () => {
        // Issue #17 finding 3: each of these was a 500 from PostgreSQL (22021, 22P05, 22P02).
        const ns = await makeNamespace(t.db, t.orgId);
        const count = async () => Number((await t.db.query<{ n: string }>('SELECT count(*) AS n FROM memories'))[0].n);
        const before = await count();
        const probes: [string, string, unknown, string][] = [
          ['GET', '/v1/memory/abc%00def', undefined, 'params.memory_id'],
          ['DELETE', '/v1/memory/abc%00', undefined, 'params.memory_id'],
          ['GET', '/v1/user?external_id=a%00b', undefined, 'querystring.external_id'],
          ['POST', '/v1/memory', { content: 'a\u0000b', external_user_id: 'x' }, 'body.content'],
          [
            'POST',
            '/v1/memory',
            { content: 'x', external_user_id: 'u', metadata: { topics: ['\ud800'] } },
            'body.metadata.topics[0]',
          ],
          [
            'POST',
            '/v1/memory',
            { content: 'x', external_user_id: 'u', metadata: { 'k\udc00': 1 } },
            'body.metadata["k\\udc00"]',
          ],
          ['POST', '/v1/memory', { content: 'x', external_user_id: 'u\u0000' }, 'body.external_user_id'],
          [
            'POST',
            '/v1/memory/batch',
            { memories: [{ content: 'ok' }, { content: 'b\ud83d' }] },
            'body.memories[1].content',
          ],
          ['POST', '/v1/memory/search', { query: 'a\u0000' }, 'body.query'],
          ['PUT', `/v1/namespace/${ns}`, { default_policy: { '\u0000': 1 } }, 'body.default_policy["\\u0000"]'],
          ['POST', '/v1/schemas', { name: 'n\u0000' }, 'body.name'],
        ];
        for (const [method, url, payload, field] of probes) {
          const res = await t.app.inject({ method: method as any, url, headers: auth(), payload: payload as any });
          const body = assertEnvelope(res, 422);
          assert.deepEqual(body.details, { field }, `${method} ${url}`);
          assert.match(body.error, /contains (a NUL character|an unpaired UTF-16 surrogate)$/);
        }
        // A path that does not decode (an encoded lone surrogate) is the router's 400, in the envelope.
        const bad = assertEnvelope(await t.app.inject({ url: '/v1/memory/a%ED%A0%80', headers: auth() }), 400);
        assert.match(bad.error, /not a valid url component/);
        assert.equal(await count(), before, 'the store is intact');
        // Paired surrogates (emoji) are ordinary text.
        const ok = await t.app.inject({
          method: 'POST',
          url: '/v1/memory',
          headers: auth(),
          payload: { content: 'Loves 😀 and 🐙', external_user_id: 'emoji', metadata: { topics: ['🐙'] } },
        });
        assert.equal(ok.statusCode, 200, ok.body);
        assert.equal(await count(), before + 1);
      },
    );

    it('500s never leak internals; failed writes say x-should-retry: false', async () => {
      const get = assertEnvelope(await t.app.inject({ url: '/v1/_boom', headers: auth() }), 500);
      assert.doesNotMatch(JSON.stringify(get), /hunter2|secret/);
      const post = await t.app.inject({ method: 'POST', url: '/v1/_boom', headers: auth() });
      assertEnvelope(post, 500);
      assert.equal(post.headers['x-should-retry'], 'false');
      const app = assertEnvelope(await t.app.inject({ url: '/v1/_apperror', headers: auth() }), 403);
      assert.deepEqual(app.details, { reason: 'probe' });
    });

    it('every response carries X-Request-Id; a sane incoming one is echoed', async () => {
      const a = await t.app.inject({ url: '/health' });
      assert.match(String(a.headers['x-request-id']), /^[0-9a-f-]{36}$/);
      const b = await t.app.inject({ url: '/me', headers: { ...auth(), 'x-request-id': 'trace-123' } });
      assert.equal(b.headers['x-request-id'], 'trace-123');
      const c = await t.app.inject({ url: '/nope' });
      assert.ok(c.headers['x-request-id']);
    });

    it('compresses JSON over 1 KB when the client accepts gzip (spec §8), not smaller bodies nor unasked', async () => {
      // The probe echoes `name`: its length sets the body's size to the byte.
      const echo = (name: string, headers: Record<string, string> = {}) =>
        t.app.inject({ method: 'POST', url: '/v1/_probe', headers: { ...auth(), ...headers }, payload: { name } });
      const overhead = (await echo('a')).rawPayload.length - 1;
      const probe = (bytes: number, headers?: Record<string, string>) => echo('a'.repeat(bytes - overhead), headers);
      const plain = await probe(1025);
      assert.equal(plain.rawPayload.length, 1025);
      assert.equal(plain.headers['content-encoding'], undefined, 'no Accept-Encoding: no compression');

      const over = await probe(1025, { 'accept-encoding': 'gzip' });
      assert.equal(over.headers['content-encoding'], 'gzip');
      assert.match(String(over.headers['content-type']), /application\/json/);
      assert.match(String(over.headers.vary), /accept-encoding/i);
      assert.ok(over.rawPayload.length < 1025);
      assert.deepEqual(gunzipSync(over.rawPayload), plain.rawPayload);

      const under = await probe(1023, { 'accept-encoding': 'gzip' });
      assert.equal(under.headers['content-encoding'], undefined);
      assert.equal(under.rawPayload.length, 1023);

      // br when offered (cheaper than gzip on large bodies: bench/compress.ts).
      const br = await probe(1025, { 'accept-encoding': 'br' });
      assert.equal(br.headers['content-encoding'], 'br');
      assert.deepEqual(brotliDecompressSync(br.rawPayload), plain.rawPayload);
    });

    it('COMPRESS_MIN_BYTES moves the threshold', async () => {
      const headers = { 'accept-encoding': 'gzip' };
      const doc = await t.app.inject({ url: '/openapi.json', headers });
      assert.equal(doc.headers['content-encoding'], 'gzip');
      const big = await limited.app.inject({ url: '/openapi.json', headers }); // COMPRESS_MIN_BYTES=1000000
      assert.equal(big.headers['content-encoding'], undefined);
      assert.ok(big.rawPayload.length > 1024);
    });

    it('rate limits per API key with 429 and a small Retry-After', async () => {
      const statuses: number[] = [];
      let last: any;
      for (let i = 0; i < 5; i++) {
        last = await limited.app.inject({ url: '/me', headers: { 'x-api-key': limited.key } });
        statuses.push(last.statusCode);
      }
      assert.deepEqual(statuses, [200, 200, 200, 429, 429]);
      assertEnvelope(last, 429);
      assert.ok(Number(last.headers['retry-after']) <= 1);
      // Another key has its own budget.
      const { key } = await makeKey(limited.db, limited.orgId);
      const other = await limited.app.inject({ url: '/me', headers: { 'x-api-key': key } });
      assert.equal(other.statusCode, 200);
    });

    it('serves an OpenAPI 3.1 document from the route schemas and a docs page', async () => {
      const doc = await t.app.inject({ url: '/openapi.json' });
      assert.equal(doc.statusCode, 200);
      const spec = doc.json();
      assert.equal(spec.openapi, '3.1.0');
      assert.ok(spec.paths['/me'].get.responses['200']);
      assert.ok(spec.components.securitySchemes.apiKey);
      const docs = await t.app.inject({ url: '/docs/' });
      assert.equal(docs.statusCode, 200);
      assert.match(docs.body, /<html/i);
    });
  });
}

describe('input walks are iterative', () => {
  const deep = (levels: number, leaf: unknown) => {
    let v: unknown = leaf;
    for (let i = 0; i < levels; i++) v = i % 2 ? [v, null] : { a: v, gone: null };
    return v;
  };

  it('stripNulls copies any depth without recursion, dropping null members only', () => {
    let v = stripNulls(deep(100_000, 'leaf'));
    for (let i = 100_000 - 1; i >= 0; i--) {
      if (i % 2) {
        assert.ok(Array.isArray(v) && v.length === 2 && v[1] === null);
        v = (v as unknown[])[0];
      } else {
        assert.deepEqual(Object.keys(v as object), ['a']);
        v = (v as { a: unknown }).a;
      }
    }
    assert.equal(v, 'leaf');
    const poisoned = stripNulls(JSON.parse('{"__proto__":{"admin":true}}')) as Record<string, unknown>;
    assert.equal(Object.getPrototypeOf(poisoned), Object.prototype);
    assert.deepEqual(Object.keys(poisoned), ['__proto__']);
  });

  it('unstorableText finds bad text at any depth; jsonDepth scans text linearly outside strings', () => {
    const found = unstorableText(deep(100_000, 'a\u0000'), 'body')!;
    assert.ok(found.field.startsWith('body[0].a[0].a'), found.field.slice(0, 40));
    assert.ok(found.message.endsWith('.a contains a NUL character'), found.message.slice(-40));
    assert.deepEqual(unstorableText({ m: { 'k\u0000': 1 } }, 'body'), {
      field: 'body.m["k\\u0000"]',
      message: 'The key of body.m["k\\u0000"] contains a NUL character',
    });
    assert.equal(unstorableText(deep(100_000, 'fine 😀'), 'body'), null);
    assert.equal(jsonDepth('{"a":[1,{"b":"[[[\\"[[["}]}'), 3);
    assert.equal(jsonDepth('['.repeat(1_000_000)), MAX_JSON_DEPTH + 1);
    assert.equal(jsonDepth('"unterminated [[['), 0);
  });
});
