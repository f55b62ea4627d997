import type { Queryable } from '../../platform/db/index.ts';
import { MEMORY_COLUMNS, readerSql, scopeSql, type MemoryRow, type Scope } from './memories.store.ts';
import type { Reader } from './reader.ts';

/** What a page of GET /v1/memory is filtered by; every field is a SQL predicate. */
export interface ListFilter {
  /** Only this owner's memories. */
  ownerId: string | null;
  /** An end user: only what they own or an ACL shares with them (reader.ts). */
  reader?: Reader;
  /** JSON containment on metadata (`metadata @> …`, the GIN index of migration 0002). */
  metadata: Record<string, unknown> | null;
  createdAfter: Date | null;
  createdBefore: Date | null;
  /** Keyset: strictly after this (created_at, id) in newest-first order. */
  after: { createdAt: string; id: string } | null;
  limit: number;
}

/** A row with its exact creation time (UTC, microseconds), what the next cursor carries. */
export type ListedRow = MemoryRow & { created_key: string };

/**
 * One page, newest first by (created_at, id), read `limit + 1` deep so the caller knows
 * whether another page follows. Keyset, not OFFSET: a page costs the same however deep, and
 * memories added meanwhile neither repeat nor skip an item of the pages after the cursor.
 * A user's listing walks memories_user_idx (organization, user, created_at DESC).
 */
export async function listMemories(db: Queryable, scope: Scope, f: ListFilter): Promise<ListedRow[]> {
  const params: unknown[] = [];
  const where = [scopeSql(scope, params)];
  const $ = (v: unknown) => {
    params.push(v);
    return `$${params.length}`;
  };
  if (f.ownerId) where.push(`user_id = ${$(f.ownerId)}`);
  if (f.reader) where.push(readerSql(f.reader, params));
  if (f.metadata && Object.keys(f.metadata).length) where.push(`metadata @> ${$(JSON.stringify(f.metadata))}::jsonb`);
  // At the millisecond precision createdAt is shown in: "after" a memory's createdAt excludes that
  // memory, whose stored time has microseconds beyond it.
  if (f.createdAfter)
    where.push(`created_at >= ${$(f.createdAfter.toISOString())}::timestamptz + interval '1 millisecond'`);
  if (f.createdBefore) where.push(`created_at < ${$(f.createdBefore.toISOString())}::timestamptz`);
  if (f.after) where.push(`(created_at, id) < (${$(f.after.createdAt)}::timestamptz, ${$(f.after.id)}::text)`);
  return db.query<ListedRow>(
    `SELECT ${MEMORY_COLUMNS},
            to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS created_key
       FROM memories WHERE ${where.join(' AND ')}
      ORDER BY created_at DESC, id DESC LIMIT ${$(f.limit + 1)}::int`,
    params,
  );
}
