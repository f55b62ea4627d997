import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { LightMyRequestResponse } from 'fastify';
import { startApp, testStores, type TestApp } from '../../../test/harness.ts';
import { assertEnvelope, authKitFor } from '../../../test/auth-kit.ts';
import { makeKey, makeNamespace, makeOrg, makeSession } from '../../../test/factories.ts';
import { INSTANCE_DOCS } from './instance.service.ts';

const neo4j = { neo4j: { bolt_url: 'neo4j+s://x.databases.neo4j.io', password: 'secret-pw' }, provider: 'gcp' };

/** The documented 501: the envelope, not retried, pointing at the docs page. */
function assertNotImplemented(res: LightMyRequestResponse, scope: 'namespace' | 'organization'): void {
  const e = assertEnvelope(res, 501);
  assert.equal(res.headers['x-should-retry'], 'false');
  assert.match(e.error, /PostgreSQL/);
  assert.deepEqual(e.details, { reason: 'not_supported', graph_store: 'postgresql', scope, docs: INSTANCE_DOCS });
  assert.ok(!res.body.includes('secret-pw'));
}

for (const store of testStores) {
  describe(`instance configuration: a documented 501 after the checks [${store.name}]`, () => {
    let t: TestApp;
    let ns: string;
    before(async () => {
      t = await startApp(store);
      ns = await makeNamespace(t.db, t.orgId);
    });
    after(() => t.close());
    const call = (method: 'GET' | 'PUT' | 'DELETE', url: string, headers = { 'x-api-key': t.key }, payload?: object) =>
      t.app.inject({ method, url, headers, payload });

    it('namespace and organization: GET, PUT, DELETE answer 501 to an organization key; nothing stored', async () => {
      const tables = async () =>
        (await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM information_schema.tables`))[0].n;
      const n = await tables();
      for (const method of ['GET', 'PUT', 'DELETE'] as const) {
        const payload = method === 'PUT' ? neo4j : undefined;
        assertNotImplemented(await call(method, `/v1/namespace/${ns}/instance`, undefined, payload), 'namespace');
        assertNotImplemented(await call(method, '/v1/organization/instance', undefined, payload), 'organization');
      }
      assertNotImplemented(await call('PUT', `/v1/namespace/${ns}/instance?validate=true`, undefined, {}), 'namespace');
      assert.equal(await tables(), n);
      const row = await t.db.query('SELECT * FROM namespaces WHERE id = $1', [ns]);
      assert.ok(!JSON.stringify(row).includes('secret-pw'));
    });

    it('unknown or foreign namespaces are 404; only those allowed to ask get the 501', async () => {
      for (const method of ['GET', 'PUT', 'DELETE'] as const) {
        assertEnvelope(await call(method, '/v1/namespace/no-such-namespace/instance'), 404);
        const other = await makeOrg(t.db);
        const foreignNs = await makeNamespace(t.db, other.organizationId);
        assertEnvelope(await call(method, `/v1/namespace/${foreignNs}/instance`), 404);
      }
      // A namespace key reads its own namespace's (501), sees no other (404), and administers nothing (403).
      const { key } = await makeKey(t.db, t.orgId, { namespaceId: ns });
      const other = await makeNamespace(t.db, t.orgId);
      assertNotImplemented(await call('GET', `/v1/namespace/${ns}/instance`, { 'x-api-key': key }), 'namespace');
      assertEnvelope(await call('GET', `/v1/namespace/${other}/instance`, { 'x-api-key': key }), 404);
      assertEnvelope(await call('PUT', `/v1/namespace/${ns}/instance`, { 'x-api-key': key }, neo4j), 403);
      assertEnvelope(await call('DELETE', `/v1/namespace/${ns}/instance`, { 'x-api-key': key }), 403);
      assertEnvelope(await call('GET', '/v1/organization/instance', { 'x-api-key': key }), 403);
      // An end user's own token is no administrator.
      const user = await makeSession(t.db, t.orgId, 'inst-user');
      const headers = { 'x-session-token': user.token } as never;
      assertEnvelope(await call('GET', `/v1/namespace/${ns}/instance`, headers), 403);
      assertEnvelope(await call('GET', '/v1/organization/instance', headers), 403);
    });

    it('a malformed body is a 422 like anywhere else', async () => {
      const bad = [{ neo4j: { password: 'x' } }, { neo4j: 'bolt://x' }, { provider: 7 }, { region: 'r'.repeat(65) }];
      for (const payload of bad) {
        assertEnvelope(await call('PUT', `/v1/namespace/${ns}/instance`, undefined, payload), 422);
        assertEnvelope(await call('PUT', '/v1/organization/instance', undefined, payload), 422);
      }
      assertEnvelope(await call('PUT', `/v1/namespace/${ns}/instance?validate=maybe`, undefined, {}), 422);
    });

    const kit = authKitFor(() => t);
    for (const [method, permission] of [
      ['GET', 'read'],
      ['PUT', 'write'],
      ['DELETE', 'delete'],
    ] as const) {
      const payload = method === 'PUT' ? () => neo4j : undefined;
      kit(`${method} namespace instance`, method, () => `/v1/namespace/${ns}/instance`, permission, payload);
      // Another organization asks about its own organization: allowed to ask, so the 501.
      kit(
        `${method} organization instance`,
        method,
        () => '/v1/organization/instance',
        permission,
        payload,
        (res) => assertNotImplemented(res, 'organization'),
      );
    }
  });
}
