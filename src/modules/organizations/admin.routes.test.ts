import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, testStores, type TestApp } from '../../../test/harness.ts';
import { assertEnvelope } from '../../../test/auth-kit.ts';

const ADMIN = 'adm_0123456789abcdef0123456789abcdef';

for (const store of testStores) {
  describe(`admin API [${store.name}]`, () => {
    let t: TestApp;
    let off: TestApp;
    before(async () => {
      t = await startApp(store, { env: { ADMIN_API_KEY: ADMIN } });
      off = await startApp(store);
    });
    after(async () => {
      await t.close();
      await off.close();
    });
    const admin = (
      method: 'GET' | 'POST' | 'DELETE',
      url: string,
      headers: Record<string, string> = { 'x-admin-key': ADMIN },
      payload?: object,
    ) => t.app.inject({ method, url, headers, payload });

    it('is off (404) without ADMIN_API_KEY', async () => {
      assertEnvelope(
        await off.app.inject({ method: 'GET', url: '/admin/organizations', headers: { 'x-admin-key': ADMIN } }),
        404,
      );
    });

    it('refuses missing, wrong and tenant credentials with 401', async () => {
      for (const headers of [
        {},
        { 'x-admin-key': 'adm_wrong' },
        { 'x-api-key': t.key },
        { authorization: `Bearer ${t.key}` },
        { 'x-admin-key': `${ADMIN}x` },
      ] as Record<string, string>[]) {
        assertEnvelope(await admin('GET', '/admin/organizations', headers), 401);
        assertEnvelope(await admin('POST', '/admin/organizations', headers, { name: 'sneaky' }), 401);
      }
      const orgs = await t.db.query(`SELECT 1 FROM organizations WHERE name = 'sneaky'`);
      assert.equal(orgs.length, 0);
    });

    it('creates an organization whose key works at once, lists it, and revokes the key', async () => {
      const res = await admin(
        'POST',
        '/admin/organizations',
        { authorization: `Bearer ${ADMIN}` },
        { name: 'Acme Robotics' },
      );
      assert.equal(res.statusCode, 201, res.body);
      const { data } = res.json();
      assert.equal(data.name, 'Acme Robotics');
      assert.ok(data.api_key.key.startsWith(data.api_key.key_prefix));
      assert.deepEqual([...data.api_key.permissions].sort(), ['delete', 'read', 'write']);
      const [stored] = await t.db.query('SELECT key_hash FROM api_keys WHERE id = $1', [data.api_key.id]);
      assert.notEqual(stored.key_hash, data.api_key.key, 'only the hash is stored');
      const me = await t.app.inject({ url: '/me', headers: { 'x-api-key': data.api_key.key } });
      assert.equal(me.statusCode, 200, me.body);

      const list = (await admin('GET', '/admin/organizations')).json().data;
      const acme = list.find((o: { organization_id: string }) => o.organization_id === data.organization_id);
      assert.deepEqual(
        { name: acme.name, namespaces: acme.namespaces, active_keys: acme.active_keys },
        { name: 'Acme Robotics', namespaces: 1, active_keys: 1 },
      );

      const revoked = await admin('DELETE', `/admin/api-keys/${data.api_key.id}`);
      assert.equal(revoked.statusCode, 200, revoked.body);
      assert.equal(revoked.json().data.organization_id, data.organization_id);
      assertEnvelope(await t.app.inject({ url: '/me', headers: { 'x-api-key': data.api_key.key } }), 401);
      assertEnvelope(await admin('DELETE', `/admin/api-keys/${data.api_key.id}`), 404);
    });

    it('validates the body', async () => {
      assertEnvelope(await admin('POST', '/admin/organizations', undefined, { name: '   ' }), 422);
      assertEnvelope(await admin('POST', '/admin/organizations', undefined, {}), 422);
    });
  });
}
