import * as oidc from 'openid-client';
import type { Logger } from '../../platform/log.ts';
import { AppError } from '../../shared/errors.ts';
import type { ClientType, OAuthSettings } from './oauth.settings.ts';

/** What a verified authorization-code exchange tells Engram about the person. */
export interface ProviderLogin {
  /** The provider's `sub`. */
  subject: string;
  /** ID token claims merged with the UserInfo response (profile, email, organization claim). */
  claims: Record<string, unknown>;
  /** Scopes the provider granted. */
  scope?: string;
}

/** The OpenID Connect provider, through `openid-client` (authorization code + PKCE). */
export interface IdentityProvider {
  readonly issuer: string;
  authorizationUrl(ct: ClientType, p: { state: string; nonce: string; codeChallenge: string }): Promise<string>;
  /** Exchange the code with the stored PKCE verifier and verify the ID token (signature, iss, aud, nonce). */
  exchangeCode(
    ct: ClientType,
    p: { code: string; state: string; iss: string | null; codeVerifier: string; nonce: string },
  ): Promise<ProviderLogin>;
  /** RP-initiated logout URL, when the provider publishes an end_session_endpoint. */
  endSessionUrl(ct: ClientType, returnTo: string | undefined): Promise<string | undefined>;
}

/** Statuses of openid-client failures that mean "the provider misbehaved or is down". */
const UPSTREAM_CODES = new Set(['OAUTH_RESPONSE_IS_NOT_CONFORM', 'OAUTH_RESPONSE_IS_NOT_JSON']);

/** Map an openid-client failure to the envelope: a refusal is the caller's 400, an outage our 502. */
function providerError(err: unknown, log: Logger, what: string): AppError {
  if (err instanceof oidc.ResponseBodyError || err instanceof oidc.AuthorizationResponseError) {
    return new AppError(400, `The identity provider refused the ${what}: ${err.error_description ?? err.error}`, {
      error: 'invalid_grant',
      provider_error: err.error,
    });
  }
  if (err instanceof oidc.ClientError && !UPSTREAM_CODES.has(err.code ?? '')) {
    log.warn({ err }, `identity provider ${what} failed validation`);
    return new AppError(400, `The identity provider's ${what} response failed validation`, {
      error: 'invalid_grant',
      reason: err.code ?? null,
    });
  }
  log.error({ err }, `identity provider ${what} failed`);
  return new AppError(502, 'The identity provider is unreachable or answered unexpectedly', null, false);
}

/**
 * One discovery (lazy, retried after a failure) and one openid-client Configuration per
 * client type. `allowInsecureRequests` is applied only when OAUTH_ALLOW_INSECURE_ISSUER is set.
 */
export function createIdentityProvider(settings: OAuthSettings, log: Logger): IdentityProvider {
  const execute = settings.allowInsecureIssuer ? [oidc.allowInsecureRequests] : [];
  const configs = new Map<ClientType, Promise<oidc.Configuration>>();
  let discovered: Promise<oidc.Configuration> | undefined;

  const auth = (secret: string | undefined) => (secret ? oidc.ClientSecretPost(secret) : oidc.None());

  function discover(): Promise<oidc.Configuration> {
    if (!discovered) {
      const c = settings.clients.svc_plugin;
      discovered = oidc.discovery(settings.issuer, c.clientId, undefined, auth(c.clientSecret), {
        execute,
        timeout: 10,
      });
      discovered.catch(() => (discovered = undefined));
    }
    return discovered;
  }

  async function configFor(ct: ClientType): Promise<oidc.Configuration> {
    let p = configs.get(ct);
    if (!p) {
      p = discover().then((base) => {
        if (ct === 'svc_plugin') return base;
        const c = settings.clients[ct];
        const cfg = new oidc.Configuration(base.serverMetadata(), c.clientId, undefined, auth(c.clientSecret));
        for (const fn of execute) fn(cfg);
        return cfg;
      });
      configs.set(ct, p);
      p.catch(() => configs.delete(ct));
    }
    try {
      return await p;
    } catch (err) {
      throw providerError(err, log, 'discovery');
    }
  }

  return {
    issuer: settings.issuer.href,

    async authorizationUrl(ct, p) {
      const cfg = await configFor(ct);
      return oidc.buildAuthorizationUrl(cfg, {
        redirect_uri: settings.callbackUrl,
        scope: settings.scopes,
        state: p.state,
        nonce: p.nonce,
        code_challenge: p.codeChallenge,
        code_challenge_method: 'S256',
      }).href;
    },

    async exchangeCode(ct, p) {
      const cfg = await configFor(ct);
      // The authorization response exactly as /callback received it.
      const current = new URL(settings.callbackUrl);
      current.searchParams.set('code', p.code);
      current.searchParams.set('state', p.state);
      if (p.iss) current.searchParams.set('iss', p.iss);
      try {
        const tokens = await oidc.authorizationCodeGrant(cfg, current, {
          pkceCodeVerifier: p.codeVerifier,
          expectedState: p.state,
          expectedNonce: p.nonce,
          idTokenExpected: true,
        });
        const idClaims = tokens.claims()!;
        let claims: Record<string, unknown> = { ...idClaims };
        if (cfg.serverMetadata().userinfo_endpoint) {
          // Profile claims often live only in UserInfo; without it the ID token still identifies.
          try {
            claims = { ...(await oidc.fetchUserInfo(cfg, tokens.access_token, idClaims.sub)), ...idClaims };
          } catch (err) {
            log.warn({ err }, 'identity provider UserInfo failed; using the ID token claims only');
          }
        }
        return { subject: idClaims.sub, claims, scope: tokens.scope };
      } catch (err) {
        throw providerError(err, log, 'authorization code');
      }
    },

    async endSessionUrl(ct, returnTo) {
      const cfg = await configFor(ct);
      if (!cfg.serverMetadata().end_session_endpoint) return undefined;
      return oidc.buildEndSessionUrl(cfg, returnTo ? { post_logout_redirect_uri: returnTo } : {}).href;
    },
  };
}
