import type { Config } from '../../config.ts';

/** The provider clients the spec names; `svc_plugin` is the default. */
export const CLIENT_TYPES = ['svc_plugin', 'browser_extension'] as const;
export type ClientType = (typeof CLIENT_TYPES)[number];

/** What the official client sends in place of the spec's names (client-contract.md). */
const CLIENT_TYPE_ALIASES: Record<string, ClientType> = { papr_plugin: 'svc_plugin' };

/** A spec name or an alias to the canonical client type; undefined when unknown. */
export function normaliseClientType(value: string | undefined): ClientType | undefined {
  if (!value) return undefined;
  const v = value.trim().toLowerCase();
  return (CLIENT_TYPES as readonly string[]).includes(v) ? (v as ClientType) : CLIENT_TYPE_ALIASES[v];
}

export interface OAuthClientSettings {
  clientType: ClientType;
  clientId: string;
  clientSecret?: string;
  /** Where /callback may send this client's callers back. */
  redirectUris: string[];
}

/** The OAuth part of the configuration, resolved once. */
export interface OAuthSettings {
  issuer: URL;
  /** Engram's own callback, registered at the provider. */
  callbackUrl: string;
  scopes: string;
  clients: Record<ClientType, OAuthClientSettings>;
  orgClaim?: string;
  defaultOrganization?: string;
  jwtSecret?: string;
  accessTokenTtlSeconds: number;
  refreshTokenTtlSeconds: number;
  loginTtlSeconds: number;
  logoutReturnTo?: string;
  allowInsecureIssuer: boolean;
}

const list = (s: string | undefined) =>
  (s ?? '')
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);

/** The OAuth settings, or undefined when OAuth is disabled (no OAUTH_ISSUER). */
export function oauthSettings(config: Config): OAuthSettings | undefined {
  if (!config.OAUTH_ISSUER || !config.OAUTH_CLIENT_ID || !config.OAUTH_CALLBACK_URL) return undefined;
  return {
    issuer: new URL(config.OAUTH_ISSUER),
    callbackUrl: config.OAUTH_CALLBACK_URL,
    scopes: config.OAUTH_SCOPES,
    clients: {
      svc_plugin: {
        clientType: 'svc_plugin',
        clientId: config.OAUTH_CLIENT_ID,
        clientSecret: config.OAUTH_CLIENT_SECRET,
        redirectUris: list(config.OAUTH_REDIRECT_URIS),
      },
      browser_extension: {
        clientType: 'browser_extension',
        clientId: config.OAUTH_BROWSER_EXTENSION_CLIENT_ID ?? config.OAUTH_CLIENT_ID,
        clientSecret: config.OAUTH_BROWSER_EXTENSION_CLIENT_ID
          ? config.OAUTH_BROWSER_EXTENSION_CLIENT_SECRET
          : (config.OAUTH_BROWSER_EXTENSION_CLIENT_SECRET ?? config.OAUTH_CLIENT_SECRET),
        redirectUris: list(config.OAUTH_BROWSER_EXTENSION_REDIRECT_URIS),
      },
    },
    orgClaim: config.OAUTH_ORG_CLAIM,
    defaultOrganization: config.OAUTH_DEFAULT_ORGANIZATION,
    jwtSecret: config.OAUTH_JWT_SECRET,
    accessTokenTtlSeconds: config.OAUTH_ACCESS_TOKEN_TTL_SECONDS,
    refreshTokenTtlSeconds: config.OAUTH_REFRESH_TOKEN_TTL_SECONDS,
    loginTtlSeconds: config.OAUTH_LOGIN_TTL_SECONDS,
    logoutReturnTo: config.OAUTH_LOGOUT_RETURN_TO,
    allowInsecureIssuer: config.OAUTH_ALLOW_INSECURE_ISSUER,
  };
}

const LOOPBACK = new Set(['127.0.0.1', '[::1]', 'localhost']);

/** `new URL` without throwing (URL.parse is missing from early Node 20 releases). */
export function parseUrl(s: string): URL | undefined {
  try {
    return new URL(s);
  } catch {
    return undefined;
  }
}

/**
 * Whether `uri` is on the allow-list. Matching is exact (after URL normalisation), except
 * that an http loopback entry matches any port, as native apps bind an ephemeral one
 * (RFC 8252 §7.3). URIs with a fragment or credentials never match.
 */
export function redirectUriAllowed(allowed: readonly string[], uri: string): boolean {
  const u = parseUrl(uri);
  if (!u || u.hash || u.username || u.password) return false;
  return allowed.some((entry) => {
    const a = parseUrl(entry);
    if (!a) return false;
    if (a.href === u.href) return true;
    return (
      a.protocol === 'http:' &&
      LOOPBACK.has(a.hostname) &&
      u.protocol === a.protocol &&
      u.hostname === a.hostname &&
      u.pathname === a.pathname &&
      u.search === a.search
    );
  });
}

/** The client type whose allow-list holds `uri` (svc_plugin first), if any. */
export function clientTypeForRedirect(settings: OAuthSettings, uri: string): ClientType | undefined {
  return CLIENT_TYPES.find((ct) => redirectUriAllowed(settings.clients[ct].redirectUris, uri));
}
