import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { startApp, type TestApp, type TestStore } from './harness.ts';
import { makeOrg } from './factories.ts';
import { startTestProvider, type TestProvider } from './oidc-provider.ts';

/** Engram's callback as registered at the provider; Engram never listens there in tests (inject). */
export const CALLBACK_URL = 'http://127.0.0.1:1/callback';
/** Allow-listed as `http://127.0.0.1/plugin/callback`: loopback, so any port matches. */
export const PLUGIN_REDIRECT = 'http://127.0.0.1:5173/plugin/callback';
export const EXTENSION_REDIRECT = 'https://abcdefghijklmnop.chromiumapp.org/';
export const RETURN_TO = 'https://app.example.com/logged-out';
export const JSON_ACCEPT = { accept: 'application/json' };

export interface OAuthRig {
  t: TestApp;
  idp: TestProvider;
  /** An organization named `acme` (the `org` claim of bob). */
  acmeOrgId: string;
  /** GET /login → provider (as `sub`) → GET /callback, all answering JSON. */
  login(
    sub: string,
    o?: { state?: string; redirectUri?: string; clientType?: string; deny?: boolean },
  ): Promise<{
    redirectUrl: string;
    callback: URL;
    code: string;
    state: string;
  }>;
  /** A whole login ending in POST /token; returns its JSON. */
  tokens(sub: string, o?: { redirectUri?: string; clientType?: string }): Promise<Record<string, any>>;
  token(payload: Record<string, string>): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

/** A test provider with alice (default org), bob (org claim "acme") and eve (unknown org), and an app using it. */
export async function startOAuthRig(
  store: TestStore,
  opts: { env?: Record<string, string>; beforeReady?: (app: FastifyInstance) => void } = {},
): Promise<OAuthRig> {
  const idp = await startTestProvider({
    callbackUrl: CALLBACK_URL,
    postLogoutRedirectUris: [RETURN_TO],
    clients: [
      { client_id: 'engram', client_secret: 'engram-secret' },
      { client_id: 'engram-ext', client_secret: 'engram-ext-secret' },
    ],
  });
  idp.accounts.set('alice', {
    sub: 'alice',
    email: 'alice@example.com',
    name: 'Alice Liddell',
    picture: 'https://img.example.com/alice.png',
  });
  idp.accounts.set('bob', { sub: 'bob', email: 'bob@acme.example', name: 'Bob', org: 'acme' });
  idp.accounts.set('eve', { sub: 'eve', email: 'eve@example.com', name: 'Eve', org: 'no-such-org' });
  const t = await startApp(store, {
    beforeReady: opts.beforeReady,
    env: {
      OAUTH_ISSUER: idp.issuer,
      OAUTH_ALLOW_INSECURE_ISSUER: 'true',
      OAUTH_CALLBACK_URL: CALLBACK_URL,
      OAUTH_CLIENT_ID: 'engram',
      OAUTH_CLIENT_SECRET: 'engram-secret',
      OAUTH_REDIRECT_URIS: 'http://127.0.0.1/plugin/callback',
      OAUTH_BROWSER_EXTENSION_CLIENT_ID: 'engram-ext',
      OAUTH_BROWSER_EXTENSION_CLIENT_SECRET: 'engram-ext-secret',
      OAUTH_BROWSER_EXTENSION_REDIRECT_URIS: EXTENSION_REDIRECT,
      OAUTH_SCOPES: 'openid profile email org',
      OAUTH_ORG_CLAIM: 'org',
      OAUTH_DEFAULT_ORGANIZATION: 'default',
      ...opts.env,
    },
  });
  const acme = await makeOrg(t.db, 'acme');

  const token = (payload: Record<string, string>) => t.app.inject({ method: 'POST', url: '/token', payload });
  const rig: OAuthRig = {
    t,
    idp,
    acmeOrgId: acme.organizationId,
    async login(sub, o = {}) {
      const query = new URLSearchParams({ redirect_uri: o.redirectUri ?? PLUGIN_REDIRECT });
      if (o.state !== undefined) query.set('state', o.state);
      if (o.clientType) query.set('client_type', o.clientType);
      const res = await t.app.inject({ url: `/login?${query}`, headers: JSON_ACCEPT });
      if (res.statusCode !== 200) throw new Error(`/login answered ${res.statusCode}: ${res.body}`);
      const redirectUrl: string = res.json().redirect_url;
      const callback = await idp.authorize(redirectUrl, sub, { deny: o.deny });
      if (o.deny) return { redirectUrl, callback, code: '', state: '' };
      const cb = await t.app.inject({ url: `/callback${callback.search}`, headers: JSON_ACCEPT });
      if (cb.statusCode !== 200) throw new Error(`/callback answered ${cb.statusCode}: ${cb.body}`);
      return { redirectUrl, callback, code: cb.json().code, state: cb.json().state };
    },
    async tokens(sub, o = {}) {
      const { code } = await rig.login(sub, o);
      const res = await token({
        grant_type: 'authorization_code',
        code,
        redirect_uri: o.redirectUri ?? PLUGIN_REDIRECT,
      });
      if (res.statusCode !== 200) throw new Error(`/token answered ${res.statusCode}: ${res.body}`);
      return res.json();
    },
    token,
    async close() {
      await t.close();
      await idp.close();
    },
  };
  return rig;
}
