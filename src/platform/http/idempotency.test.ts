import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, testStores, type TestApp } from '../../../test/harness.ts';
import { assertEnvelope } from '../../../test/auth-kit.ts';
import { makeKey, makeNamespace } from '../../../test/factories.ts';
import { multipart } from '../../../test/multipart.ts';
import { pruneIdempotencyKeys } from './idempotency.store.ts';
import { canonicalJson } from './idempotency.ts';

describe('canonicalJson', () => {
  it('sorts keys at every level and keeps array order', () => {
    assert.equal(canonicalJson({ b: 1, a: [{ d: 2, c: 3 }, 'x'] }), '{"a":[{"c":3,"d":2},"x"],"b":1}');
    assert.equal(canonicalJson({ a: undefined, b: null }), '{"b":null}');
  });
});

for (const store of testStores) {
  describe(`Idempotency-Key [${store.name}]`, () => {
    let t: TestApp;
    before(async () => {
      t = await startApp(store);
    });
    after(() => t.close());

    const send = (method: string, url: string, payload: unknown, key?: string, apiKey = t.key) =>
      t.app.inject({
        method: method as 'POST',
        url,
        headers: { 'x-api-key': apiKey, ...(key === undefined ? {} : { 'idempotency-key': key }) },
        payload: payload as object,
      });
    const count = async (sql: string, params: unknown[] = []) =>
      (await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${sql}`, params))[0].n;
    const memoriesWith = (content: string) => count('memories WHERE content = $1', [content]);
    const expire = (key: string) =>
      t.db.query(`UPDATE idempotency_keys SET expires_at = now() - interval '1 second' WHERE idempotency_key = $1`, [
        key,
      ]);

    it('POST /v1/memory: a replay answers the first response (status, body, header) and stores nothing', async () => {
      const body = { content: 'Idempotent memory one.', external_user_id: 'idem-a' };
      const first = await send('POST', '/v1/memory', body, 'key-1');
      assert.equal(first.statusCode, 200, first.body);
      assert.equal(first.headers['idempotent-replayed'], undefined);
      // Same JSON, keys in another order: the canonical body is the same request.
      const again = await send('POST', '/v1/memory', { external_user_id: 'idem-a', content: body.content }, 'key-1');
      assert.equal(again.statusCode, 200);
      assert.equal(again.headers['idempotent-replayed'], 'true');
      assert.match(String(again.headers['content-type']), /application\/json/);
      assert.deepEqual(again.json(), first.json());
      assert.equal(await memoriesWith(body.content), 1);
      // Without the header nothing is remembered: two writes.
      // Without a key a request is not replayed: with duplicate folding off, the same body stores twice.
      await send('POST', '/v1/memory', { content: 'No key.', external_user_id: 'idem-a', dedupe: 'off' });
      await send('POST', '/v1/memory', { content: 'No key.', external_user_id: 'idem-a', dedupe: 'off' });
      assert.equal(await memoriesWith('No key.'), 2);
    });

    it('the same key with another body is a 422 naming the header; nothing is stored', async () => {
      const ok = await send('POST', '/v1/memory', { content: 'Original.', external_user_id: 'idem-a' }, 'key-2');
      assert.equal(ok.statusCode, 200);
      const other = assertEnvelope(
        await send('POST', '/v1/memory', { content: 'Changed.', external_user_id: 'idem-a' }, 'key-2'),
        422,
      );
      assert.equal(other.details.header, 'Idempotency-Key');
      assert.match(other.error, /Idempotency-Key/);
      assert.equal(await memoriesWith('Changed.'), 0);
      // Another route under the same key is another request too.
      const batch = await send('POST', '/v1/memory/batch', { memories: [{ content: 'Original.' }] }, 'key-2');
      assertEnvelope(batch, 422);
    });

    it('refuses malformed keys (empty, over 255, non-ASCII, control characters) with a 422 envelope', async () => {
      const body = { content: 'Bad key.', external_user_id: 'idem-a' };
      for (const key of ['', 'x'.repeat(256), 'clé', 'tab\there']) {
        const res = await send('POST', '/v1/memory', body, key);
        const env = assertEnvelope(res, 422);
        assert.match(JSON.stringify(env), /idempotency-key/i, res.body);
      }
      assert.equal(await memoriesWith('Bad key.'), 0);
      const max = await send('POST', '/v1/memory', body, `k${'~'.repeat(254)}`);
      assert.equal(max.statusCode, 200, max.body);
    });

    it('a failed request gives its key back: the retry with the same key runs', async () => {
      const bad = { content: 'Retry me.', external_user_id: 'idem-a', namespace_id: 'no-such-namespace' };
      const failed = await send('POST', '/v1/memory', bad, 'key-3');
      assert.equal(failed.statusCode, 404, failed.body);
      assert.equal(await count('idempotency_keys WHERE idempotency_key = $1', ['key-3']), 0);
      const fixed = await send('POST', '/v1/memory', { ...bad, namespace_id: undefined }, 'key-3');
      assert.equal(fixed.statusCode, 200, fixed.body);
      assert.equal(await memoriesWith('Retry me.'), 1);
    });

    it('a request still in flight under the key is a 409; two racing identical requests store once', async () => {
      const body = { content: 'In flight.', external_user_id: 'idem-a' };
      assert.equal((await send('POST', '/v1/memory', body, 'key-4')).statusCode, 200);
      // Make the answered key look unfinished again: what a second request sees while the first runs.
      await t.db.query(`UPDATE idempotency_keys SET status = 'pending' WHERE idempotency_key = 'key-4'`);
      const busy = assertEnvelope(await send('POST', '/v1/memory', body, 'key-4'), 409);
      assert.equal(busy.details.header, 'Idempotency-Key');

      const race = { content: 'Racing twins.', external_user_id: 'idem-a' };
      const results = await Promise.all(Array.from({ length: 4 }, () => send('POST', '/v1/memory', race, 'key-5')));
      const codes = results.map((r) => r.statusCode);
      assert.ok(
        codes.every((c) => c === 200 || c === 409),
        codes.join(),
      );
      const originals = results.filter((r) => r.statusCode === 200 && !r.headers['idempotent-replayed']);
      assert.equal(originals.length, 1, codes.join());
      assert.equal(await memoriesWith('Racing twins.'), 1);
    });

    it('scope: the same key in another namespace is another key; expired keys are free and pruned', async () => {
      const ns = await makeNamespace(t.db, t.orgId);
      const nsKey = (await makeKey(t.db, t.orgId, { namespaceId: ns })).key;
      const body = { content: 'Scoped.', external_user_id: 'idem-b' };
      assert.equal((await send('POST', '/v1/memory', body, 'shared-key')).statusCode, 200);
      const inNs = await send('POST', '/v1/memory', body, 'shared-key', nsKey);
      assert.equal(inNs.statusCode, 200, inNs.body);
      assert.equal(inNs.headers['idempotent-replayed'], undefined);
      assert.equal(await memoriesWith('Scoped.'), 2);

      await expire('shared-key');
      const later = await send('POST', '/v1/memory', { ...body, content: 'After expiry.' }, 'shared-key');
      assert.equal(later.statusCode, 200, later.body);
      assert.equal(later.headers['idempotent-replayed'], undefined);
      await expire('shared-key');
      assert.ok((await pruneIdempotencyKeys(t.db)) >= 2);
      assert.equal(await count('idempotency_keys WHERE idempotency_key = $1', ['shared-key']), 0);
    });

    it('POST /v1/memory/batch, /v1/messages and /v1/omo/import replay instead of storing again', async () => {
      const batch = { memories: [{ content: 'Batch A.' }, { content: 'Batch B.' }], external_user_id: 'idem-c' };
      const b1 = await send('POST', '/v1/memory/batch', batch, 'batch-key');
      assert.equal(b1.statusCode, 200, b1.body);
      const b2 = await send('POST', '/v1/memory/batch', batch, 'batch-key');
      assert.equal(b2.headers['idempotent-replayed'], 'true');
      assert.deepEqual(b2.json(), b1.json());
      assert.equal(await memoriesWith('Batch A.'), 1);

      const msg = { sessionId: 'idem-session', role: 'user', content: 'Hello once.', external_user_id: 'idem-c' };
      const m1 = await send('POST', '/v1/messages', msg, 'msg-key');
      assert.equal(m1.statusCode, 200, m1.body);
      const m2 = await send('POST', '/v1/messages', msg, 'msg-key');
      assert.equal(m2.headers['idempotent-replayed'], 'true');
      assert.deepEqual(m2.json(), m1.json());
      assert.equal(await count(`chat_messages WHERE text = 'Hello once.'`), 1);

      const omo = {
        memories: [{ id: 'omo-idem-1', createdAt: '2026-01-02T03:04:05Z', content: 'Imported once.' }],
        skip_duplicates: false,
        external_user_id: 'idem-c',
      };
      const o1 = await send('POST', '/v1/omo/import', omo, 'omo-key');
      assert.equal(o1.statusCode, 200, o1.body);
      const o2 = await send('POST', '/v1/omo/import', omo, 'omo-key');
      assert.equal(o2.headers['idempotent-replayed'], 'true');
      assert.deepEqual(o2.json(), o1.json());
      assert.equal(await memoriesWith('Imported once.'), 1);
    });

    it('POST /v1/document: the same upload (another multipart boundary) replays; another file is a 422', async () => {
      const upload = async (text: string, key: string) => {
        const { payload, contentType } = await multipart(
          { name: 'notes.txt', bytes: text, type: 'text/plain' },
          { external_user_id: 'idem-d' },
        );
        return t.app.inject({
          method: 'POST',
          url: '/v1/document',
          headers: { 'x-api-key': t.key, 'content-type': contentType, 'idempotency-key': key },
          payload,
        });
      };
      const u1 = await upload('A document uploaded once.', 'doc-key');
      assert.equal(u1.statusCode, 202, u1.body);
      const u2 = await upload('A document uploaded once.', 'doc-key');
      assert.equal(u2.statusCode, 202);
      assert.equal(u2.headers['idempotent-replayed'], 'true');
      assert.deepEqual(u2.json(), u1.json());
      assert.equal(await count(`document_uploads WHERE filename = 'notes.txt'`), 1);
      assertEnvelope(await upload('Another document.', 'doc-key'), 422);
      assert.equal(await count(`document_uploads WHERE filename = 'notes.txt'`), 1);
    });

    it('documents the header and the 409 on every idempotent write in the OpenAPI document', async () => {
      const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
      for (const [path, method] of [
        ['/v1/memory', 'post'],
        ['/v1/memory/batch', 'post'],
        ['/v1/messages', 'post'],
        ['/v1/messages/sessions/{session_id}/process', 'post'],
        ['/v1/document', 'post'],
        ['/v1/omo/import', 'post'],
      ]) {
        const op = doc.paths[path][method];
        const header = op.parameters.find((p: any) => p.in === 'header' && p.name === 'idempotency-key');
        assert.ok(header, `${method} ${path} documents Idempotency-Key`);
        assert.ok(op.responses['409'], `${method} ${path} documents the 409`);
      }
      assert.ok(!doc.paths['/v1/memory/search'].post.parameters?.some((p: any) => p.name === 'idempotency-key'));
    });
  });
}
