import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { decodeJwt } from 'jose';
import { testStores } from '../../../test/harness.ts';
import { assertEnvelope, authKit } from '../../../test/auth-kit.ts';
import { makeKey, makeOrg, makeRevokedKey } from '../../../test/factories.ts';
import { JSON_ACCEPT, RETURN_TO, startOAuthRig, type OAuthRig } from '../../../test/oauth-kit.ts';
import { createTokenSigner } from './index.ts';

/** A /v1 route like any other: authenticated by the global hook, answering who the caller is. */
function whoami(app: FastifyInstance) {
  app.get('/v1/_whoami', async (req) => ({
    organizationId: req.actor.organizationId,
    userId: req.actor.userId,
    methods: req.actor.methods,
  }));
}

const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');

/** Bearer tokens on every route, refresh rotation and reuse detection, logout (spec 4.3–4.5, §5). */
for (const store of testStores) {
  describe(`Bearer tokens, refresh and logout [${store.name}]`, () => {
    let rig: OAuthRig;
    let t: OAuthRig['t'];
    let alice: Record<string, any>;
    before(async () => {
      rig = await startOAuthRig(store, { beforeReady: whoami });
      t = rig.t;
      alice = await rig.tokens('alice');
    });
    after(() => rig.close());

    const call = (url: string, headers: Record<string, string>) => t.app.inject({ url, headers });
    const bearer = (token: string, extra: Record<string, string> = {}) => ({
      authorization: `Bearer ${token}`,
      ...extra,
    });
    const refresh = (refresh_token: string) => rig.token({ grant_type: 'refresh_token', refresh_token });

    it('a /v1 route accepts the Bearer token alone and names its user and organization', async () => {
      const res = await call('/v1/_whoami', bearer(alice.access_token));
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json().organizationId, t.orgId);
      assert.deepEqual(res.json().methods, ['bearer']);
      assert.equal(res.json().userId, decodeJwt(alice.access_token).sub);
    });

    it('with X-API-Key the token names the end user; a key of another organization is 401', async () => {
      const both = await call('/v1/_whoami', bearer(alice.access_token, { 'x-api-key': t.key }));
      assert.equal(both.statusCode, 200);
      assert.deepEqual(both.json().methods, ['api_key', 'bearer']);
      assert.equal(both.json().userId, decodeJwt(alice.access_token).sub);
      const empty = await call('/v1/_whoami', bearer(alice.access_token, { 'x-api-key': '' }));
      assert.equal(empty.statusCode, 200);
      const other = await makeOrg(t.db);
      assertEnvelope(await call('/v1/_whoami', bearer(alice.access_token, { 'x-api-key': other.key })), 401);
      assertEnvelope(await call('/me', bearer(alice.access_token, { 'x-api-key': other.key })), 401);
      const revoked = await makeRevokedKey(t.db, t.orgId);
      assertEnvelope(await call('/v1/_whoami', bearer(alice.access_token, { 'x-api-key': revoked.key })), 401);
      // bob belongs to acme: his token beside our organization's key is refused too.
      const bob = await rig.tokens('bob');
      assertEnvelope(await call('/v1/_whoami', bearer(bob.access_token, { 'x-api-key': t.key })), 401);
      const acmeKey = await makeKey(t.db, rig.acmeOrgId);
      assert.equal((await call('/v1/_whoami', bearer(bob.access_token, { 'x-api-key': acmeKey.key }))).statusCode, 200);
    });

    it(
      'memory routes accept the Bearer token: ' + 'the logged-in person writes and searches their own memories',
      async () => {
        const tok = bearer(alice.access_token);
        const add = await t.app.inject({
          method: 'POST',
          url: '/v1/memory',
          headers: tok,
          payload: { content: 'Alice keeps two beehives.' },
        });
        assert.equal(add.statusCode, 200, add.body);
        const id = add.json().data[0].memoryId;
        const found = await t.app.inject({
          method: 'POST',
          url: '/v1/memory/search',
          headers: tok,
          payload: { query: 'beehives' },
        });
        assert.deepEqual(
          found.json().data.memories.map((m: any) => m.id),
          [id],
        );
        assert.equal(found.json().data.memories[0].user_id, decodeJwt(alice.access_token).sub);
        assert.equal((await t.app.inject({ url: `/v1/memory/${id}`, headers: tok })).statusCode, 200);
        // Another person's token in the same organization does not see Alice's memories by default.
        const bobInDefault = await makeKey(t.db, t.orgId);
        const keyOnly = await t.app.inject({
          method: 'POST',
          url: '/v1/memory/search',
          headers: { 'x-api-key': bobInDefault.key },
          payload: { query: 'beehives', external_user_id: 'someone' },
        });
        assert.deepEqual(keyOnly.json().data.memories, []);
        const [h, p, sig] = alice.access_token.split('.');
        const tampered = `${h}.${p}.${sig.slice(0, -2)}${sig.endsWith('A') ? 'BB' : 'AA'}`;
        assertEnvelope(
          await t.app.inject({
            method: 'POST',
            url: '/v1/memory/search',
            headers: bearer(tampered),
            payload: { query: 'beehives' },
          }),
          401,
        );
        assertEnvelope(await t.app.inject({ url: `/v1/memory/${id}`, headers: bearer(tampered) }), 401);
        assertEnvelope(
          await t.app.inject({ method: 'DELETE', url: `/v1/memory/${id}`, headers: bearer('not-a-jwt') }),
          401,
        );
      },
    );

    it('expired, tampered, foreign-key and unsigned tokens are 401 in the envelope', async () => {
      const claims = decodeJwt(alice.access_token) as Record<string, any>;
      const signer = createTokenSigner(t.db, { ttlSeconds: 900 });
      const live = {
        userId: claims.sub,
        organizationId: claims.org,
        sessionId: claims.sid,
        clientType: 'svc_plugin',
        scope: claims.scope,
      };
      const expired = await signer.issue(live, { now: new Date(Date.now() - 3600_000) });
      assert.match(assertEnvelope(await call('/me', bearer(expired.token)), 401).error, /expired/);
      // The same signer with a current time is accepted: the key is the store's shared key.
      assert.equal((await call('/me', bearer((await signer.issue(live)).token))).statusCode, 200);

      const [header, payload, sig] = alice.access_token.split('.');
      const otherOrg = b64({ ...claims, org: (await makeOrg(t.db)).organizationId });
      const flipped = sig.slice(0, 10) + (sig[10] === 'A' ? 'B' : 'A') + sig.slice(11);
      const unsigned = `${b64({ alg: 'none', typ: 'at+jwt', kid: 'k1' })}.${payload}.`;
      const foreign = await createTokenSigner(t.db, {
        secret: 'another-deployment-secret-0123456789',
        ttlSeconds: 900,
      }).issue(live);
      for (const token of [
        `${header}.${otherOrg}.${sig}`,
        `${header}.${payload}.${flipped}`,
        unsigned,
        foreign.token,
        'abc',
        `${header}.${payload}`,
      ]) {
        assertEnvelope(await call('/me', bearer(token)), 401);
        assertEnvelope(await call('/v1/_whoami', bearer(token, { 'x-api-key': t.key })), 401);
      }
    });

    it('the login session token works as X-Session-Token and Authorization: Session', async () => {
      const forms: Record<string, string>[] = [
        { 'x-session-token': alice.session_token },
        { authorization: `Session ${alice.session_token}` },
      ];
      for (const headers of forms) {
        const me = await call('/me', headers);
        assert.equal(me.statusCode, 200);
        assert.equal(me.json().sessionToken, alice.session_token);
        assert.equal(me.json().email, 'alice@example.com');
      }
      // Beside a Bearer token (which wins) an unverified X-Session-Token is never echoed.
      const mixed = await call('/me', bearer(alice.access_token, { 'x-session-token': 'st_bogus' }));
      assert.equal(mixed.statusCode, 200);
      assert.equal(mixed.json().sessionToken, undefined);
      const v1 = await call('/v1/_whoami', { 'x-session-token': alice.session_token, 'x-api-key': t.key });
      assert.deepEqual(v1.json().methods, ['api_key', 'session']);
    });

    it('refresh tokens rotate; reusing one revokes the whole login', async () => {
      const login = await rig.tokens('alice');
      const r1 = await refresh(login.refresh_token);
      assert.equal(r1.statusCode, 200, r1.body);
      const next = r1.json();
      assert.notEqual(next.refresh_token, login.refresh_token);
      assert.equal(next.token_type, 'Bearer');
      assert.equal(next.user_id, 'alice');
      assert.equal(next.session_token, undefined);
      assert.equal((await call('/me', bearer(next.access_token))).statusCode, 200);

      const reuse = await refresh(login.refresh_token);
      assert.match(assertEnvelope(reuse, 400).error, /reuse/);
      assertEnvelope(await refresh(next.refresh_token), 400);
      assertEnvelope(await call('/me', bearer(next.access_token)), 401);
      assertEnvelope(await call('/me', bearer(login.access_token)), 401);
      assertEnvelope(await call('/me', { 'x-session-token': login.session_token }), 401);
      // Other logins of the same person are untouched.
      assert.equal((await call('/me', bearer(alice.access_token))).statusCode, 200);
    });

    it('two concurrent uses of one refresh token: one wins, the other is reuse', async () => {
      const login = await rig.tokens('alice');
      const results = await Promise.all([refresh(login.refresh_token), refresh(login.refresh_token)]);
      assert.deepEqual(results.map((r) => r.statusCode).sort(), [200, 400]);
      const winner = results.find((r) => r.statusCode === 200)!.json();
      assertEnvelope(await refresh(winner.refresh_token), 400);
    });

    it('refresh accepts a form body; unknown refresh tokens are invalid_grant', async () => {
      const login = await rig.tokens('alice');
      const form = await t.app.inject({
        method: 'POST',
        url: '/token',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: `grant_type=refresh_token&refresh_token=${encodeURIComponent(login.refresh_token)}`,
      });
      assert.equal(form.statusCode, 200, form.body);
      assert.equal(assertEnvelope(await refresh('ert_unknown'), 400).details.error, 'invalid_grant');
    });

    it("GET /logout revokes the caller's session and refresh tokens and points at the provider", async () => {
      const login = await rig.tokens('alice');
      const res = await call(`/logout?returnTo=${encodeURIComponent(RETURN_TO)}`, {
        ...JSON_ACCEPT,
        ...bearer(login.access_token),
      });
      assert.equal(res.statusCode, 200);
      const url = new URL(res.json().logout_url);
      assert.equal(`${url.origin}${url.pathname}`, `${rig.idp.issuer}/session/end`);
      assert.equal(url.searchParams.get('post_logout_redirect_uri'), RETURN_TO);
      assert.equal(url.searchParams.get('client_id'), 'engram');
      assert.match(res.json().message, /revoked/);
      assertEnvelope(await call('/me', bearer(login.access_token)), 401);
      assertEnvelope(await call('/v1/_whoami', bearer(login.access_token, { 'x-api-key': t.key })), 401);
      assertEnvelope(await call('/me', { 'x-session-token': login.session_token }), 401);
      assertEnvelope(await refresh(login.refresh_token), 400);
      assert.equal((await call('/me', bearer(alice.access_token))).statusCode, 200);
    });

    it('GET /logout: 302 for browsers, by session token, with an expired token, and without credentials', async () => {
      const a = await rig.tokens('alice');
      const browser = await call('/logout?client_type=browser_extension', { 'x-session-token': a.session_token });
      assert.equal(browser.statusCode, 302);
      assert.equal(new URL(String(browser.headers.location)).searchParams.get('client_id'), 'engram-ext');
      assertEnvelope(await call('/me', bearer(a.access_token)), 401);

      const b = await rig.tokens('alice');
      const c = decodeJwt(b.access_token) as Record<string, any>;
      const stale = await createTokenSigner(t.db, { ttlSeconds: 60 }).issue(
        { userId: c.sub, organizationId: c.org, sessionId: c.sid, clientType: 'svc_plugin', scope: c.scope },
        { now: new Date(Date.now() - 3600_000) },
      );
      assert.equal((await call('/logout', { ...JSON_ACCEPT, ...bearer(stale.token) })).statusCode, 200);
      assertEnvelope(await refresh(b.refresh_token), 400);

      for (const headers of [JSON_ACCEPT, { ...JSON_ACCEPT, ...bearer('garbage') }]) {
        const anon = await call('/logout', headers);
        assert.equal(anon.statusCode, 200);
        assert.match(anon.json().message, /No session/);
      }
    });

    authKit(() => t, {
      label: 'GET /v1/_whoami with OAuth enabled',
      method: 'GET',
      url: () => '/v1/_whoami',
      otherTenant: (res) => {
        assert.equal(res.statusCode, 200);
        assert.notEqual(res.json().organizationId, t.orgId);
      },
    });
  });
}
