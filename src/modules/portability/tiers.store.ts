import type { Queryable } from '../../platform/db/index.ts';
import { memoryColumns, type MemoryRow } from '../memories/index.ts';
import { scopeSql, scopeUnion, type SyncScope } from './sync.scope.ts';

/**
 * The scope's most recently changed memories (by feed position, newest first), at most
 * `limit`: read through the feed indexes, like the delta.
 */
export async function recentMemories(db: Queryable, scope: SyncScope, limit: number): Promise<MemoryRow[]> {
  const params: unknown[] = [limit];
  const part = (where: string) =>
    `(SELECT ${memoryColumns}, sync_xid, sync_seq FROM memories m WHERE ${where}
      ORDER BY m.sync_xid DESC, m.sync_seq DESC LIMIT $1)`;
  const sql = scopeUnion(scope, params, part);
  const rows = await db.query<MemoryRow & { sync_xid: string; sync_seq: string }>(
    `SELECT * FROM (${sql}) x ORDER BY x.sync_xid DESC, x.sync_seq DESC LIMIT $1`,
    params,
  );
  return rows.map(({ sync_xid: _x, sync_seq: _s, ...row }) => row);
}

/** The scope's goal and task memories (metadata.category), most recently updated first. */
export async function goalMemories(db: Queryable, scope: SyncScope, limit: number): Promise<MemoryRow[]> {
  const params: unknown[] = [limit];
  return db.query<MemoryRow>(
    `SELECT ${memoryColumns} FROM memories m
     WHERE ${scopeSql('m', scope, params)}
       AND (m.metadata @> '{"category":"goal"}'::jsonb OR m.metadata @> '{"category":"task"}'::jsonb)
     ORDER BY m.updated_at DESC LIMIT $1`,
    params,
  );
}

/** Memories among `ids` in the scope (any order). */
export async function memoriesInScope(db: Queryable, scope: SyncScope, ids: string[]): Promise<MemoryRow[]> {
  if (!ids.length) return [];
  const params: unknown[] = [ids];
  return db.query<MemoryRow>(
    `SELECT ${memoryColumns} FROM memories m WHERE m.id = ANY($1::text[]) AND ${scopeSql('m', scope, params)}`,
    params,
  );
}

/**
 * How often each memory was among a search's results since `since` (query_log.result_ids):
 * the searches of one user, or of the whole organization; the most retrieved first, at most
 * `limit`. Who may read them is decided afterwards, on the memories themselves.
 */
export async function retrievalCounts(
  db: Queryable,
  organizationId: string,
  userId: string | null,
  since: Date,
  limit: number,
): Promise<Map<string, number>> {
  const params: unknown[] = [organizationId, since, limit];
  let user = '';
  if (userId) {
    params.push(userId);
    user = `AND q.user_id = $${params.length}`;
  }
  const rows = await db.query<{ id: string; n: number }>(
    `SELECT r.id, count(*)::int AS n
     FROM query_log q CROSS JOIN LATERAL unnest(q.result_ids) AS r(id)
     WHERE q.organization_id = $1 AND q.created_at >= $2 ${user}
     GROUP BY r.id ORDER BY n DESC, r.id LIMIT $3`,
    params,
  );
  return new Map(rows.map((r) => [r.id, r.n]));
}
