import type { Queryable } from '../../platform/db/index.ts';

// Memory-to-memory links of the graph: which other memories a memory relates to.

/** The user's memories stored just before this one, newest first (`$previous`, `$context:N`). */
export async function previousMemoryIds(
  db: Queryable,
  m: { organization_id: string; user_id: string; created_at: Date; id: string },
  n: number,
): Promise<string[]> {
  if (n <= 0) return [];
  const rows = await db.query<{ id: string }>(
    `SELECT id FROM memories WHERE organization_id = $1 AND user_id = $2 AND (created_at, id) < ($3, $4)
     ORDER BY created_at DESC, id DESC LIMIT $5`,
    [m.organization_id, m.user_id, m.created_at, m.id, n],
  );
  return rows.map((r) => r.id);
}

/**
 * The user's `n` memories most similar to this one (cosine of the primary embeddings of their
 * first chunks, same model), for link_to_related_memories. Per user, so a scan is fine.
 */
export async function relatedMemoryIds(
  db: Queryable,
  m: { organization_id: string; user_id: string; id: string },
  n: number,
): Promise<string[]> {
  if (n <= 0) return [];
  const rows = await db.query<{ memory_id: string }>(
    `WITH q AS (SELECT embedding, embedding_model FROM memory_chunks
                WHERE memory_id = $1 AND chunk_index = 0 AND embedding IS NOT NULL)
     SELECT c.memory_id FROM memory_chunks c, q
     WHERE c.organization_id = $2 AND c.user_id = $3 AND c.memory_id <> $1
       AND c.chunk_index = 0 AND c.embedding_model = q.embedding_model
     ORDER BY c.embedding <=> q.embedding LIMIT $4`,
    [m.id, m.organization_id, m.user_id, n],
  );
  return rows.map((r) => r.memory_id);
}

/** Which of `ids` are memories of the organization (relationships may name memories by id). */
export async function existingMemoryIds(db: Queryable, organizationId: string, ids: string[]): Promise<Set<string>> {
  if (!ids.length) return new Set();
  const rows = await db.query<{ id: string }>(
    'SELECT id FROM memories WHERE organization_id = $1 AND id = ANY($2::text[])',
    [organizationId, ids],
  );
  return new Set(rows.map((r) => r.id));
}

/**
 * Link a memory to its own `Memory` node (made when another memory relates to it), so the node
 * and the relationships to it go when that memory is deleted.
 */
export async function linkOwnMemoryNode(
  tx: Queryable,
  organizationId: string,
  memoryId: string,
  nodeId: string,
): Promise<void> {
  await tx.query(
    `INSERT INTO memory_nodes (memory_id, node_id, organization_id, user_id)
     SELECT $1, $2, $3, user_id FROM memories WHERE id = $1 ON CONFLICT DO NOTHING`,
    [memoryId, nodeId, organizationId],
  );
}

/**
 * Lock the memory row and tell whether what its graph is built from (content, policy, consent,
 * namespace) is still what `read` saw. Other updates (metadata, ACL) do not invalidate a build.
 */
export async function stillCurrent(
  tx: Queryable,
  read: { id: string; content: string; policy: unknown; consent: string; namespace_id: string | null },
): Promise<boolean> {
  const rows = await tx.query<{ content: string; policy: unknown; consent: string; namespace_id: string | null }>(
    'SELECT content, policy, consent, namespace_id FROM memories WHERE id = $1 FOR UPDATE',
    [read.id],
  );
  const now = rows[0];
  return (
    !!now &&
    now.content === read.content &&
    now.consent === read.consent &&
    now.namespace_id === read.namespace_id &&
    JSON.stringify(now.policy) === JSON.stringify(read.policy)
  );
}
