import type { Queryable } from '../../platform/db/index.ts';

/** One end of a relationship, as the graph shows it. */
export interface RelationshipEnd {
  id: string;
  type: string;
  name: string;
  schema_id: string | null;
}

/** A stored relationship with both ends and the memory that produced it. */
export interface RelationshipRow {
  id: string;
  type: string;
  properties: Record<string, unknown>;
  memory_id: string;
  source: RelationshipEnd;
  target: RelationshipEnd;
}

/**
 * The relationships these memories produced, newest first, at most `limit` (a user's graph:
 * who may see a relationship is decided by the memories passed in, which the caller may read).
 * The (memory_id, …) unique index serves the lookup.
 */
export async function relationshipsOfMemories(
  db: Queryable,
  organizationId: string,
  memoryIds: string[],
  limit: number,
): Promise<RelationshipRow[]> {
  if (!memoryIds.length || limit <= 0) return [];
  return db.query<RelationshipRow>(
    `SELECT e.id, e.type, e.properties, e.memory_id,
            json_build_object('id', s.id, 'type', s.type, 'name', s.name, 'schema_id', s.schema_id) AS source,
            json_build_object('id', t.id, 'type', t.type, 'name', t.name, 'schema_id', t.schema_id) AS target
     FROM graph_edges e
     JOIN graph_nodes s ON s.id = e.source_id
     JOIN graph_nodes t ON t.id = e.target_id
     WHERE e.organization_id = $1 AND e.memory_id = ANY($2::text[])
     ORDER BY e.created_at DESC, e.id LIMIT $3`,
    [organizationId, memoryIds, limit],
  );
}
