/**
 * The official client's auth methods (login, callback, token, me, logout), unmodified,
 * against a listening server configured with the loopback OpenID provider.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import Papr from '@papr/memory';
import { testStores } from './harness.ts';
import { PLUGIN_REDIRECT, RETURN_TO, startOAuthRig, type OAuthRig } from './oauth-kit.ts';

for (const store of testStores) {
  describe(`official client: login flow [${store.name}]`, () => {
    let rig: OAuthRig;
    let baseURL: string;
    before(async () => {
      rig = await startOAuthRig(store);
      baseURL = await rig.t.app.listen({ port: 0, host: '127.0.0.1' });
    });
    after(() => rig.close());

    it('login → provider → callback → token → me → logout', async () => {
      const anon = new Papr({ xAPIKey: '', baseURL, maxRetries: 0 });
      const login = await anon.login.initiate({ query: { redirect_uri: PLUGIN_REDIRECT, state: 'csrf-123' } });
      assert.match(login.redirect_url!, /^http:\/\/127\.0\.0\.1:\d+\//);
      const providerRedirect = await rig.idp.authorize(login.redirect_url!, 'alice');
      const cb = await anon.callback.process({ query: Object.fromEntries(providerRedirect.searchParams) });
      assert.equal(cb.state, 'csrf-123');
      assert.ok(cb.code);

      const tokens = await anon.token.create({
        body: { grant_type: 'authorization_code', code: cb.code!, redirect_uri: PLUGIN_REDIRECT },
      });
      assert.equal(tokens.token_type, 'Bearer');
      assert.ok(tokens.expires_in > 0);
      assert.equal(tokens.user_id, 'alice');

      const user = new Papr({ xAPIKey: '', bearerToken: tokens.access_token, baseURL, maxRetries: 0 });
      const me = await user.me.retrieve();
      assert.equal(me.email, 'alice@example.com');
      assert.equal(me.displayName, 'Alice Liddell');
      assert.ok(me.user_id);
      const mem = await user.memory.add({ content: 'Alice logged in through the client.' });
      assert.equal(mem.status, 'success');

      const refreshed = await anon.token.create({
        body: { grant_type: 'refresh_token', refresh_token: tokens.refresh_token! },
      });
      assert.notEqual(refreshed.refresh_token, tokens.refresh_token);

      const out = await new Papr({
        xAPIKey: '',
        bearerToken: refreshed.access_token,
        baseURL,
        maxRetries: 0,
      }).logout.perform({ query: { returnTo: RETURN_TO } });
      assert.ok(out.logout_url);
      await assert.rejects(
        new Papr({ xAPIKey: '', bearerToken: refreshed.access_token, baseURL, maxRetries: 0 }).me.retrieve(),
        (e: any) => e.status === 401,
      );
      // A body-less POST /token (the client sends none without options) is a 422, not a crash.
      await assert.rejects(anon.token.create(), (e: any) => e.status === 422);
    });
  });
}
