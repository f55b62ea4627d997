import type { Db } from '../../platform/db/index.ts';
import { ALL_PERMISSIONS, type Actor, type AuthMethod } from '../../shared/actor.ts';
import { AppError, badRequest, forbidden, unauthorized } from '../../shared/errors.ts';
import { hashSecret } from '../../shared/secrets.ts';
import type { ApiKeyStore } from '../api-keys/index.ts';
import type { UserDirectory, UserRow } from '../users/index.ts';
import { findLiveSession } from './sessions.store.ts';

type Headers = Record<string, string | string[] | undefined>;

/** An end-user identity proven by a token (session or Bearer). */
export interface TokenIdentity {
  organizationId: string;
  userId: string;
  sessionId: string | null;
}

/** Verifies `Authorization: Bearer` tokens; supplied by the OAuth module when configured. */
export type BearerVerifier = (token: string) => Promise<TokenIdentity>;

const noBearer: BearerVerifier = async () => {
  throw new AppError(401, 'Bearer tokens are not accepted: no identity provider is configured');
};

/** The credentials a request carries, read from the headers the spec and client use. */
export interface Credentials {
  apiKey?: string;
  sessionToken?: string;
  bearer?: string;
}

/** 400: two credentials of one kind that differ; picking one silently would act as someone unintended. */
const conflicting = (what: string, sources: string[]) =>
  badRequest(`Conflicting credentials: ${what} given twice with different values; send one`, {
    credentials: sources,
  });

function header(headers: Headers, name: string): string | undefined {
  const v = headers[name];
  const values = [...new Set((Array.isArray(v) ? v : [v]).map((x) => x?.trim()).filter((x) => !!x))];
  if (values.length > 1) throw conflicting(name, [name, name]);
  return values[0];
}

/** `value` unless the credential is already set to something else (the same value twice is one credential). */
function same(current: string | undefined, value: string, what: string, sources: string[]): string {
  if (current !== undefined && current !== value) throw conflicting(what, sources);
  return value;
}

/**
 * Read every credential present. The official client always sends `X-API-Key`, possibly
 * empty, so empty values count as absent and credentials of different kinds may combine
 * (an API key with an end user's token). Two differing credentials of one kind are a 400.
 */
export function readCredentials(headers: Headers): Credentials {
  const creds: Credentials = {
    apiKey: header(headers, 'x-api-key'),
    sessionToken: header(headers, 'x-session-token'),
  };
  const authz = header(headers, 'authorization');
  if (authz) {
    const m = /^(\S+)\s+(\S.*)$/.exec(authz);
    const scheme = m?.[1].toLowerCase();
    const value = m?.[2].trim();
    if (!value) throw unauthorized('Malformed Authorization header');
    if (scheme === 'bearer') creds.bearer = value;
    else if (scheme === 'session')
      creds.sessionToken = same(creds.sessionToken, value, 'session token', [
        'X-Session-Token',
        'Authorization: Session',
      ]);
    else if (scheme === 'apikey')
      creds.apiKey = same(creds.apiKey, value, 'API key', ['X-API-Key', 'Authorization: APIKey']);
    else throw unauthorized(`Unsupported Authorization scheme "${m![1]}": use Bearer, Session or APIKey`);
  }
  return creds;
}

export interface Authenticator {
  /** Resolve the caller, or throw 401. */
  authenticate(headers: Headers): Promise<Actor>;
  /** The acting user's record (for /me). */
  currentUser(actor: Actor): Promise<UserRow | undefined>;
}

/**
 * Credential precedence follows the original server: an API key names the developer
 * (organization, namespace, permissions); a session or Bearer token alongside it names
 * the end user. A token alone acts as its user inside the user's organization.
 */
export function createAuthenticator(deps: {
  db: Db;
  keys: Pick<ApiKeyStore, 'findActiveByHash' | 'touch'>;
  users: Pick<UserDirectory, 'get'>;
  verifyBearer?: BearerVerifier;
}): Authenticator {
  const { db, keys, users, verifyBearer = noBearer } = deps;
  // When this process last recorded each key's use: the store records at most once a minute,
  // and asking it on every request would cost a statement per request to learn that.
  const touched = new Map<string, number>();
  const touch = (keyId: string) => {
    const now = Date.now();
    if ((touched.get(keyId) ?? 0) > now - 60_000) return;
    if (touched.size > 10_000) touched.clear();
    touched.set(keyId, now);
    keys.touch(db, keyId).catch(() => {}); // bookkeeping must never fail a request
  };
  async function tokenIdentity(c: Credentials): Promise<{ id: TokenIdentity; method: AuthMethod } | undefined> {
    if (c.bearer) return { id: await verifyBearer(c.bearer), method: 'bearer' };
    if (!c.sessionToken) return undefined;
    const s = await findLiveSession(db, hashSecret(c.sessionToken));
    if (!s) throw unauthorized('Invalid or expired session token');
    return { id: { organizationId: s.organization_id, userId: s.user_id, sessionId: s.id }, method: 'session' };
  }

  return {
    async authenticate(headers) {
      const c = readCredentials(headers);
      if (!c.apiKey && !c.sessionToken && !c.bearer) {
        throw unauthorized('Missing credentials: send X-API-Key, X-Session-Token or Authorization: Bearer');
      }
      let actor: Actor | undefined;
      if (c.apiKey) {
        const key = await keys.findActiveByHash(db, hashSecret(c.apiKey));
        if (!key) throw unauthorized('Invalid or revoked API key');
        if (key.namespace_active === false)
          throw forbidden('The namespace of this API key is deactivated (is_active: false)', {
            namespace_id: key.namespace_id,
          });
        touch(key.id);
        actor = {
          organizationId: key.organization_id,
          namespaceId: key.namespace_id,
          permissions: new Set(key.permissions),
          userId: key.user_id ?? '',
          apiKeyId: key.id,
          sessionId: null,
          methods: ['api_key'],
        };
      }
      const token = await tokenIdentity(c);
      if (!token) return actor!;
      if (actor) {
        if (token.id.organizationId !== actor.organizationId)
          throw unauthorized('Token and API key belong to different organizations');
        return { ...actor, userId: token.id.userId, sessionId: token.id.sessionId, methods: ['api_key', token.method] };
      }
      return {
        organizationId: token.id.organizationId,
        namespaceId: null,
        permissions: new Set(ALL_PERMISSIONS),
        userId: token.id.userId,
        apiKeyId: null,
        sessionId: token.id.sessionId,
        methods: [token.method],
      };
    },
    currentUser: (actor) =>
      actor.userId ? users.get(db, actor.organizationId, actor.userId) : Promise.resolve(undefined),
  };
}
