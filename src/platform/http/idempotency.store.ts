/** All SQL of idempotency keys (migrations/0028_idempotency_keys.sql). */
import type { Queryable } from '../db/index.ts';

export interface IdempotencyScope {
  organizationId: string;
  /** The credential's namespace, '' for an organization-wide credential. */
  namespaceKey: string;
  key: string;
}

export interface StoredResponse {
  request_hash: string;
  status: 'pending' | 'done';
  response_status: number | null;
  response_type: string | null;
  response_body: string | null;
}

/**
 * Claim the key for this request in one statement: a new row, or an expired one (or a pending
 * one abandoned for `pendingMs`, its request crashed) taken over. True when claimed; false when
 * a live row holds the key (read it with `findIdempotencyKey`). Racing claims meet at the
 * primary key, so exactly one of them wins.
 */
export async function claimIdempotencyKey(
  db: Queryable,
  s: IdempotencyScope,
  requestHash: string,
  claimId: string,
  ttlMs: number,
  pendingMs: number,
): Promise<boolean> {
  const rows = await db.query(
    `INSERT INTO idempotency_keys AS k
       (organization_id, namespace_key, idempotency_key, request_hash, claim_id, expires_at)
     VALUES ($1, $2, $3, $4, $5, now() + $6 * interval '1 millisecond')
     ON CONFLICT (organization_id, namespace_key, idempotency_key) DO UPDATE
       SET request_hash = excluded.request_hash, claim_id = excluded.claim_id, status = 'pending',
           response_status = NULL, response_type = NULL, response_body = NULL,
           created_at = now(), expires_at = excluded.expires_at
       WHERE k.expires_at <= now()
          OR (k.status = 'pending' AND k.created_at < now() - $7 * interval '1 millisecond')
     RETURNING 1`,
    [s.organizationId, s.namespaceKey, s.key, requestHash, claimId, ttlMs, pendingMs],
  );
  return rows.length === 1;
}

/** The live row holding the key, if any. */
export async function findIdempotencyKey(db: Queryable, s: IdempotencyScope): Promise<StoredResponse | undefined> {
  const [row] = await db.query<StoredResponse>(
    `SELECT request_hash, status, response_status, response_type, response_body FROM idempotency_keys
     WHERE organization_id = $1 AND namespace_key = $2 AND idempotency_key = $3 AND expires_at > now()`,
    [s.organizationId, s.namespaceKey, s.key],
  );
  return row;
}

/** Remember the successful response of the claim (only its own claim: one taken over is left alone). */
export async function completeIdempotencyKey(
  db: Queryable,
  s: IdempotencyScope,
  claimId: string,
  response: { status: number; type: string; body: string },
): Promise<void> {
  await db.query(
    `UPDATE idempotency_keys SET status = 'done', response_status = $5, response_type = $6, response_body = $7
     WHERE organization_id = $1 AND namespace_key = $2 AND idempotency_key = $3 AND claim_id = $4`,
    [s.organizationId, s.namespaceKey, s.key, claimId, response.status, response.type, response.body],
  );
}

/** Give the key back after a failed request, so the caller may retry with it. */
export async function releaseIdempotencyKey(db: Queryable, s: IdempotencyScope, claimId: string): Promise<void> {
  await db.query(
    `DELETE FROM idempotency_keys
     WHERE organization_id = $1 AND namespace_key = $2 AND idempotency_key = $3 AND claim_id = $4
       AND status = 'pending'`,
    [s.organizationId, s.namespaceKey, s.key, claimId],
  );
}

/** Retention: delete expired keys; how many. */
export async function pruneIdempotencyKeys(db: Queryable): Promise<number> {
  const [{ n }] = await db.query<{ n: number }>(
    `WITH d AS (DELETE FROM idempotency_keys WHERE expires_at <= now() RETURNING 1) SELECT count(*)::int AS n FROM d`,
  );
  return n;
}
