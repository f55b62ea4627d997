import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, testStores, type TestApp } from '../../../test/harness.ts';
import { assertEnvelope, authKitFor } from '../../../test/auth-kit.ts';
import { makeKey, makeNamespace, makeOrg } from '../../../test/factories.ts';
import { hashSecret } from './api-keys.keys.ts';

for (const store of testStores) {
  describe(`namespace api keys [${store.name}]`, () => {
    let t: TestApp;
    let ns: string;
    let knownKeyId: string;
    before(async () => {
      t = await startApp(store);
      ns = await makeNamespace(t.db, t.orgId, 'keys-ns');
      knownKeyId = (await makeKey(t.db, t.orgId, { namespaceId: ns })).id;
    });
    after(() => t.close());
    const call = (method: any, url: string, payload?: unknown, key = t.key) =>
      t.app.inject({ method, url, headers: { 'x-api-key': key }, payload: payload as any });
    const mint = (namespaceId: string, body: Record<string, unknown>, key = t.key) =>
      call('POST', `/v1/namespace/${namespaceId}/api-keys`, body, key);

    it(
      'mints a key (full key once, prefix = first 24 chars, ' + 'hash stored) that works only inside its namespace',
      async () => {
        const res = await mint(ns, { name: 'ingest bot', environment: 'staging', permissions: ['read', 'write'] });
        assert.equal(res.statusCode, 200, res.body);
        const d = res.json().data;
        assert.equal(res.json().status, 'success');
        assert.equal(d.key_prefix, d.key.slice(0, 24));
        assert.equal(d.name, 'ingest bot');
        assert.equal(d.namespace_id, ns);
        assert.equal(d.organization_id, t.orgId);
        assert.equal(d.environment, 'staging');
        assert.deepEqual(d.permissions, ['read', 'write']);
        assert.equal(d.is_active, true);
        assert.ok(!Number.isNaN(Date.parse(d.createdAt)));
        const [stored] = await t.db.query<any>('SELECT key_hash, key_prefix FROM api_keys WHERE id = $1', [d.objectId]);
        assert.equal(stored.key_hash, hashSecret(d.key));
        assert.ok(!JSON.stringify(stored).includes(d.key));

        // The new key writes into its namespace, is refused elsewhere, and lacks delete.
        const add = await call('POST', '/v1/memory', { content: 'From the bot.', external_user_id: 'bot-user' }, d.key);
        assert.equal(add.statusCode, 200, add.body);
        const memId = add.json().data[0].memoryId;
        const [row] = await t.db.query<any>('SELECT namespace_id FROM memories WHERE id = $1', [memId]);
        assert.equal(row.namespace_id, ns);
        const elsewhere = await makeNamespace(t.db, t.orgId);
        assertEnvelope(
          await call('POST', '/v1/memory', { content: 'x', external_user_id: 'b', namespace_id: elsewhere }, d.key),
          403,
        );
        assertEnvelope(await call('DELETE', `/v1/memory/${memId}`, undefined, d.key), 403);

        const list = (await call('GET', `/v1/namespace/${ns}/api-keys`)).json();
        const listed = list.data.find((k: any) => k.objectId === d.objectId);
        assert.equal(listed.key_prefix, d.key_prefix);
        assert.equal(listed.key, undefined);
        assert.ok(!JSON.stringify(list).includes(d.key));
      },
    );

    it('defaults: environment production, permissions of the minter; rejects bad input', async () => {
      const d = (await mint(ns, { name: 'defaults' })).json().data;
      assert.equal(d.environment, 'production');
      assert.deepEqual(d.permissions, ['read', 'write', 'delete']);
      assertEnvelope(await mint(ns, { name: 'bad', permissions: ['admin'] }), 422);
      assertEnvelope(await mint(ns, {}), 422);
      assertEnvelope(await mint(ns, { name: 'x', environment: 'moon' }), 422);
      assertEnvelope(await mint('no-such-namespace', { name: 'x' }), 404);
    });

    it('namespace keys mint only for their own namespace and never beyond their own permissions', async () => {
      const { key: rw } = await makeKey(t.db, t.orgId, { namespaceId: ns, permissions: ['read', 'write'] });
      const child = await mint(ns, { name: 'child', permissions: ['read'] }, rw);
      assert.equal(child.statusCode, 200, child.body);
      assert.deepEqual(child.json().data.permissions, ['read']);
      assert.deepEqual((await mint(ns, { name: 'inherit' }, rw)).json().data.permissions, ['read', 'write']);
      const esc = assertEnvelope(await mint(ns, { name: 'escalate', permissions: ['read', 'delete'] }, rw), 403);
      assert.deepEqual(esc.details.permissions, ['delete']);
      const other = await makeNamespace(t.db, t.orgId);
      assertEnvelope(await mint(other, { name: 'hop', permissions: ['read'] }, rw), 403);
      assertEnvelope(await mint('no-such-namespace', { name: 'hop' }, rw), 403);
      assertEnvelope(await call('GET', `/v1/namespace/${other}/api-keys`, undefined, rw), 403);
      const { key: ro } = await makeKey(t.db, t.orgId, { permissions: ['read'] });
      assertEnvelope(await mint(ns, { name: 'ro', permissions: ['read'] }, ro), 403);
    });

    it('revocation takes effect on the next request; revoking twice or across namespaces is 404', async () => {
      const d = (await mint(ns, { name: 'short-lived', permissions: ['read'] })).json().data;
      assert.equal((await call('GET', '/v1/namespace', undefined, d.key)).statusCode, 200);
      const other = await makeNamespace(t.db, t.orgId);
      assertEnvelope(await call('DELETE', `/v1/namespace/${other}/api-keys/${d.objectId}`), 404);
      const res = await call('DELETE', `/v1/namespace/${ns}/api-keys/${d.objectId}`);
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json().key_id, d.objectId);
      assertEnvelope(await call('GET', '/v1/namespace', undefined, d.key), 401);
      assertEnvelope(await call('DELETE', `/v1/namespace/${ns}/api-keys/${d.objectId}`), 404);
      const listed = (await call('GET', `/v1/namespace/${ns}/api-keys`))
        .json()
        .data.find((k: any) => k.objectId === d.objectId);
      assert.equal(listed.is_active, false);
    });

    it('another organization cannot mint, list or revoke keys of our namespace, and nothing is created', async () => {
      const other = await makeOrg(t.db);
      const before = (
        await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM api_keys WHERE namespace_id = $1', [ns])
      )[0].n;
      assertEnvelope(await mint(ns, { name: 'intruder' }, other.key), 404);
      assertEnvelope(await call('GET', `/v1/namespace/${ns}/api-keys`, undefined, other.key), 404);
      assertEnvelope(await call('DELETE', `/v1/namespace/${ns}/api-keys/${knownKeyId}`, undefined, other.key), 404);
      const after = (
        await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM api_keys WHERE namespace_id = $1', [ns])
      )[0].n;
      assert.equal(after, before);
      const [k] = await t.db.query<any>('SELECT is_active FROM api_keys WHERE id = $1', [knownKeyId]);
      assert.equal(k.is_active, true);
    });

    describe('auth kit', () => {
      const kit = authKitFor(() => t);
      kit(
        'POST /v1/namespace/:id/api-keys',
        'POST',
        () => `/v1/namespace/${ns}/api-keys`,
        'write',
        () => ({ name: 'kit', permissions: ['read'] }),
      );
      kit('GET /v1/namespace/:id/api-keys', 'GET', () => `/v1/namespace/${ns}/api-keys`, 'read');
      kit(
        'DELETE /v1/namespace/:id/api-keys/:key_id',
        'DELETE',
        () => `/v1/namespace/${ns}/api-keys/${knownKeyId}`,
        'delete',
      );
    });
  });
}
