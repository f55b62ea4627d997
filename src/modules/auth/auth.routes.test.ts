import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, testStores, type TestApp } from '../../../test/harness.ts';
import { authKit, assertEnvelope } from '../../../test/auth-kit.ts';
import { makeKey, makeNamespace, makeOrg, makeSession } from '../../../test/factories.ts';
import { AppError } from '../../shared/errors.ts';
import { readCredentials } from './auth.service.ts';

describe('readCredentials', () => {
  it('refuses two differing credentials of one kind with 400, and takes the same one twice as one', () => {
    const refused = (headers: Record<string, string | string[]>, credentials: string[]) =>
      assert.throws(
        () => readCredentials(headers),
        (e: unknown) =>
          e instanceof AppError &&
          e.code === 400 &&
          /Conflicting credentials/.test(e.message) &&
          JSON.stringify(e.details?.credentials) === JSON.stringify(credentials),
      );
    refused({ 'x-api-key': 'A', authorization: 'APIKey B' }, ['X-API-Key', 'Authorization: APIKey']);
    refused({ 'x-session-token': 'A', authorization: 'Session B' }, ['X-Session-Token', 'Authorization: Session']);
    refused({ 'x-api-key': ['A', 'B'] }, ['x-api-key', 'x-api-key']);
    refused({ authorization: ['Bearer a', 'Bearer b'] }, ['authorization', 'authorization']);
    assert.deepEqual(readCredentials({ 'x-api-key': 'A', authorization: 'APIKey A' }), {
      apiKey: 'A',
      sessionToken: undefined,
    });
    assert.equal(readCredentials({ 'x-api-key': ['A', 'A', ''] }).apiKey, 'A');
    // Different kinds still combine: the client sends its key beside an end user's tokens.
    assert.deepEqual(readCredentials({ 'x-api-key': 'K', 'x-session-token': 'S', authorization: 'Bearer T' }), {
      apiKey: 'K',
      sessionToken: 'S',
      bearer: 'T',
    });
  });
});

