import type { Queryable } from '../../platform/db/index.ts';
import { newId } from '../../shared/ids.ts';

/** A pending or finished GET /login (migrations/0050_oauth.sql). */
export interface LoginRequestRow {
  id: string;
  client_type: string;
  redirect_uri: string;
  caller_state: string | null;
  code_verifier: string;
  nonce: string;
  callback_iss: string | null;
  exchanged_at: Date | null;
  session_id: string | null;
  expires_at: Date;
}

const LOGIN_COLUMNS =
  'id, client_type, redirect_uri, caller_state, code_verifier, ' +
  'nonce, callback_iss, exchanged_at, session_id, expires_at';

export async function insertLoginRequest(
  db: Queryable,
  r: {
    id: string;
    clientType: string;
    redirectUri: string;
    callerState: string | null;
    codeVerifier: string;
    nonce: string;
    expiresAt: Date;
  },
): Promise<void> {
  await db.query(
    `INSERT INTO oauth_login_requests (id, client_type, redirect_uri, caller_state, code_verifier, nonce, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [r.id, r.clientType, r.redirectUri, r.callerState, r.codeVerifier, r.nonce, r.expiresAt],
  );
}

/**
 * Drop login requests a day past their expiry. The day keeps used codes findable, so a
 * replay shortly after expiry still revokes what the code produced.
 */
export async function deleteStaleLoginRequests(db: Queryable): Promise<void> {
  await db.query("DELETE FROM oauth_login_requests WHERE expires_at < now() - interval '1 day'");
}

/**
 * Bind the provider's code (null when the provider answered an error) to the login request
 * named by `state`, once: an unknown, expired or already called-back state matches nothing.
 */
export async function recordCallback(
  db: Queryable,
  state: string,
  codeHash: string | null,
  iss: string | null,
): Promise<LoginRequestRow | undefined> {
  const rows = await db.query<LoginRequestRow>(
    `UPDATE oauth_login_requests SET code_hash = $2, callback_iss = $3, callback_at = now()
     WHERE id = $1 AND callback_at IS NULL AND expires_at > now()
     RETURNING ${LOGIN_COLUMNS}`,
    [state, codeHash, iss],
  );
  return rows[0];
}

export async function findLoginByCode(db: Queryable, codeHash: string): Promise<LoginRequestRow | undefined> {
  const rows = await db.query<LoginRequestRow>(
    `SELECT ${LOGIN_COLUMNS} FROM oauth_login_requests WHERE code_hash = $1`,
    [codeHash],
  );
  return rows[0];
}

/** Claim the code for one exchange; false when it was already claimed or has expired. */
export async function claimLoginCode(db: Queryable, id: string): Promise<boolean> {
  const rows = await db.query(
    `UPDATE oauth_login_requests SET exchanged_at = now()
     WHERE id = $1 AND exchanged_at IS NULL AND expires_at > now() RETURNING id`,
    [id],
  );
  return rows.length === 1;
}

export async function setLoginSession(db: Queryable, id: string, sessionId: string): Promise<void> {
  await db.query('UPDATE oauth_login_requests SET session_id = $2 WHERE id = $1', [id, sessionId]);
}

/** An organization by id, else by name when exactly one has it. */
export async function findOrganizationByIdOrName(db: Queryable, value: string): Promise<string | undefined> {
  const rows = await db.query<{ id: string }>(
    'SELECT id FROM organizations WHERE id = $1 OR name = $1 ORDER BY (id = $1) DESC, created_at LIMIT 2',
    [value],
  );
  if (rows[0]?.id === value || rows.length === 1) return rows[0].id;
  return undefined;
}

/**
 * The internal user a provider subject is in `organizationId`, if known, its user row locked
 * (`FOR NO KEY UPDATE`: the login updates its profile) until the transaction ends. The user
 * is locked before the identity is touched, the order a user deletion takes them in (user
 * row, then the identity by cascade), so a login and a deletion wait for each other instead
 * of deadlocking; a deletion under way makes this wait and then find nothing.
 */
export async function lockIdentityUser(
  tx: Queryable,
  organizationId: string,
  issuer: string,
  subject: string,
): Promise<string | undefined> {
  const rows = await tx.query<{ user_id: string }>(
    `SELECT u.id AS user_id FROM oauth_identities i
     JOIN users u ON u.organization_id = i.organization_id AND u.id = i.user_id
     WHERE i.organization_id = $1 AND i.issuer = $2 AND i.subject = $3 FOR NO KEY UPDATE OF u`,
    [organizationId, issuer, subject],
  );
  return rows[0]?.user_id;
}

/**
 * First logins of one person take turns (a transaction-scoped advisory lock on the identity):
 * the second finds the first's identity once it commits, instead of making a user of its own
 * that it then cannot link.
 */
export async function lockIdentityKey(
  tx: Queryable,
  organizationId: string,
  issuer: string,
  subject: string,
): Promise<void> {
  await tx.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [
    JSON.stringify(['oauth_identity', organizationId, issuer, subject]),
  ]);
}

/**
 * Link a subject to a user, answering the linked user from the same statement: `userId`, or
 * the user of a link made meanwhile (never a read after it, which could find nothing).
 */
export async function linkIdentity(
  tx: Queryable,
  i: { organizationId: string; issuer: string; subject: string; userId: string },
): Promise<string> {
  const rows = await tx.query<{ user_id: string }>(
    `INSERT INTO oauth_identities (id, organization_id, issuer, subject, user_id) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (organization_id, issuer, subject) DO UPDATE SET last_login_at = now() RETURNING user_id`,
    [newId(), i.organizationId, i.issuer, i.subject, i.userId],
  );
  return rows[0].user_id;
}

export async function touchIdentity(
  db: Queryable,
  organizationId: string,
  issuer: string,
  subject: string,
): Promise<void> {
  await db.query(
    'UPDATE oauth_identities SET last_login_at = now() WHERE organization_id = $1 AND issuer = $2 AND subject = $3',
    [organizationId, issuer, subject],
  );
}

export interface Profile {
  email: string | null;
  displayName: string | null;
  imageUrl: string | null;
}

/** Refresh the profile fields from the provider (a value the provider no longer sends is kept). */
export async function updateUserProfile(
  db: Queryable,
  organizationId: string,
  userId: string,
  p: Profile,
): Promise<void> {
  await db.query(
    `UPDATE users SET email = COALESCE($3, email), display_name = COALESCE($4, display_name),
       image_url = COALESCE($5, image_url), updated_at = now()
     WHERE organization_id = $1 AND id = $2`,
    [organizationId, userId, p.email, p.displayName, p.imageUrl],
  );
}
