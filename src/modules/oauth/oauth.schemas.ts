import { z } from 'zod';
import { normaliseClientType } from './oauth.settings.ts';

/** `svc_plugin` (default) or `browser_extension`; the official client's `papr_plugin` is an alias. */
export const clientType = z
  .string()
  .max(64)
  .transform((v, ctx) => {
    const ct = normaliseClientType(v);
    if (!ct) {
      ctx.addIssue({ code: 'custom', message: 'must be svc_plugin (alias papr_plugin) or browser_extension' });
      return z.NEVER;
    }
    return ct;
  })
  .describe('Identity provider client: svc_plugin (default; alias papr_plugin) or browser_extension');

const url = (what: string) => z.url().max(2048).describe(what);

export const loginQuery = z.object({
  redirect_uri: url('Where /callback sends the caller back with code and state; must be on the allow-list'),
  state: z.string().max(1024).optional().describe("The caller's CSRF value, returned unchanged by /callback"),
  client_type: clientType.optional(),
});

export const loginResponse = z
  .object({
    message: z.string().describe('What to do next, in words'),
    redirect_url: z.string().describe('The identity provider address to continue the login'),
  })
  .describe('Login started');

export const callbackQuery = z
  .object({
    code: z.string().min(1).max(4096).optional().describe("The provider's authorization code"),
    state: z.string().min(1).max(1024).describe('The state Engram sent to the provider'),
    iss: z.string().max(2048).optional().describe('Issuer of the authorization response (RFC 9207)'),
    error: z.string().max(256).optional().describe('Set by the provider when the login failed'),
    error_description: z.string().max(2048).optional().describe("The provider's explanation of error"),
  })
  .refine((q) => q.code || q.error, { path: ['code'], message: 'code is required' });

export const callbackResponse = z
  .object({
    message: z.string().describe('What happened, in words'),
    code: z
      .string()
      .describe('Authorization code to exchange at POST /token (empty when the provider reported an error)'),
    state: z.string().describe("The caller's state from /login (empty when none was given)"),
  })
  .describe('Authorization code received');

export const tokenBody = z
  .object({
    grant_type: z
      .enum(['authorization_code', 'refresh_token'])
      .describe('authorization_code: the code from /callback; refresh_token: a new token pair'),
    code: z.string().min(1).max(4096).optional().describe('Required for authorization_code'),
    redirect_uri: z
      .string()
      .min(1)
      .max(2048)
      .optional()
      .describe('Required for authorization_code: the one given to /login'),
    client_type: clientType.optional().describe('Accepted for compatibility; the client of the login is used'),
    refresh_token: z.string().min(1).max(512).optional().describe('Required for refresh_token'),
  })
  .superRefine((b, ctx) => {
    const need =
      b.grant_type === 'authorization_code' ? (['code', 'redirect_uri'] as const) : (['refresh_token'] as const);
    for (const f of need) {
      if (!b[f])
        ctx.addIssue({ code: 'custom', path: [f], message: `${f} is required for grant_type=${b.grant_type}` });
    }
  });

export const tokenResponse = z
  .object({
    access_token: z.string().describe('Engram access token (JWT, HS256) for Authorization: Bearer'),
    token_type: z.literal('Bearer').describe('Bearer'),
    expires_in: z.number().int().describe('Seconds until the access token expires'),
    refresh_token: z.string().describe('Single-use; every refresh returns a new one'),
    scope: z.string().describe('Space-separated scopes the provider granted (else OAUTH_SCOPES)'),
    user_id: z.string().describe("The identity provider's subject"),
    message: z.string().describe('What happened, in words'),
    session_token: z.string().optional().describe('X-Session-Token for this login (authorization_code only)'),
  })
  .describe('Tokens');

export const logoutQuery = z.object({
  returnTo: url('Where the provider sends the browser after logout').optional(),
  client_type: clientType.optional(),
});

export const logoutResponse = z
  .object({
    message: z.string().describe('What happened, in words'),
    logout_url: z.string().describe("The identity provider's end-session URL (or returnTo when it has none)"),
  })
  .describe('Logged out');
