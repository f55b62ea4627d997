import type { Queryable } from '../../platform/db/index.ts';
import { memoryColumns, type MemoryRow, type Reader } from '../memories/index.ts';

/** Where an export or an import's duplicate check looks: the organization, a namespace key's namespace. */
export interface OmoScope {
  organizationId: string;
  namespaceId: string | null;
}

/**
 * The memories among `ids` the caller may read: in the scope and, for an end user's own token,
 * theirs or shared with them and not flagged (as GET /v1/memory/{id}). Another tenant's id is
 * simply not among the rows.
 */
export async function readableMemories(
  db: Queryable,
  scope: OmoScope,
  ids: string[],
  reader?: Reader,
): Promise<MemoryRow[]> {
  if (!ids.length) return [];
  const params: unknown[] = [ids, scope.organizationId];
  const where = ['id = ANY($1::text[])', 'organization_id = $2'];
  if (scope.namespaceId) {
    params.push(scope.namespaceId);
    where.push(`namespace_id = $${params.length}`);
  }
  if (reader) {
    params.push(reader.userId, reader.entities);
    where.push(`(user_id = $${params.length - 1} OR (acl_read && $${params.length}::text[] AND risk <> 'flagged'))`);
  }
  return db.query<MemoryRow>(`SELECT ${memoryColumns} FROM memories WHERE ${where.join(' AND ')}`, params);
}

/** A stored memory an import would duplicate, and by what. */
export interface Duplicate {
  id: string;
  omo_id: string | null;
  user_id: string;
  content: string;
}

/**
 * Memories in the scope an import would duplicate (skip_duplicates): one whose id or
 * metadata.omo_id is among `keys`, or one of `owners` whose content is among `contents`. With
 * `ownerOnly` (an end user's token), only that user's memories are looked at.
 */
export async function findDuplicates(
  db: Queryable,
  scope: OmoScope,
  look: { keys: string[]; owners: string[]; contents: string[]; ownerOnly?: string },
): Promise<Duplicate[]> {
  const params: unknown[] = [scope.organizationId, look.keys, look.owners, look.contents];
  const where = ['organization_id = $1'];
  if (scope.namespaceId) {
    params.push(scope.namespaceId);
    where.push(`namespace_id = $${params.length}`);
  }
  if (look.ownerOnly) {
    params.push(look.ownerOnly);
    where.push(`user_id = $${params.length}`);
  }
  // Three lookups, each by an index: the primary key, the imported memories' omo_id (partial
  // index of migration 0023), and the owners' memories (their content compared there).
  return db.query<Duplicate>(
    `SELECT id, metadata->>'omo_id' AS omo_id, user_id, content FROM memories
     WHERE ${where.join(' AND ')}
       AND (id = ANY($2::text[])
            OR (metadata ? 'omo_id' AND metadata->>'omo_id' = ANY($2::text[]))
            OR (user_id = ANY($3::text[]) AND content = ANY($4::text[])))`,
    params,
  );
}
