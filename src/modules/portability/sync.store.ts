import type { Queryable } from '../../platform/db/index.ts';
import { memoryColumns, type MemoryRow } from '../memories/index.ts';
import type { Position } from './cursor.ts';
import { scopeSql, scopeUnion, type SyncScope } from './sync.scope.ts';

/**
 * Where the feed stands now: `xmin`, the oldest transaction still running (every change of a
 * transaction below it is final), and the organization's horizon (the newest tombstone pruned
 * by retention), if any.
 */
export async function feedState(
  db: Queryable,
  organizationId: string,
): Promise<{ xmin: bigint; horizon: Position | null }> {
  const [r] = await db.query<{ xmin: string; hxid: string | null; hseq: string | null }>(
    `SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS xmin, h.xid::text AS hxid, h.seq::text AS hseq
     FROM (SELECT 1) one LEFT JOIN sync_horizon h ON h.organization_id = $1`,
    [organizationId],
  );
  return {
    xmin: BigInt(r.xmin),
    horizon: r.hxid !== null && r.hseq !== null ? { xid: BigInt(r.hxid), seq: BigInt(r.hseq) } : null,
  };
}

export type LiveChange = MemoryRow & { sync_xid: string; sync_seq: string };

/** Memories in the scope whose position is after `after` and below `xmin`, in position order, at most `limit`. */
export async function liveChanges(
  db: Queryable,
  scope: SyncScope,
  after: Position | null,
  xmin: bigint,
  limit: number,
): Promise<LiveChange[]> {
  const params: unknown[] = [xmin.toString(), after?.xid.toString() ?? '-1', after?.seq.toString() ?? '-1', limit];
  const window = `m.sync_xid < $1::bigint AND (m.sync_xid, m.sync_seq) > ($2::bigint, $3::bigint)`;
  const part = (where: string) =>
    `(SELECT ${memoryColumns}, sync_xid::text, sync_seq::text FROM memories m
      WHERE ${where} AND ${window} ORDER BY m.sync_xid, m.sync_seq LIMIT $4)`;
  const sql = scopeUnion(scope, params, part);
  return db.query<LiveChange>(
    `SELECT * FROM (${sql}) x ORDER BY x.sync_xid::bigint, x.sync_seq::bigint LIMIT $4`,
    params,
  );
}

export interface Tombstone {
  memory_id: string;
  xid: string;
  seq: string;
  deleted_at: Date;
}

/** Tombstones of memories that were in the scope, after `after` and below `xmin`, in order. */
export async function tombstones(
  db: Queryable,
  scope: SyncScope,
  after: Position,
  xmin: bigint,
  limit: number,
): Promise<Tombstone[]> {
  const params: unknown[] = [xmin.toString(), after.xid.toString(), after.seq.toString(), limit];
  return db.query<Tombstone>(
    `SELECT t.memory_id, t.xid::text, t.seq::text, t.deleted_at FROM memory_tombstones t
     WHERE ${scopeSql('t', scope, params)} AND t.xid < $1::bigint AND (t.xid, t.seq) > ($2::bigint, $3::bigint)
     ORDER BY t.xid, t.seq LIMIT $4`,
    params,
  );
}

/**
 * The primary embedding of each memory: the mean of its chunks' primary vectors (one chunk:
 * its vector), of the model most of its chunks carry. Unnormalised; text `[x,y,…]`.
 */
export async function primaryEmbeddings(
  db: Queryable,
  organizationId: string,
  memoryIds: string[],
): Promise<Map<string, { vector: string; model: string }>> {
  if (!memoryIds.length) return new Map();
  const rows = await db.query<{ memory_id: string; vector: string; model: string }>(
    `SELECT DISTINCT ON (memory_id) memory_id, avg(embedding)::text AS vector, embedding_model AS model
     FROM memory_chunks
     WHERE organization_id = $1 AND memory_id = ANY($2::text[]) AND embedding IS NOT NULL
     GROUP BY memory_id, embedding_model
     ORDER BY memory_id, count(*) DESC, embedding_model`,
    [organizationId, memoryIds],
  );
  return new Map(rows.map((r) => [r.memory_id, { vector: r.vector, model: r.model }]));
}

/**
 * Retention: tombstones older than `days` go, and each organization's horizon moves to the
 * newest position pruned (a cursor before it may have missed a delete). One statement.
 */
export async function pruneTombstones(db: Queryable, days: number): Promise<number> {
  const rows = await db.query<{ n: number }>(
    `WITH gone AS (
       DELETE FROM memory_tombstones WHERE deleted_at < now() - make_interval(days => $1)
       RETURNING organization_id, xid, seq
     ), newest AS (
       SELECT DISTINCT ON (organization_id) organization_id, xid, seq FROM gone
       ORDER BY organization_id, xid DESC, seq DESC
     ), moved AS (
       INSERT INTO sync_horizon AS h (organization_id, xid, seq) SELECT organization_id, xid, seq FROM newest
       ON CONFLICT (organization_id) DO UPDATE SET xid = EXCLUDED.xid, seq = EXCLUDED.seq
       WHERE (h.xid, h.seq) < (EXCLUDED.xid, EXCLUDED.seq)
     )
     SELECT count(*)::int AS n FROM gone`,
    [days],
  );
  return rows[0].n;
}
