/** The OAuth login's settings (docs/oauth.md; part of the one schema assembled in src/config.ts). */
import { z } from 'zod';
import { bool, int } from './fields.ts';

export const oauthFields = {
  /**
   * OAuth login through an OpenID Connect provider (docs/oauth.md). Disabled unless
   * OAUTH_ISSUER is set. Lists are comma-separated.
   */
  OAUTH_ISSUER: z.url().optional(),
  /** Engram's own callback URL, registered at the provider (e.g. https://engram.example.com/callback). */
  OAUTH_CALLBACK_URL: z.url().optional(),
  /** The `svc_plugin` client (alias `papr_plugin`, the default client type). */
  OAUTH_CLIENT_ID: z.string().min(1).optional(),
  OAUTH_CLIENT_SECRET: z.string().min(1).optional(),
  /** Where /callback may send a `svc_plugin` caller back (exact; a loopback entry matches any port). */
  OAUTH_REDIRECT_URIS: z.string().optional(),
  /** The `browser_extension` client; id and secret default to the plugin's. */
  OAUTH_BROWSER_EXTENSION_CLIENT_ID: z.string().min(1).optional(),
  OAUTH_BROWSER_EXTENSION_CLIENT_SECRET: z.string().min(1).optional(),
  OAUTH_BROWSER_EXTENSION_REDIRECT_URIS: z.string().optional(),
  OAUTH_SCOPES: z.string().min(1).default('openid profile email'),
  /** Claim naming the person's organization (its id or name); else OAUTH_DEFAULT_ORGANIZATION. */
  OAUTH_ORG_CLAIM: z.string().min(1).optional(),
  /** Organization (id or name) for people without the claim; default: the first organization. */
  OAUTH_DEFAULT_ORGANIZATION: z.string().min(1).optional(),
  /** HMAC key for Engram access tokens; when absent one is generated and kept in the store. */
  OAUTH_JWT_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  OAUTH_ACCESS_TOKEN_TTL_SECONDS: int(900, 30),
  /** Absolute lifetime of a login (session and its refresh tokens); rotation does not extend it. */
  OAUTH_REFRESH_TOKEN_TTL_SECONDS: int(30 * 24 * 3600, 60),
  /** How long a /login may take until /token. */
  OAUTH_LOGIN_TTL_SECONDS: int(600, 30),
  /** Default `returnTo` of /logout. */
  OAUTH_LOGOUT_RETURN_TO: z.url().optional(),
  /** Allow an http:// issuer (tests, local development only). */
  OAUTH_ALLOW_INSECURE_ISSUER: bool.default(false),
};

/** OAuth settings that only make sense together (listed with every other problem). */
export function checkOAuthConfig(c: Record<string, unknown>, ctx: z.RefinementCtx): void {
  if (!c.OAUTH_ISSUER) return;
  for (const key of ['OAUTH_CLIENT_ID', 'OAUTH_CALLBACK_URL']) {
    if (!c[key]) ctx.addIssue({ code: 'custom', path: [key], message: 'required when OAUTH_ISSUER is set' });
  }
  if (!c.OAUTH_REDIRECT_URIS && !c.OAUTH_BROWSER_EXTENSION_REDIRECT_URIS) {
    ctx.addIssue({
      code: 'custom',
      path: ['OAUTH_REDIRECT_URIS'],
      message: 'allow at least one redirect URI when OAUTH_ISSUER is set',
    });
  }
}
