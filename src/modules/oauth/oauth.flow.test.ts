import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { calculatePKCECodeChallenge } from 'openid-client';
import { startApp, testStores, type TestApp } from '../../../test/harness.ts';
import { assertEnvelope } from '../../../test/auth-kit.ts';
import { makeOrg } from '../../../test/factories.ts';
import type { Db, Queryable } from '../../platform/db/index.ts';
import { userDirectory } from '../users/index.ts';
import { resolveLoginUser } from './oauth.identity.ts';
import {
  CALLBACK_URL,
  EXTENSION_REDIRECT,
  JSON_ACCEPT,
  PLUGIN_REDIRECT,
  startOAuthRig,
  type OAuthRig,
} from '../../../test/oauth-kit.ts';

/** The browser half of the flow: /login, the provider, /callback, POST /token (spec 4.1–4.3). */
for (const store of testStores) {
  describe(`OAuth login flow against a real OpenID provider [${store.name}]`, () => {
    let rig: OAuthRig;
    let t: OAuthRig['t'];
    before(async () => {
      rig = await startOAuthRig(store);
      t = rig.t;
    });
    after(() => rig.close());

    const get = (url: string, headers: Record<string, string> = JSON_ACCEPT) => t.app.inject({ url, headers });

    it('GET /login answers JSON to JSON callers and a 302 to browsers, with PKCE S256 and our own state', async () => {
      const q = `redirect_uri=${encodeURIComponent(PLUGIN_REDIRECT)}&state=caller-csrf`;
      const res = await get(`/login?${q}`);
      assert.equal(res.statusCode, 200);
      assert.match(String(res.headers['content-type']), /application\/json/);
      const url = new URL(res.json().redirect_url);
      assert.equal(url.origin, rig.idp.issuer);
      assert.equal(url.searchParams.get('redirect_uri'), CALLBACK_URL);
      assert.equal(url.searchParams.get('client_id'), 'engram');
      assert.equal(url.searchParams.get('code_challenge_method'), 'S256');
      assert.ok(url.searchParams.get('nonce'));
      const state = url.searchParams.get('state')!;
      assert.notEqual(state, 'caller-csrf');
      // The challenge is the S256 of the verifier Engram kept for this state.
      const [row] = await t.db.query<{ code_verifier: string; caller_state: string }>(
        'SELECT code_verifier, caller_state FROM oauth_login_requests WHERE id = $1',
        [state],
      );
      assert.equal(row.caller_state, 'caller-csrf');
      assert.equal(url.searchParams.get('code_challenge'), await calculatePKCECodeChallenge(row.code_verifier));

      const browser = await get(`/login?${q}`, { accept: 'text/html,*/*;q=0.8' });
      assert.equal(browser.statusCode, 302);
      assert.equal(new URL(String(browser.headers.location)).origin, rig.idp.issuer);
    });

    it('GET /login refuses redirect URIs off the allow-list (422 when missing)', async () => {
      for (const bad of [
        'https://evil.example/plugin/callback',
        'http://127.0.0.1:5173/other',
        `${PLUGIN_REDIRECT}#frag`,
      ]) {
        const body = assertEnvelope(await get(`/login?redirect_uri=${encodeURIComponent(bad)}`), 400);
        assert.equal(body.details.error, 'invalid_redirect_uri');
      }
      // The extension's URI belongs to the browser_extension client, not to svc_plugin.
      assertEnvelope(
        await get(`/login?client_type=papr_plugin&redirect_uri=${encodeURIComponent(EXTENSION_REDIRECT)}`),
        400,
      );
      assertEnvelope(await get('/login'), 422);
      assertEnvelope(await get(`/login?client_type=nope&redirect_uri=${encodeURIComponent(PLUGIN_REDIRECT)}`), 422);
      // Loopback entries match any port (RFC 8252).
      assert.equal(
        (await get(`/login?redirect_uri=${encodeURIComponent('http://127.0.0.1:40123/plugin/callback')}`)).statusCode,
        200,
      );
    });

    it(
      'the whole flow: code exchanged with PKCE, ' + 'ID token verified, user created with the provider profile',
      async () => {
        const { code, state } = await rig.login('alice', { state: 'csrf-1' });
        assert.equal(state, 'csrf-1');
        const res = await rig.token({ grant_type: 'authorization_code', code, redirect_uri: PLUGIN_REDIRECT });
        assert.equal(res.statusCode, 200, res.body);
        const tok = res.json();
        assert.equal(tok.token_type, 'Bearer');
        assert.equal(tok.expires_in, 900);
        assert.equal(tok.user_id, 'alice');
        assert.match(tok.scope, /openid/);
        assert.match(tok.refresh_token, /^ert_/);
        assert.match(tok.session_token, /^st_/);
        assert.equal(typeof tok.message, 'string');
        const me = await get('/me', { authorization: `Bearer ${tok.access_token}`, 'x-client-type': 'papr_plugin' });
        assert.equal(me.statusCode, 200, me.body);
        assert.equal(me.json().displayName, 'Alice Liddell');
        assert.equal(me.json().email, 'alice@example.com');
        assert.equal(me.json().imageUrl, 'https://img.example.com/alice.png');
        assert.equal(me.json().sessionToken, undefined); // only when the caller used the session token
        assert.notEqual(me.json().user_id, 'alice'); // the internal id (spec 2.11)
        const [user] = await t.db.query('SELECT organization_id, external_id FROM users WHERE id = $1', [
          me.json().user_id,
        ]);
        assert.equal(user.organization_id, t.orgId); // no org claim: OAUTH_DEFAULT_ORGANIZATION
        // A second login is the same internal user.
        const again = await rig.tokens('alice');
        const me2 = await get('/me', { authorization: `Bearer ${again.access_token}` });
        assert.equal(me2.json().user_id, me.json().user_id);
      },
    );

    it('GET /callback in a browser redirects to the caller with code and its state', async () => {
      const login = await get(`/login?state=s%20p&redirect_uri=${encodeURIComponent(PLUGIN_REDIRECT)}`);
      const cb = await rig.idp.authorize(login.json().redirect_url, 'alice');
      assert.ok(cb.searchParams.get('iss'), 'the provider sends iss (RFC 9207), checked at the exchange');
      const res = await get(`/callback${cb.search}`, {});
      assert.equal(res.statusCode, 302);
      const back = new URL(String(res.headers.location));
      assert.equal(back.origin + back.pathname, PLUGIN_REDIRECT);
      assert.equal(back.searchParams.get('state'), 's p');
      assert.equal(back.searchParams.get('code'), cb.searchParams.get('code'));
      const tok = await rig.token({
        grant_type: 'authorization_code',
        code: back.searchParams.get('code')!,
        redirect_uri: PLUGIN_REDIRECT,
      });
      assert.equal(tok.statusCode, 200, tok.body);
    });

    it('GET /callback rejects an unknown state and a state used twice', async () => {
      const { callback } = await rig.login('alice');
      const replay = await get(`/callback${callback.search}`);
      assert.equal(assertEnvelope(replay, 400).details.error, 'invalid_state');
      const forged = new URLSearchParams(callback.search);
      forged.set('state', 'attacker-state');
      assertEnvelope(await get(`/callback?${forged}`), 400);
      assertEnvelope(await get('/callback?state=x'), 422); // neither code nor error
    });

    it('a replayed code fails and revokes the login it produced', async () => {
      const { code } = await rig.login('alice');
      const first = await rig.token({ grant_type: 'authorization_code', code, redirect_uri: PLUGIN_REDIRECT });
      assert.equal(first.statusCode, 200);
      const second = await rig.token({ grant_type: 'authorization_code', code, redirect_uri: PLUGIN_REDIRECT });
      assert.equal(assertEnvelope(second, 400).details.error, 'invalid_grant');
      assertEnvelope(await get('/me', { authorization: `Bearer ${first.json().access_token}` }), 401);
      assertEnvelope(await get('/me', { 'x-session-token': first.json().session_token }), 401);
      assertEnvelope(await rig.token({ grant_type: 'refresh_token', refresh_token: first.json().refresh_token }), 400);
      assertEnvelope(
        await rig.token({ grant_type: 'authorization_code', code: 'never-issued', redirect_uri: PLUGIN_REDIRECT }),
        400,
      );
    });

    it('POST /token needs the redirect_uri given to /login', async () => {
      const { code } = await rig.login('alice');
      const wrong = await rig.token({
        grant_type: 'authorization_code',
        code,
        redirect_uri: 'http://127.0.0.1:5173/elsewhere',
      });
      assert.equal(assertEnvelope(wrong, 400).details.error, 'invalid_grant');
      const right = await rig.token({ grant_type: 'authorization_code', code, redirect_uri: PLUGIN_REDIRECT });
      assert.equal(right.statusCode, 200, right.body);
    });

    it('the exchange depends on the PKCE verifier: a wrong one is refused by the provider', async () => {
      const { code, redirectUrl } = await rig.login('alice');
      const state = new URL(redirectUrl).searchParams.get('state');
      await t.db.query("UPDATE oauth_login_requests SET code_verifier = repeat('x', 64) WHERE id = $1", [state]);
      const res = await rig.token({ grant_type: 'authorization_code', code, redirect_uri: PLUGIN_REDIRECT });
      assert.equal(assertEnvelope(res, 400).details.provider_error, 'invalid_grant');
    });

    it('POST /token: body-less is 422, form bodies work, unknown grants and missing fields are 422', async () => {
      assertEnvelope(await t.app.inject({ method: 'POST', url: '/token' }), 422);
      assertEnvelope(await rig.token({ grant_type: 'password' }), 422);
      assertEnvelope(await rig.token({ grant_type: 'authorization_code', code: 'x' }), 422);
      assertEnvelope(await rig.token({ grant_type: 'refresh_token' }), 422);
      const { code } = await rig.login('alice');
      const form = await t.app.inject({
        method: 'POST',
        url: '/token',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({
          grant_type: 'authorization_code',
          code,
          redirect_uri: PLUGIN_REDIRECT,
          client_type: 'papr_plugin',
        }).toString(),
      });
      assert.equal(form.statusCode, 200, form.body);
      assert.equal(form.json().user_id, 'alice');
    });

    it('maps the org claim to an organization, and refuses an organization that does not exist', async () => {
      const bob = await rig.tokens('bob');
      const me = await get('/me', { authorization: `Bearer ${bob.access_token}` });
      const [user] = await t.db.query('SELECT organization_id FROM users WHERE id = $1', [me.json().user_id]);
      assert.equal(user.organization_id, rig.acmeOrgId);
      const { code } = await rig.login('eve');
      assertEnvelope(await rig.token({ grant_type: 'authorization_code', code, redirect_uri: PLUGIN_REDIRECT }), 403);
    });

    it('two concurrent first logins of one person end in one user, the same for both', async () => {
      rig.idp.accounts.set('dana', { sub: 'dana', email: 'dana@example.com', name: 'Dana' });
      // Both codes first, then both exchanges at once: their transactions overlap.
      const codes = [(await rig.login('dana')).code, (await rig.login('dana')).code];
      const answers = await Promise.all(
        codes.map((code) => rig.token({ grant_type: 'authorization_code', code, redirect_uri: PLUGIN_REDIRECT })),
      );
      const ids: string[] = [];
      for (const res of answers) {
        assert.equal(res.statusCode, 200, res.body);
        const me = await get('/me', { authorization: `Bearer ${res.json().access_token}` });
        assert.equal(me.statusCode, 200, me.body);
        ids.push(me.json().user_id);
      }
      assert.equal(ids[0], ids[1]);
      const made = await t.db.query('SELECT id FROM users WHERE email = $1', ['dana@example.com']);
      assert.deepEqual(
        made.map((u: any) => u.id),
        [ids[0]],
        'no second, unlinked user',
      );
    });

    it('browser_extension uses its own provider client and allow-list', async () => {
      const { redirectUrl } = await rig.login('alice', { redirectUri: EXTENSION_REDIRECT });
      assert.equal(new URL(redirectUrl).searchParams.get('client_id'), 'engram-ext');
      const tok = await rig.tokens('alice', { redirectUri: EXTENSION_REDIRECT, clientType: 'browser_extension' });
      assert.equal((await get('/me', { authorization: `Bearer ${tok.access_token}` })).statusCode, 200);
    });

    it('a refusal at the provider comes back as an error, JSON or redirect', async () => {
      const { callback } = await rig.login('alice', { deny: true, state: 'd1' });
      assert.equal(callback.searchParams.get('error'), 'access_denied');
      const res = await get(`/callback${callback.search}`, {});
      assert.equal(res.statusCode, 302);
      const back = new URL(String(res.headers.location));
      assert.equal(back.searchParams.get('error'), 'access_denied');
      assert.equal(back.searchParams.get('state'), 'd1');
      const again = await rig.login('alice', { deny: true });
      assert.equal(assertEnvelope(await get(`/callback${again.callback.search}`), 400).details.error, 'access_denied');
    });
  });

  // resolveLoginUser against another first login of the same person that commits between two
  // of its statements. The other login runs on the same connection, right after the chosen
  // statement: what a concurrent transaction committing there looks like under READ COMMITTED.
  describe(`first logins racing [${store.name}]`, () => {
    let db: Db;
    let organizationId: string;
    const issuer = 'https://idp.example.com';
    before(async () => {
      db = await store.open();
      organizationId = (await makeOrg(db)).organizationId;
    });
    after(() => db.close());

    const login = (tx: Queryable, subject: string) =>
      resolveLoginUser(userDirectory, tx, {
        organizationId,
        issuer,
        subject,
        profile: { email: `${subject}@example.com`, displayName: subject, imageUrl: null },
      });
    /** `tx`, running each hook once, right after the first statement its `match` accepts. */
    const hooked = (tx: Queryable, hooks: { match: RegExp; run: () => Promise<unknown> }[]): Queryable => ({
      exec: (sql) => tx.exec(sql),
      query: async <T extends object>(sql: string, params?: unknown[]) => {
        const rows = await tx.query<T>(sql, params);
        const i = hooks.findIndex((h) => h.match.test(sql));
        if (i >= 0) await hooks.splice(i, 1)[0].run();
        return rows;
      },
    });
    /** The users made for `subject`, and the one its identity links to. */
    const outcome = async (subject: string) => ({
      made: (await db.query<{ id: string }>('SELECT id FROM users WHERE email = $1', [`${subject}@example.com`])).map(
        (u) => u.id,
      ),
      linked: (
        await db.query<{ user_id: string }>(
          'SELECT user_id FROM oauth_identities WHERE organization_id = $1 AND issuer = $2 AND subject = $3',
          [organizationId, issuer, subject],
        )
      ).map((r) => r.user_id),
    });

    it('the other login links the person right after our look-up: its user, and no unlinked user left', async () => {
      let theirs: string | undefined;
      const ours = await db.transaction((tx) =>
        login(hooked(tx, [{ match: /oauth_identities/, run: async () => (theirs = await login(tx, 'ivy')) }]), 'ivy'),
      );
      assert.ok(theirs);
      assert.equal(ours, theirs);
      assert.deepEqual(await outcome('ivy'), { made: [ours], linked: [ours] });
    });

    it('and that user is deleted before we read the link again: a user of our own, never none', async () => {
      let theirs: string | undefined;
      const ours = await db.transaction((tx) =>
        login(
          hooked(tx, [
            { match: /oauth_identities/, run: async () => (theirs = await login(tx, 'jay')) },
            // Where the insert of our link found theirs: their user goes (the link with it).
            { match: /INSERT INTO oauth_identities/, run: () => tx.query('DELETE FROM users WHERE id = $1', [theirs]) },
          ]),
          'jay',
        ),
      );
      assert.equal(typeof ours, 'string');
      const { made, linked } = await outcome('jay');
      assert.deepEqual(linked, [ours]);
      assert.ok(made.includes(ours), 'the user returned exists');
    });

    it('concurrent first logins in their own transactions: one user, linked, for both (20 rounds)', async () => {
      for (let round = 0; round < 20; round++) {
        const subject = `kai-${round}`;
        const ids = await Promise.all([0, 1].map(() => db.transaction((tx) => login(tx, subject))));
        assert.equal(ids[0], ids[1], `round ${round}`);
        assert.deepEqual(await outcome(subject), { made: [ids[0]], linked: [ids[0]] }, `round ${round}`);
      }
    });
  });

  describe(`OAuth disabled (no OAUTH_ISSUER) [${store.name}]`, () => {
    let t: TestApp;
    before(async () => {
      t = await startApp(store);
    });
    after(() => t.close());

    it('the login paths answer 404 in the envelope and Bearer tokens are refused', async () => {
      for (const [method, url] of [
        ['GET', '/login?redirect_uri=http://x'],
        ['GET', '/callback'],
        ['POST', '/token'],
        ['GET', '/logout'],
      ] as const) {
        assert.match(assertEnvelope(await t.app.inject({ method, url }), 404).error, /OAUTH_ISSUER/);
      }
      assertEnvelope(await t.app.inject({ url: '/me', headers: { authorization: 'Bearer a.b.c' } }), 401);
    });
  });
}
