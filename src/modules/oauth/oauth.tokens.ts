import { randomBytes } from 'node:crypto';
import { SignJWT, errors as joseErrors, jwtVerify, type JWTPayload } from 'jose';
import type { Db } from '../../platform/db/index.ts';
import { newId } from '../../shared/ids.ts';
import { AppError } from '../../shared/errors.ts';
import { insertSigningKeyIfAbsent, listSigningKeys } from './tokens.store.ts';

/** Engram access tokens: `iss`/`aud` distinguish them from any other JWT a caller holds. */
const ISSUER = 'engram';
const AUDIENCE = 'engram';
const TYP = 'at+jwt';
const ALG = 'HS256';
/** Key id of the generated store key (fixed, so racing first starts agree on one row). */
const STORE_KEY_ID = 'k1';
/** How often an unknown `kid` may trigger a reload of the store's keys. */
const RELOAD_INTERVAL_MS = 30_000;

/** What an Engram access token says about its bearer. */
export interface AccessClaims {
  /** Internal user id. */
  userId: string;
  organizationId: string;
  /** The login session; revoked sessions make their access tokens invalid at once. */
  sessionId: string;
  clientType: string;
  scope: string;
}

export interface TokenSigner {
  /** Sign an access token; `now` and `ttlSeconds` are there for tests of expiry. */
  issue(c: AccessClaims, opts?: { now?: Date; ttlSeconds?: number }): Promise<{ token: string; expiresIn: number }>;
  /**
   * Check signature, issuer, audience, type and expiry; 401 on any failure.
   * `ignoreExpiry` serves logout, which may end a session with an expired token.
   */
  verify(token: string, opts?: { ignoreExpiry?: boolean }): Promise<AccessClaims>;
}

interface KeyRing {
  currentId: string;
  keys: Map<string, Uint8Array>;
}

/**
 * HS256 signer for Engram access tokens. The key is OAUTH_JWT_SECRET when configured,
 * else a random key generated once and kept in `oauth_signing_keys`, so it survives
 * restarts and every process on one PostgreSQL shares it. Tokens carry the key id, so a
 * newer key can be added while older tokens still verify.
 */
export function createTokenSigner(db: Db, opts: { secret?: string; ttlSeconds: number }): TokenSigner {
  let ring: Promise<KeyRing> | undefined;
  let loadedAt = 0;

  async function load(): Promise<KeyRing> {
    if (opts.secret) return { currentId: 'config', keys: new Map([['config', new TextEncoder().encode(opts.secret)]]) };
    let rows = await listSigningKeys(db);
    if (rows.length === 0) {
      await insertSigningKeyIfAbsent(db, STORE_KEY_ID, randomBytes(32).toString('base64url'));
      rows = await listSigningKeys(db);
    }
    const keys = new Map(rows.map((r) => [r.id, new Uint8Array(Buffer.from(r.secret, 'base64url'))]));
    return { currentId: rows[rows.length - 1].id, keys };
  }

  function keyRing(reload = false): Promise<KeyRing> {
    if (!ring || reload) {
      loadedAt = Date.now();
      ring = load();
      ring.catch(() => (ring = undefined)); // a store hiccup must not stick
    }
    return ring;
  }

  async function keyFor(kid: string | undefined): Promise<Uint8Array> {
    let r = await keyRing();
    if (kid && !r.keys.has(kid) && !opts.secret && Date.now() - loadedAt > RELOAD_INTERVAL_MS) r = await keyRing(true);
    const key = kid ? r.keys.get(kid) : undefined;
    if (!key) throw new AppError(401, 'Invalid access token');
    return key;
  }

  function claimsOf(p: JWTPayload): AccessClaims {
    const { sub, org, sid, client_type, scope } = p as Record<string, unknown>;
    if (typeof sub !== 'string' || typeof org !== 'string' || typeof sid !== 'string') {
      throw new AppError(401, 'Invalid access token');
    }
    return {
      userId: sub,
      organizationId: org,
      sessionId: sid,
      clientType: typeof client_type === 'string' ? client_type : 'svc_plugin',
      scope: typeof scope === 'string' ? scope : '',
    };
  }

  return {
    async issue(c, o = {}) {
      const r = await keyRing();
      const ttl = o.ttlSeconds ?? opts.ttlSeconds;
      const iat = Math.floor((o.now ?? new Date()).getTime() / 1000);
      const token = await new SignJWT({
        org: c.organizationId,
        sid: c.sessionId,
        client_type: c.clientType,
        scope: c.scope,
      })
        .setProtectedHeader({ alg: ALG, typ: TYP, kid: r.currentId })
        .setIssuer(ISSUER)
        .setAudience(AUDIENCE)
        .setSubject(c.userId)
        .setJti(newId())
        .setIssuedAt(iat)
        .setExpirationTime(iat + ttl)
        .sign(r.keys.get(r.currentId)!);
      return { token, expiresIn: ttl };
    },

    async verify(token, o = {}) {
      try {
        const { payload } = await jwtVerify(token, (header) => keyFor(header.kid), {
          issuer: ISSUER,
          audience: AUDIENCE,
          typ: TYP,
          algorithms: [ALG],
        });
        return claimsOf(payload);
      } catch (err) {
        // jose checks the signature, typ, iss and aud before exp: an expired token's payload is authentic.
        if (err instanceof joseErrors.JWTExpired) {
          if (o.ignoreExpiry) return claimsOf(err.payload);
          throw new AppError(401, 'Access token expired');
        }
        if (err instanceof AppError) throw err;
        if (err instanceof joseErrors.JOSEError || err instanceof TypeError)
          throw new AppError(401, 'Invalid access token');
        throw err;
      }
    },
  };
}
