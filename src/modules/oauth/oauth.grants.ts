import { randomBytes } from 'node:crypto';
import type { Db } from '../../platform/db/index.ts';
import { AppError } from '../../shared/errors.ts';
import { newId } from '../../shared/ids.ts';
import { hashSecret } from '../../shared/secrets.ts';
import type { SessionStore } from '../auth/index.ts';
import type { UserDirectory } from '../users/index.ts';
import { profileFromClaims, resolveLoginUser, resolveOrganization, type FirstOrganization } from './oauth.identity.ts';
import type { IdentityProvider } from './oauth.provider.ts';
import type { ClientType, OAuthSettings } from './oauth.settings.ts';
import { claimLoginCode, findLoginByCode, setLoginSession } from './oauth.store.ts';
import type { TokenSigner } from './oauth.tokens.ts';
import {
  findLiveSessionById,
  findRefreshToken,
  insertRefreshToken,
  revokeSessionFamily,
  useRefreshToken,
} from './tokens.store.ts';

/** POST /token's answer (spec 4.3), plus the session token on a fresh login. */
export interface TokenResult {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token: string;
  scope: string;
  /** The provider's subject (spec 4.3). */
  user_id: string;
  message: string;
  session_token?: string;
}

/** RFC 6749 §5.2 `invalid_grant`, in the envelope. */
const invalidGrant = (message: string) => new AppError(400, message, { error: 'invalid_grant' });

const newSecret = (prefix: string) => `${prefix}_${randomBytes(32).toString('base64url')}`;

export interface GrantDeps {
  db: Db;
  settings: OAuthSettings;
  provider: IdentityProvider;
  signer: TokenSigner;
  users: Pick<UserDirectory, 'insert'>;
  sessions: Pick<SessionStore, 'insert'>;
  firstOrganization: FirstOrganization;
}

/**
 * `grant_type=authorization_code`: the caller presents the provider's code (handed back
 * by /callback) and the redirect_uri it gave /login. Engram claims the code once,
 * exchanges it at the provider with the PKCE verifier it kept, verifies the ID token,
 * resolves the organization and user, and starts a login: a session (X-Session-Token), a
 * refresh-token family and an access token. A replayed code revokes that login.
 */
export async function authorizationCodeGrant(
  d: GrantDeps,
  b: { code: string; redirect_uri: string },
): Promise<TokenResult> {
  const login = await findLoginByCode(d.db, hashSecret(b.code));
  if (!login) throw invalidGrant('Unknown authorization code');
  if (login.exchanged_at) {
    if (login.session_id) await revokeSessionFamily(d.db, login.session_id);
    throw invalidGrant('Authorization code already used; the login it produced has been revoked');
  }
  if (login.redirect_uri !== b.redirect_uri) throw invalidGrant('redirect_uri does not match the one given to /login');
  if (!(await claimLoginCode(d.db, login.id))) throw invalidGrant('Authorization code expired or already used');

  const clientType = login.client_type as ClientType;
  const result = await d.provider.exchangeCode(clientType, {
    code: b.code,
    state: login.id,
    iss: login.callback_iss,
    codeVerifier: login.code_verifier,
    nonce: login.nonce,
  });
  const scope = result.scope ?? d.settings.scopes;
  const sessionToken = newSecret('st');
  const refreshToken = newSecret('ert');
  const expiresAt = new Date(Date.now() + d.settings.refreshTokenTtlSeconds * 1000);

  const { organizationId, userId, sessionId } = await d.db.transaction(async (tx) => {
    const organizationId = await resolveOrganization(d.firstOrganization, tx, d.settings, result.claims);
    const userId = await resolveLoginUser(d.users, tx, {
      organizationId,
      issuer: d.provider.issuer,
      subject: result.subject,
      profile: profileFromClaims(result.claims),
    });
    const sessionId = newId();
    await d.sessions.insert(tx, {
      id: sessionId,
      organizationId,
      userId,
      tokenHash: hashSecret(sessionToken),
      expiresAt,
    });
    await insertRefreshToken(tx, {
      id: newId(),
      organizationId,
      sessionId,
      userId,
      tokenHash: hashSecret(refreshToken),
      clientType,
      subject: result.subject,
      scope,
      expiresAt,
    });
    await setLoginSession(tx, login.id, sessionId);
    return { organizationId, userId, sessionId };
  });

  const access = await d.signer.issue({ userId, organizationId, sessionId, clientType, scope });
  return {
    access_token: access.token,
    token_type: 'Bearer',
    expires_in: access.expiresIn,
    refresh_token: refreshToken,
    scope,
    user_id: result.subject,
    message: 'Login successful',
    session_token: sessionToken,
  };
}

/**
 * `grant_type=refresh_token`: rotation. A live token is marked used and replaced by a new
 * one of the same family (same absolute expiry). Presenting a used token again is theft
 * or a bug either way: the whole family and its session are revoked.
 */
export async function refreshTokenGrant(d: GrantDeps, b: { refresh_token: string }): Promise<TokenResult> {
  const hash = hashSecret(b.refresh_token);
  const next = newSecret('ert');
  const outcome = await d.db.transaction(async (tx) => {
    const row = await useRefreshToken(tx, hash);
    if (!row) {
      const old = await findRefreshToken(tx, hash);
      if (old?.used_at && !old.revoked_at) {
        await revokeSessionFamily(tx, old.session_id);
        return { kind: 'reuse' as const };
      }
      return { kind: 'invalid' as const };
    }
    if (!(await findLiveSessionById(tx, row.session_id))) return { kind: 'invalid' as const };
    await insertRefreshToken(tx, {
      id: newId(),
      organizationId: row.organization_id,
      sessionId: row.session_id,
      userId: row.user_id,
      tokenHash: hashSecret(next),
      clientType: row.client_type,
      subject: row.subject,
      scope: row.scope,
      expiresAt: row.expires_at,
    });
    return { kind: 'rotated' as const, row };
  });
  if (outcome.kind === 'reuse') throw invalidGrant('Refresh token reuse detected; this login has been revoked');
  if (outcome.kind === 'invalid') throw invalidGrant('Invalid, expired or revoked refresh token');

  const { row } = outcome;
  const access = await d.signer.issue({
    userId: row.user_id,
    organizationId: row.organization_id,
    sessionId: row.session_id,
    clientType: row.client_type,
    scope: row.scope,
  });
  return {
    access_token: access.token,
    token_type: 'Bearer',
    expires_in: access.expiresIn,
    refresh_token: next,
    scope: row.scope,
    user_id: row.subject,
    message: 'Token refreshed',
  };
}
