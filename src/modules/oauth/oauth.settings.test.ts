import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError, loadConfig } from '../../config.ts';
import { profileFromClaims } from './oauth.identity.ts';
import { clientTypeForRedirect, normaliseClientType, oauthSettings, redirectUriAllowed } from './oauth.settings.ts';

const base = {
  OAUTH_ISSUER: 'https://idp.example.com/',
  OAUTH_CLIENT_ID: 'engram',
  OAUTH_CALLBACK_URL: 'https://engram.example.com/callback',
  OAUTH_REDIRECT_URIS: 'http://127.0.0.1/cb, https://app.example.com/cb',
};

describe('OAuth settings', () => {
  it('OAuth is off without an issuer, and an issuer needs a client, a callback and a redirect allow-list', () => {
    assert.equal(oauthSettings(loadConfig({})), undefined);
    assert.ok(oauthSettings(loadConfig(base)));
    assert.throws(
      () => loadConfig({ OAUTH_ISSUER: 'https://idp.example.com/' }),
      (err: unknown) => {
        assert.ok(err instanceof ConfigError);
        const text = err.problems.join('\n');
        for (const key of ['OAUTH_CLIENT_ID', 'OAUTH_CALLBACK_URL', 'OAUTH_REDIRECT_URIS'])
          assert.match(text, new RegExp(key));
        return true;
      },
    );
    assert.throws(() => loadConfig({ ...base, OAUTH_JWT_SECRET: 'short' }), ConfigError);
    assert.throws(() => loadConfig({ ...base, OAUTH_ISSUER: 'not a url' }), ConfigError);
  });

  it('the browser extension client defaults to the plugin client, with its own allow-list', () => {
    const s = oauthSettings(
      loadConfig({
        ...base,
        OAUTH_CLIENT_SECRET: 'sec',
        OAUTH_BROWSER_EXTENSION_REDIRECT_URIS: 'https://x.chromiumapp.org/',
      }),
    )!;
    assert.equal(s.clients.browser_extension.clientId, 'engram');
    assert.equal(s.clients.browser_extension.clientSecret, 'sec');
    assert.deepEqual(s.clients.svc_plugin.redirectUris, ['http://127.0.0.1/cb', 'https://app.example.com/cb']);
    assert.deepEqual(s.clients.browser_extension.redirectUris, ['https://x.chromiumapp.org/']);
    const own = oauthSettings(
      loadConfig({ ...base, OAUTH_CLIENT_SECRET: 'sec', OAUTH_BROWSER_EXTENSION_CLIENT_ID: 'ext' }),
    )!;
    assert.equal(own.clients.browser_extension.clientId, 'ext');
    assert.equal(own.clients.browser_extension.clientSecret, undefined); // a public client unless given a secret
    assert.equal(s.accessTokenTtlSeconds, 900);
    assert.equal(s.scopes, 'openid profile email');
  });

  it('client types: spec names and the official client alias', () => {
    assert.equal(normaliseClientType('svc_plugin'), 'svc_plugin');
    assert.equal(normaliseClientType('papr_plugin'), 'svc_plugin');
    assert.equal(normaliseClientType('Browser_Extension'), 'browser_extension');
    assert.equal(normaliseClientType('other'), undefined);
    assert.equal(normaliseClientType(undefined), undefined);
  });

  it('redirect URIs match exactly, except loopback entries which match any port', () => {
    const allowed = ['http://127.0.0.1/cb', 'https://app.example.com/cb', 'http://localhost:3000/x?a=1'];
    assert.ok(redirectUriAllowed(allowed, 'https://app.example.com/cb'));
    assert.ok(redirectUriAllowed(allowed, 'http://127.0.0.1:49152/cb'));
    assert.ok(redirectUriAllowed(allowed, 'http://localhost:1234/x?a=1'));
    assert.ok(!redirectUriAllowed(allowed, 'https://app.example.com/cb/'));
    assert.ok(!redirectUriAllowed(allowed, 'https://app.example.com:8443/cb'));
    assert.ok(!redirectUriAllowed(allowed, 'http://app.example.com/cb'));
    assert.ok(!redirectUriAllowed(allowed, 'https://app.example.com/cb#x'));
    assert.ok(!redirectUriAllowed(allowed, 'https://user:pw@app.example.com/cb'));
    assert.ok(!redirectUriAllowed(allowed, 'http://127.0.0.1:49152/cb2'));
    assert.ok(!redirectUriAllowed(allowed, 'http://localhost:1234/x?a=2'));
    assert.ok(!redirectUriAllowed(allowed, 'not a url'));
    const s = oauthSettings(
      loadConfig({ ...base, OAUTH_BROWSER_EXTENSION_REDIRECT_URIS: 'https://x.chromiumapp.org/' }),
    )!;
    assert.equal(clientTypeForRedirect(s, 'https://x.chromiumapp.org/'), 'browser_extension');
    assert.equal(clientTypeForRedirect(s, 'http://127.0.0.1:1/cb'), 'svc_plugin');
    assert.equal(clientTypeForRedirect(s, 'https://evil.example/'), undefined);
  });

  it('profile fields come from the standard claims, with the Entra ID fallbacks', () => {
    assert.deepEqual(profileFromClaims({ name: 'A B', email: 'a@x.io', picture: 'https://p/a.png' }), {
      email: 'a@x.io',
      displayName: 'A B',
      imageUrl: 'https://p/a.png',
    });
    assert.deepEqual(
      profileFromClaims({ given_name: 'Ann', family_name: 'Lee', preferred_username: 'ann@corp.example' }),
      {
        email: 'ann@corp.example',
        displayName: 'Ann Lee',
        imageUrl: null,
      },
    );
    assert.deepEqual(profileFromClaims({ preferred_username: 'ann', email: ' ' }), {
      email: null,
      displayName: 'ann',
      imageUrl: null,
    });
  });
});
