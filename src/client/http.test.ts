import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { EngramHttpError, engramRequest, targetFromEnv } from './http.ts';

interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

describe('src/client/http.ts against a loopback server', () => {
  let server: http.Server;
  let baseUrl: string;
  const seen: Seen[] = [];

  before(async () => {
    server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (d: Buffer) => (body += d.toString()));
      req.on('end', () => {
        seen.push({ method: req.method!, url: req.url!, headers: req.headers, body });
        if (req.url!.startsWith('/base/fail')) {
          res.writeHead(403, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ code: 403, status: 'error', error: 'Not allowed here', details: { why: 'test' } }));
        } else if (req.url!.startsWith('/base/html')) {
          res.writeHead(502, { 'content-type': 'text/html' });
          res.end('<h1>bad gateway</h1>');
        } else {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ ok: true, echo: body ? (JSON.parse(body) as unknown) : null }));
        }
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/base`;
  });
  after(() => new Promise<void>((r) => server.close(() => r())));

  it('sends the API key and the bearer token, the query (undefined left out) and a JSON body', async () => {
    const res = await engramRequest<{ ok: boolean; echo: unknown }>(
      { baseUrl, apiKey: 'ek_test_key', bearer: 'tok_123' },
      'POST',
      '/v1/memory',
      { query: { limit: 5, flag: true, skip: undefined, q: 'a b&c' }, body: { content: 'hello', n: [1, 2] } },
    );
    assert.deepEqual(res, { ok: true, echo: { content: 'hello', n: [1, 2] } });
    const s = seen.at(-1)!;
    assert.equal(s.method, 'POST');
    const url = new URL(s.url, 'http://x');
    assert.equal(url.pathname, '/base/v1/memory', 'the base URL path is kept');
    assert.deepEqual(Object.fromEntries(url.searchParams), { limit: '5', flag: 'true', q: 'a b&c' });
    assert.equal(s.headers['x-api-key'], 'ek_test_key');
    assert.equal(s.headers.authorization, 'Bearer tok_123');
    assert.equal(s.headers['content-type'], 'application/json');
  });

  it('sends no credential headers and no body when none are given', async () => {
    await engramRequest({ baseUrl }, 'GET', 'health');
    const s = seen.at(-1)!;
    assert.equal(s.headers['x-api-key'], undefined);
    assert.equal(s.headers.authorization, undefined);
    assert.equal(s.body, '');
  });

  it('throws EngramHttpError with the status, the envelope and its message', async () => {
    const err = await engramRequest({ baseUrl }, 'GET', '/fail').then(
      () => assert.fail('no error'),
      (e: unknown) => e,
    );
    assert.ok(err instanceof EngramHttpError);
    assert.equal(err.status, 403);
    assert.equal(err.message, '403: Not allowed here');
    assert.deepEqual((err.body as { details: unknown }).details, { why: 'test' });
  });

  it('keeps a non-JSON error body as text', async () => {
    const err = (await engramRequest({ baseUrl }, 'GET', '/html').catch((e: unknown) => e)) as EngramHttpError;
    assert.equal(err.status, 502);
    assert.equal(err.body, '<h1>bad gateway</h1>');
    assert.equal(err.message, '502: request failed');
  });

  it('reads the target from the environment, with a loopback default', () => {
    assert.deepEqual(targetFromEnv({ ENGRAM_URL: 'http://h:1', ENGRAM_API_KEY: 'k', ENGRAM_TOKEN: 't' }), {
      baseUrl: 'http://h:1',
      apiKey: 'k',
      bearer: 't',
    });
    assert.deepEqual(targetFromEnv({}), { baseUrl: 'http://127.0.0.1:8080', apiKey: undefined, bearer: undefined });
  });
});
