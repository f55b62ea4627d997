import type { Queryable } from '../../platform/db/index.ts';

export interface SessionRow {
  id: string;
  organization_id: string;
  user_id: string;
  expires_at: Date;
}

/** A live session (unexpired, unrevoked) by token hash. */
export async function findLiveSession(db: Queryable, tokenHash: string): Promise<SessionRow | undefined> {
  const rows = await db.query<SessionRow>(
    `SELECT id, organization_id, user_id, expires_at FROM sessions
     WHERE token_hash = $1 AND revoked_at IS NULL AND expires_at > now()`,
    [tokenHash],
  );
  return rows[0];
}

export async function insertSession(
  db: Queryable,
  s: { id: string; organizationId: string; userId: string; tokenHash: string; expiresAt: Date },
): Promise<void> {
  await db.query(
    'INSERT INTO sessions (id, organization_id, user_id, token_hash, expires_at) VALUES ($1, $2, $3, $4, $5)',
    [s.id, s.organizationId, s.userId, s.tokenHash, s.expiresAt],
  );
}
