import * as oidc from 'openid-client';
import type { Logger } from '../../platform/log.ts';
import { AppError, badRequest } from '../../shared/errors.ts';
import { hashSecret } from '../../shared/secrets.ts';
import { readCredentials, type BearerVerifier, type SessionStore } from '../auth/index.ts';
import { authorizationCodeGrant, refreshTokenGrant, type GrantDeps, type TokenResult } from './oauth.grants.ts';
import { clientTypeForRedirect, redirectUriAllowed, type ClientType } from './oauth.settings.ts';
import { deleteStaleLoginRequests, insertLoginRequest, recordCallback } from './oauth.store.ts';
import { findLiveSessionById, revokeSessionFamily } from './tokens.store.ts';

type Headers = Record<string, string | string[] | undefined>;

/** A step of the browser flow: JSON `body` for callers accepting JSON, else a 302 to `redirectTo`. */
export interface FlowStep<B> {
  redirectTo: string;
  body: B;
}

export interface TokenRequest {
  grant_type: 'authorization_code' | 'refresh_token';
  code?: string;
  redirect_uri?: string;
  refresh_token?: string;
}

export interface OAuthService {
  login(q: {
    redirect_uri: string;
    state?: string;
    client_type?: ClientType;
  }): Promise<FlowStep<{ message: string; redirect_url: string }>>;
  /** `error` is set when the provider refused: JSON callers get it thrown, browsers are sent back with it. */
  callback(q: {
    code?: string;
    state: string;
    iss?: string;
    error?: string;
    error_description?: string;
  }): Promise<FlowStep<{ message: string; code: string; state: string }> & { error?: AppError }>;
  token(b: TokenRequest): Promise<TokenResult>;
  logout(
    q: { returnTo?: string; client_type?: ClientType },
    headers: Headers,
  ): Promise<FlowStep<{ message: string; logout_url: string }>>;
  /** The `Authorization: Bearer` check the authenticator uses on every route. */
  verifyBearer: BearerVerifier;
}

/** `uri` with `params` appended to its query (absent values skipped). */
function withParams(uri: string, params: Record<string, string | null | undefined>): string {
  const u = new URL(uri);
  for (const [k, v] of Object.entries(params)) if (v) u.searchParams.set(k, v);
  return u.href;
}

export function createOAuthService(
  d: GrantDeps & { log: Logger; sessions: Pick<SessionStore, 'insert' | 'findLive'> },
): OAuthService {
  const { db, settings, provider, signer } = d;

  /** The login session the caller's credentials name, if any (a token past expiry still names it). */
  async function callerSession(headers: Headers): Promise<string | undefined> {
    const creds = readCredentials(headers);
    if (creds.bearer) return (await signer.verify(creds.bearer, { ignoreExpiry: true })).sessionId;
    if (creds.sessionToken) return (await d.sessions.findLive(db, hashSecret(creds.sessionToken)))?.id;
    return undefined;
  }

  return {
    async login(q) {
      const clientType = q.client_type ?? clientTypeForRedirect(settings, q.redirect_uri) ?? 'svc_plugin';
      if (!redirectUriAllowed(settings.clients[clientType].redirectUris, q.redirect_uri)) {
        throw badRequest('redirect_uri is not on the allow-list of this client', {
          error: 'invalid_redirect_uri',
          redirect_uri: q.redirect_uri,
          client_type: clientType,
        });
      }
      const state = oidc.randomState();
      const nonce = oidc.randomNonce();
      const codeVerifier = oidc.randomPKCECodeVerifier();
      const redirectUrl = await provider.authorizationUrl(clientType, {
        state,
        nonce,
        codeChallenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
      });
      await deleteStaleLoginRequests(db);
      await insertLoginRequest(db, {
        id: state,
        clientType,
        redirectUri: q.redirect_uri,
        callerState: q.state ?? null,
        codeVerifier,
        nonce,
        expiresAt: new Date(Date.now() + settings.loginTtlSeconds * 1000),
      });
      return {
        redirectTo: redirectUrl,
        body: { message: 'Continue the login at the identity provider', redirect_url: redirectUrl },
      };
    },

    async callback(q) {
      const row = await recordCallback(db, q.state, q.code && !q.error ? hashSecret(q.code) : null, q.iss ?? null);
      if (!row) throw badRequest('Unknown, expired or already used state', { error: 'invalid_state' });
      const state = row.caller_state ?? '';
      if (q.error || !q.code) {
        const error = q.error ?? 'invalid_request';
        return {
          redirectTo: withParams(row.redirect_uri, {
            error,
            error_description: q.error_description,
            state: row.caller_state,
          }),
          body: { message: `Login failed at the identity provider: ${error}`, code: '', state },
          error: new AppError(400, `Login failed at the identity provider: ${q.error_description ?? error}`, { error }),
        };
      }
      return {
        redirectTo: withParams(row.redirect_uri, { code: q.code, state: row.caller_state }),
        body: { message: 'Authorization code received; exchange it at POST /token', code: q.code, state },
      };
    },

    async token(b) {
      if (b.grant_type === 'authorization_code') {
        return authorizationCodeGrant(d, { code: b.code!, redirect_uri: b.redirect_uri! });
      }
      return refreshTokenGrant(d, { refresh_token: b.refresh_token! });
    },

    async logout(q, headers) {
      const clientType = q.client_type ?? 'svc_plugin';
      const sessionId = await callerSession(headers).catch((err) => {
        if (err instanceof AppError && err.code === 401) return undefined; // nothing valid to revoke
        throw err;
      });
      if (sessionId) await revokeSessionFamily(db, sessionId);
      const returnTo = q.returnTo ?? settings.logoutReturnTo;
      // Local revocation stands even when the provider cannot be reached.
      const endSession = await provider.endSessionUrl(clientType, returnTo).catch((err) => {
        d.log.warn({ err }, 'identity provider end-session URL unavailable');
        return undefined;
      });
      // Without a provider endpoint Engram would redirect to returnTo itself: only to a known address.
      const knownReturn =
        returnTo &&
        (returnTo === settings.logoutReturnTo ||
          redirectUriAllowed(settings.clients[clientType].redirectUris, returnTo));
      const logoutUrl = endSession ?? (knownReturn ? returnTo : new URL('/', settings.callbackUrl).href);
      const message = sessionId
        ? 'Logged out: the session and its refresh tokens are revoked; finish at logout_url'
        : 'No session to revoke; finish at logout_url';
      return { redirectTo: logoutUrl, body: { message, logout_url: logoutUrl } };
    },

    async verifyBearer(token) {
      const c = await signer.verify(token);
      const s = await findLiveSessionById(db, c.sessionId);
      if (!s || s.user_id !== c.userId || s.organization_id !== c.organizationId) {
        throw new AppError(401, 'Access token revoked: log in again');
      }
      return { organizationId: c.organizationId, userId: c.userId, sessionId: c.sessionId };
    },
  };
}
