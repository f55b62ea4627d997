/**
 * Authentication: who a request is (API key, session token, Bearer token; several may
 * combine), as an `Actor` (docs/tenancy.md), and GET /me.
 */
import type { Db } from '../../platform/db/index.ts';
import type { ApiKeyStore } from '../api-keys/index.ts';
import type { UserDirectory } from '../users/index.ts';
import { authRoutes } from './auth.routes.ts';
import { createAuthenticator, type BearerVerifier } from './auth.service.ts';
import { findLiveSession, insertSession } from './sessions.store.ts';

export function createAuthModule(deps: {
  db: Db;
  keys: Pick<ApiKeyStore, 'findActiveByHash' | 'touch'>;
  users: Pick<UserDirectory, 'get'>;
  /** Verifies Bearer tokens (the OAuth module's, when an issuer is configured). */
  verifyBearer?: BearerVerifier;
}) {
  const authenticator = createAuthenticator(deps);
  return { authenticator, routes: authRoutes(authenticator) };
}

/** End-user sessions by token hash (the OAuth login creates them; stateless). */
export const sessionStore = { findLive: findLiveSession, insert: insertSession };
export type SessionStore = typeof sessionStore;

export { readCredentials, type Authenticator, type BearerVerifier, type TokenIdentity } from './auth.service.ts';