for (const store of testStores) {
  describe(`GET /me [${store.name}]`, () => {
    let t: TestApp;
    before(async () => {
      t = await startApp(store);
    });
    after(() => t.close());

    const me = (headers: Record<string, string>) => t.app.inject({ method: 'GET', url: '/me', headers });

    it('answers the key owner for X-API-Key and Authorization: APIKey', async () => {
      const a = await me({ 'x-api-key': t.key });
      assert.equal(a.statusCode, 200);
      assert.match(String(a.headers['content-type']), /application\/json/);
      const body = a.json();
      assert.equal(typeof body.user_id, 'string');
      assert.ok(body.user_id.length > 0);
      assert.match(body.message, /api_key/);
      const b = await me({ authorization: `APIKey ${t.key}` });
      assert.equal(b.statusCode, 200);
      assert.equal(b.json().user_id, body.user_id);
    });

    it("records a key's use, then asks the store again only after a minute", async () => {
      const { key, id } = await makeKey(t.db, t.orgId);
      const lastUsed = async () =>
        (await t.db.query<{ at: Date | null }>('SELECT last_used_at AS at FROM api_keys WHERE id = $1', [id]))[0]?.at;
      assert.equal((await me({ 'x-api-key': key })).statusCode, 200);
      let first: Date | null | undefined;
      // written beside the request
      for (let i = 0; i < 50 && !(first = await lastUsed()); i++) await new Promise((r) => setTimeout(r, 10));
      assert.ok(first instanceof Date);
      // Backdated by two minutes, the store would record the next use; this process has recorded
      // one within the minute, so it sends nothing.
      await t.db.query(`UPDATE api_keys SET last_used_at = now() - interval '2 minutes' WHERE id = $1`, [id]);
      const backdated = await lastUsed();
      assert.equal((await me({ 'x-api-key': key })).statusCode, 200);
      await new Promise((r) => setTimeout(r, 50));
      assert.deepEqual(await lastUsed(), backdated);
    });

    it('answers the end user for X-Session-Token and Authorization: Session, with the token', async () => {
      const s = await makeSession(t.db, t.orgId, 'alice');
      const forms: Record<string, string>[] = [{ 'x-session-token': s.token }, { authorization: `Session ${s.token}` }];
      for (const headers of forms) {
        const res = await me(headers);
        assert.equal(res.statusCode, 200, res.body);
        assert.equal(res.json().user_id, s.userId);
        assert.equal(res.json().sessionToken, s.token);
      }
    });

    it('with an API key and a session token, the token names the end user (client sends both)', async () => {
      const s = await makeSession(t.db, t.orgId, 'bob');
      const res = await me({ 'x-api-key': t.key, 'x-session-token': s.token });
      assert.equal(res.statusCode, 200);
      assert.equal(res.json().user_id, s.userId);
      assert.match(res.json().message, /api_key \+ session/);
      // An empty X-API-Key beside a valid token is ignored, as the official client sends one.
      const res2 = await me({ 'x-api-key': '', 'x-session-token': s.token });
      assert.equal(res2.json().user_id, s.userId);
    });

    it(
      'rejects expired sessions, sessions of another organization beside a key, ' +
        'and Bearer tokens (no provider yet)',
      async () => {
        const expired = await makeSession(t.db, t.orgId, 'carol', -1000);
        assertEnvelope(await me({ 'x-session-token': expired.token }), 401);
        const other = await makeOrg(t.db);
        const foreign = await makeSession(t.db, other.organizationId, 'dave');
        assertEnvelope(await me({ 'x-api-key': t.key, 'x-session-token': foreign.token }), 401);
        assertEnvelope(await me({ authorization: 'Bearer abc.def.ghi' }), 401);
        assertEnvelope(await me({ 'x-api-key': t.key, authorization: 'Bearer abc.def.ghi' }), 401);
      },
    );

    it('two differing credentials of one kind are a 400 naming both; the same one twice is accepted', async () => {
      const other = await makeKey(t.db, t.orgId);
      const keys = assertEnvelope(await me({ 'x-api-key': t.key, authorization: `APIKey ${other.key}` }), 400);
      assert.match(keys.error, /Conflicting credentials: API key/);
      assert.deepEqual(keys.details, { credentials: ['X-API-Key', 'Authorization: APIKey'] });
      assert.equal((await me({ 'x-api-key': t.key, authorization: `APIKey ${t.key}` })).statusCode, 200);
      const alice = await makeSession(t.db, t.orgId, 'alice-2');
      const bob = await makeSession(t.db, t.orgId, 'bob-2');
      const sessions = assertEnvelope(
        await me({ 'x-session-token': alice.token, authorization: `Session ${bob.token}` }),
        400,
      );
      assert.match(sessions.error, /Conflicting credentials: session token/);
      const same = await me({ 'x-session-token': alice.token, authorization: `Session ${alice.token}` });
      assert.equal(same.json().user_id, alice.userId);
    });

    it('accepts a namespace-scoped key and tolerates client headers', async () => {
      const ns = await makeNamespace(t.db, t.orgId);
      const k = await makeKey(t.db, t.orgId, { namespaceId: ns, permissions: ['read'] });
      const res = await me({
        'x-api-key': k.key,
        'x-client-type': 'papr_plugin',
        'user-agent': 'Papr/JS 2.8.0',
        'x-stainless-retry-count': '0',
      });
      assert.equal(res.statusCode, 200);
    });

    authKit(() => t, {
      label: 'GET /me',
      method: 'GET',
      url: () => '/me',
      otherTenant: async (res) => {
        // /me is about the caller: another organization's key sees its own owner, never ours.
        const ours = (await me({ 'x-api-key': t.key })).json().user_id;
        assert.equal(res.statusCode, 200);
        assert.equal(typeof res.json().user_id, 'string');
        assert.notEqual(res.json().user_id, ours);
      },
    });
  });
}
