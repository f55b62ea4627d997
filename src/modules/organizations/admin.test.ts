import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, testStores, type TestApp } from '../../../test/harness.ts';
import { assertEnvelope } from '../../../test/auth-kit.ts';
import { makeKey } from '../../../test/factories.ts';
import { runAdmin } from './admin.ts';

for (const store of testStores) {
  describe(`admin CLI commands [${store.name}]`, () => {
    let t: TestApp;
    before(async () => {
      t = await startApp(store);
    });
    after(() => t.close());
    async function admin(...args: string[]) {
      const lines: string[] = [];
      const code = await runAdmin(t.db, args, (l) => lines.push(l));
      return { code, out: lines.join('\n') };
    }
    const me = (key: string) => t.app.inject({ url: '/me', headers: { 'x-api-key': key } });

    it('org create makes a working organization whose key is printed once; org list shows it', async () => {
      const r = await admin('org', 'create', 'Acme', 'Corp');
      assert.equal(r.code, 0);
      const key = /api key \(shown once\):\s+(\S+)/.exec(r.out)![1];
      const orgId = /organization_id:\s+(\S+)/.exec(r.out)![1];
      assert.equal((await me(key)).statusCode, 200);
      const ns = await t.app.inject({ url: '/v1/namespace', headers: { 'x-api-key': key } });
      assert.deepEqual(
        ns.json().data.map((n: any) => [n.name, n.organization_id]),
        [['default', orgId]],
      );
      const list = await admin('org', 'list');
      assert.equal(list.code, 0);
      const row = list.out
        .split('\n')
        .find((l) => l.startsWith(orgId))!
        .split('\t');
      assert.deepEqual(row.slice(1, 4), ['Acme Corp', '1', '1']);
      assert.ok(list.out.includes(t.orgId));
      assert.ok(!list.out.includes(key));
    });

    it('key revoke stops the key at once; unknown ids and bad usage fail with non-zero codes', async () => {
      const { key, id } = await makeKey(t.db, t.orgId);
      assert.equal((await me(key)).statusCode, 200);
      assert.equal((await admin('key', 'revoke', id)).code, 0);
      assertEnvelope(await me(key), 401);
      assert.equal((await admin('key', 'revoke', id)).code, 1);
      assert.equal((await admin('org', 'create')).code, 2);
      assert.equal((await admin('nonsense')).code, 2);
      assert.equal((await me(t.key)).statusCode, 200);
    });
  });
}
