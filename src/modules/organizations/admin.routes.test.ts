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
      method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
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

    it("sets an organization's defaults for keeping memories true; a write's own field still wins", async () => {
      const org = (await admin('POST', '/admin/organizations', undefined, { name: 'Truthless' })).json().data;
      const key = org.api_key.key as string;
      const write = async (content: string, user: string, extra: object = {}) => {
        const res = await t.app.inject({
          method: 'POST',
          url: '/v1/memory?skip_background_processing=true',
          headers: { 'x-api-key': key },
          payload: { content, external_user_id: user, ...extra },
        });
        assert.equal(res.statusCode, 200, res.body);
        return res.json().data[0] as { memoryId: string; duplicate?: boolean; supersedes?: string[] };
      };
      const set = (body: object) => admin('PATCH', `/admin/organizations/${org.organization_id}`, undefined, body);

      const res = await set({ dedupe: 'off', supersede: 'off' });
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(res.json().data, {
        organization_id: org.organization_id,
        name: 'Truthless',
        dedupe: 'off',
        supersede: 'off',
      });
      const listed = (await admin('GET', '/admin/organizations')).json().data;
      const row = listed.find((o: { organization_id: string }) => o.organization_id === org.organization_id);
      assert.deepEqual([row.dedupe, row.supersede], ['off', 'off']);

      // Off for this organization: a repeat is stored again, a new city retires nothing …
      const first = await write('My usual coffee order is an oat milk cortado.', 'ana');
      const again = await write('My usual coffee order is an oat milk cortado.', 'ana');
      assert.notEqual(again.memoryId, first.memoryId);
      assert.ok(!again.duplicate);
      await write('I live in Lisbon.', 'ana', { metadata: { createdAt: '2023-01-01T00:00:00Z' } });
      const porto = await write('I live in Porto.', 'ana', { metadata: { createdAt: '2024-01-01T00:00:00Z' } });
      assert.deepEqual(porto.supersedes ?? [], []);
      // … unless the write asks for it itself.
      const asked = await write('My usual coffee order is an oat milk cortado.', 'ana', { dedupe: 'exact' });
      assert.equal(asked.duplicate, true);
      // Another organization keeps the deployment's defaults.
      const mine = async (content: string) => {
        const r = await t.app.inject({
          method: 'POST',
          url: '/v1/memory?skip_background_processing=true',
          headers: { 'x-api-key': t.key },
          payload: { content, external_user_id: 'ana' },
        });
        return r.json().data[0] as { memoryId: string; duplicate?: boolean };
      };
      const a = await mine('My usual tea is a sencha.');
      assert.equal((await mine('My usual tea is a sencha.')).memoryId, a.memoryId);

      // "default": back to the deployment's (exact and near duplicates folded, supersession on).
      const reset = await set({ dedupe: 'default' });
      assert.equal(reset.statusCode, 200, reset.body);
      assert.equal(reset.json().data.dedupe, 'default');
      const folded = await write('My usual coffee order is an oat milk cortado.', 'ana');
      assert.equal(folded.duplicate, true);
      assert.equal((await set({ supersede: 'default' })).json().data.supersede, 'default');
      const vienna = await write('I live in Vienna.', 'ana', { metadata: { createdAt: '2025-01-01T00:00:00Z' } });
      assert.equal(vienna.supersedes?.length, 2, 'Lisbon and Porto, both still current, are retired');

      assertEnvelope(await admin('PATCH', '/admin/organizations/nope', undefined, { dedupe: 'off' }), 404);
      assertEnvelope(await set({}), 422);
      assertEnvelope(await set({ dedupe: 'sometimes' }), 422);
      assertEnvelope(await set({ dedupe: 'off', extra: 1 }), 422);
      assertEnvelope(await admin('PATCH', `/admin/organizations/${org.organization_id}`, {}, { dedupe: 'off' }), 401);
      const tenant = await admin(
        'PATCH',
        `/admin/organizations/${org.organization_id}`,
        { 'x-api-key': key },
        {
          dedupe: 'off',
        },
      );
      assertEnvelope(tenant, 401);
    });
  });
}
