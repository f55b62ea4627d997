import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Config } from '../../config.ts';
import type { Db } from '../../platform/db/index.ts';
import type { Logger } from '../../platform/log.ts';
import type { BearerVerifier, SessionStore } from '../auth/index.ts';
import type { UserDirectory } from '../users/index.ts';
import type { FirstOrganization } from './oauth.identity.ts';
import { createIdentityProvider } from './oauth.provider.ts';
import { oauthDisabledRoutes, oauthRoutes } from './oauth.routes.ts';
import { createOAuthService } from './oauth.service.ts';
import { oauthSettings } from './oauth.settings.ts';
import { createTokenSigner } from './oauth.tokens.ts';

export interface OAuthModule {
  /** Whether an issuer is configured. */
  enabled: boolean;
  /** For `createAuthenticator`; undefined when OAuth is disabled (Bearer tokens are then refused). */
  verifyBearer?: BearerVerifier;
  /** /login, /callback, /token, /logout (answering 404 "not configured" when disabled). */
  routes: FastifyPluginAsyncZod;
}

/**
 * OAuth 2.0 login delegated to an OpenID Connect provider (docs/oauth.md). Nothing
 * contacts the provider until the first login, so start-up never waits on it.
 */
export function createOAuthModule(deps: {
  config: Config;
  db: Db;
  log: Logger;
  users: Pick<UserDirectory, 'insert'>;
  sessions: Pick<SessionStore, 'insert' | 'findLive'>;
  firstOrganization: FirstOrganization;
}): OAuthModule {
  const settings = oauthSettings(deps.config);
  if (!settings) return { enabled: false, routes: oauthDisabledRoutes };
  const provider = createIdentityProvider(settings, deps.log);
  const signer = createTokenSigner(deps.db, { secret: settings.jwtSecret, ttlSeconds: settings.accessTokenTtlSeconds });
  const service = createOAuthService({
    db: deps.db,
    settings,
    provider,
    signer,
    log: deps.log,
    users: deps.users,
    sessions: deps.sessions,
    firstOrganization: deps.firstOrganization,
  });
  return { enabled: true, verifyBearer: service.verifyBearer, routes: oauthRoutes(service) };
}

export { createTokenSigner } from './oauth.tokens.ts';
export type { TokenSigner, AccessClaims } from './oauth.tokens.ts';
