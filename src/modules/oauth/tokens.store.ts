import type { Queryable } from '../../platform/db/index.ts';

/** An Engram refresh token (stored as a hash; migrations/0050_oauth.sql). */
export interface RefreshTokenRow {
  id: string;
  organization_id: string;
  session_id: string;
  user_id: string;
  client_type: string;
  subject: string;
  scope: string;
  expires_at: Date;
  used_at: Date | null;
  revoked_at: Date | null;
}

const REFRESH_COLUMNS =
  'id, organization_id, session_id, user_id, client_type, subject, scope, expires_at, used_at, revoked_at';

export async function insertRefreshToken(
  db: Queryable,
  t: {
    id: string;
    organizationId: string;
    sessionId: string;
    userId: string;
    tokenHash: string;
    clientType: string;
    subject: string;
    scope: string;
    expiresAt: Date;
  },
): Promise<void> {
  await db.query(
    `INSERT INTO oauth_refresh_tokens
       (id, organization_id, session_id, user_id, token_hash, client_type, subject, scope, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [t.id, t.organizationId, t.sessionId, t.userId, t.tokenHash, t.clientType, t.subject, t.scope, t.expiresAt],
  );
}

/**
 * Mark a live refresh token used, atomically: of two concurrent uses exactly one gets
 * the row, and the other is treated as reuse.
 */
export async function useRefreshToken(db: Queryable, tokenHash: string): Promise<RefreshTokenRow | undefined> {
  const rows = await db.query<RefreshTokenRow>(
    `UPDATE oauth_refresh_tokens SET used_at = now()
     WHERE token_hash = $1 AND used_at IS NULL AND revoked_at IS NULL AND expires_at > now()
     RETURNING ${REFRESH_COLUMNS}`,
    [tokenHash],
  );
  return rows[0];
}

export async function findRefreshToken(db: Queryable, tokenHash: string): Promise<RefreshTokenRow | undefined> {
  const rows = await db.query<RefreshTokenRow>(
    `SELECT ${REFRESH_COLUMNS} FROM oauth_refresh_tokens WHERE token_hash = $1`,
    [tokenHash],
  );
  return rows[0];
}

/** A session by id, when it is neither revoked nor expired. */
export async function findLiveSessionById(
  db: Queryable,
  id: string,
): Promise<{ id: string; organization_id: string; user_id: string; expires_at: Date } | undefined> {
  const rows = await db.query<{ id: string; organization_id: string; user_id: string; expires_at: Date }>(
    'SELECT id, organization_id, user_id, expires_at FROM sessions ' +
      'WHERE id = $1 AND revoked_at IS NULL AND expires_at > now()',
    [id],
  );
  return rows[0];
}

/**
 * End a login: its session (so `X-Session-Token` and every access token naming it stop
 * working) and every refresh token of its family.
 */
export async function revokeSessionFamily(db: Queryable, sessionId: string): Promise<void> {
  await db.query('UPDATE sessions SET revoked_at = now() WHERE id = $1 AND revoked_at IS NULL', [sessionId]);
  await db.query('UPDATE oauth_refresh_tokens SET revoked_at = now() WHERE session_id = $1 AND revoked_at IS NULL', [
    sessionId,
  ]);
}

/** Store a signing key unless one with this id exists (the first of racing processes wins). */
export async function insertSigningKeyIfAbsent(db: Queryable, id: string, secret: string): Promise<void> {
  await db.query('INSERT INTO oauth_signing_keys (id, secret) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING', [
    id,
    secret,
  ]);
}

/** Every signing key, newest last. */
export async function listSigningKeys(db: Queryable): Promise<{ id: string; secret: string }[]> {
  return db.query<{ id: string; secret: string }>('SELECT id, secret FROM oauth_signing_keys ORDER BY created_at, id');
}
