/** The SQL of a memory's history: the versions PUT keeps and its supersession links. */
import type { Queryable } from '../../platform/db/index.ts';
import { MEMORY_COLUMNS, type MemoryRow } from './memories.store.ts';

/** The memory as it is now, locked until the transaction ends (a PUT keeps exactly this as the earlier version). */
export async function lockedMemory(tx: Queryable, organizationId: string, id: string): Promise<MemoryRow | undefined> {
  const rows = await tx.query<MemoryRow>(
    `SELECT ${MEMORY_COLUMNS} FROM memories WHERE id = $1 AND organization_id = $2 FOR UPDATE`,
    [id, organizationId],
  );
  return rows[0];
}

/** Keep `current` (the row before a PUT changes what it says) as the memory's next earlier version. */
export async function keepVersion(tx: Queryable, current: MemoryRow): Promise<void> {
  await tx.query(
    `INSERT INTO memory_versions
       (memory_id, version, organization_id, content, type, metadata, context, valid_from, valid_to)
     SELECT $1, coalesce((SELECT max(version) FROM memory_versions WHERE memory_id = $1), 0) + 1, $2, $3, $4,
            $5::jsonb, $6::jsonb, $7, now()`,
    [
      current.id,
      current.organization_id,
      current.content,
      current.type,
      JSON.stringify(current.metadata),
      current.context ? JSON.stringify(current.context) : null,
      current.updated_at,
    ],
  );
}

export interface VersionRow {
  version: number;
  content: string;
  type: string;
  metadata: Record<string, unknown>;
  context: { role: string; content: string }[] | null;
  valid_from: Date;
  valid_to: Date;
}

/** Earlier versions, newest first. */
export async function versionsOf(db: Queryable, memoryId: string): Promise<VersionRow[]> {
  return db.query<VersionRow>(
    `SELECT version, content, type, metadata, context, valid_from, valid_to
     FROM memory_versions WHERE memory_id = $1 ORDER BY version DESC`,
    [memoryId],
  );
}

export interface LinkRow {
  prior_id: string;
  memory_id: string;
  kind: 'supersedes' | 'duplicate';
  valid_to: Date | null;
  reason: string;
  created_at: Date;
}

/** Links from and to a memory, newest first. */
export async function linksOf(db: Queryable, organizationId: string, memoryId: string): Promise<LinkRow[]> {
  return db.query<LinkRow>(
    `SELECT prior_id, memory_id, kind, valid_to, reason, created_at FROM memory_lineage
     WHERE organization_id = $1 AND (prior_id = $2 OR memory_id = $2)
     ORDER BY coalesce(valid_to, created_at) DESC, created_at DESC`,
    [organizationId, memoryId],
  );
}
