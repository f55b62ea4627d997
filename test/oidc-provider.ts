import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair } from 'jose';
import Provider from 'oidc-provider';

/** A person at the test identity provider; every field but `sub` becomes a claim. */
export interface TestAccount {
  sub: string;
  email?: string;
  name?: string;
  picture?: string;
  org?: string | string[];
}

export interface TestClient {
  client_id: string;
  client_secret: string;
}

export interface TestProvider {
  /** `http://127.0.0.1:<port>` */
  issuer: string;
  accounts: Map<string, TestAccount>;
  /**
   * Play the browser: follow `authorizationUrl` through the provider's login and consent
   * (auto-approved as `sub`, or refused with `deny`) until it redirects to `callbackUrl`,
   * and return that redirect.
   */
  authorize(authorizationUrl: string, sub: string, opts?: { deny?: boolean }): Promise<URL>;
  close(): Promise<void>;
}

/**
 * A real OpenID Connect provider (`oidc-provider`) on loopback, with PKCE required, the
 * clients given, and interactions answered programmatically (`authorize`), or, for a real
 * browser, by a plain HTML login form.
 */
export async function startTestProvider(opts: {
  callbackUrl: string;
  postLogoutRedirectUris: string[];
  clients: TestClient[];
}): Promise<TestProvider> {
  let handler: http.RequestListener = (_req, res) => res.end();
  const server = http.createServer((req, res) => handler(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const accounts = new Map<string, TestAccount>();
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const provider = new Provider(issuer, {
    clients: opts.clients.map((c) => ({
      ...c,
      redirect_uris: [opts.callbackUrl],
      post_logout_redirect_uris: opts.postLogoutRedirectUris,
      grant_types: ['authorization_code'],
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_post',
    })),
    jwks: { keys: [{ ...(await exportJWK(privateKey)), kid: 'test-rs256', alg: 'RS256', use: 'sig' }] },
    cookies: { keys: ['test-cookie-signing-key'] },
    pkce: { required: () => true },
    ttl: { AccessToken: 600, AuthorizationCode: 60, IdToken: 600, Interaction: 600, Session: 3600, Grant: 3600 },
    features: { devInteractions: { enabled: false }, rpInitiatedLogout: { enabled: true } },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'picture'], org: ['org'] },
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    findAccount: async (_ctx: unknown, id: string) => {
      const account = accounts.get(id);
      if (!account) return undefined;
      return { accountId: id, claims: async () => ({ ...account, email_verified: true }) };
    },
  });
  provider.on('server_error', (_ctx: unknown, err: Error) => console.error('oidc-provider server_error', err));

  /** Who the next interaction logs in, keyed by interaction uid. */
  const pending = new Map<string, { sub: string; deny: boolean }>();
  const callback = provider.callback();
  handler = (req, res) => {
    const m = /^\/interaction\/([^/?]+)/.exec(req.url ?? '');
    if (!m) return callback(req, res);
    void (async () => {
      const details = await provider.interactionDetails(req, res);
      const who = pending.get('next') ?? (await loginForm(req, res, details.prompt.name));
      if (!who) return; // the form was shown; its POST comes back here
      if (who.deny) {
        return provider.interactionFinished(
          req,
          res,
          { error: 'access_denied', error_description: 'The user refused' },
          { mergeWithLastSubmission: false },
        );
      }
      if (details.prompt.name === 'login') {
        return provider.interactionFinished(
          req,
          res,
          { login: { accountId: who.sub } },
          { mergeWithLastSubmission: false },
        );
      }
      const grant = details.grantId
        ? await provider.Grant.find(details.grantId)
        : new provider.Grant({ accountId: details.session.accountId, clientId: details.params.client_id });
      grant.addOIDCScope(details.params.scope);
      const grantId = await grant.save();
      return provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
    })().catch((err) => {
      res.statusCode = 500;
      res.end(String(err));
    });
  };

  /**
   * A browser (no `authorize` call named the person): the login prompt is an HTML form asking
   * for the account, posted back to the same address; consent is then granted without a page.
   */
  async function loginForm(req: http.IncomingMessage, res: http.ServerResponse, prompt: string) {
    if (prompt !== 'login') return { sub: '', deny: false };
    if (req.method === 'POST') {
      let body = '';
      for await (const chunk of req) body += chunk;
      const sub = new URLSearchParams(body).get('username') ?? '';
      if (accounts.has(sub)) return { sub, deny: false };
    }
    res.setHeader('content-type', 'text/html; charset=utf-8');
    res.end(
      `<!doctype html><title>Test identity provider</title><form method="post" action="${req.url}">` +
        '<label for="username">Username</label><input id="username" name="username" autocomplete="username">' +
        '<button type="submit">Log in</button></form>',
    );
    return undefined;
  }

  return {
    issuer,
    accounts,
    async authorize(authorizationUrl, sub, o = {}) {
      pending.set('next', { sub, deny: !!o.deny });
      const jar = new Map<string, string>();
      let url = new URL(authorizationUrl);
      for (let hop = 0; hop < 20; hop++) {
        const cookie = [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
        const res = await fetch(url, { redirect: 'manual', headers: cookie ? { cookie } : {} });
        for (const line of res.headers.getSetCookie()) {
          const [pair, ...attrs] = line.split(';');
          const eq = pair.indexOf('=');
          const name = pair.slice(0, eq).trim();
          const gone = attrs.some((a) => /^\s*expires=Thu, 01 Jan 1970/i.test(a) || /^\s*max-age=0\b/i.test(a));
          if (gone) jar.delete(name);
          else jar.set(name, pair.slice(eq + 1).trim());
        }
        const location = res.headers.get('location');
        await res.arrayBuffer();
        if (!location) throw new Error(`provider stopped at ${url.href} with ${res.status}`);
        url = new URL(location, url);
        if (url.href.startsWith(opts.callbackUrl)) return url;
      }
      throw new Error('too many redirects at the provider');
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
