/**
 * The SQL of the update decider's part (decider.ts): the older memories it is shown, read before
 * the write's transaction, and those it named, locked inside it.
 */
import { toVector, type Queryable } from '../../platform/db/index.ts';
import type { UpdateCandidate } from '../../platform/models/updater.ts';
import type { Owner } from './truth.store.ts';

/**
 * The `k` current (not superseded) memories of the owner nearest to `vector` by the primary
 * embedding (first chunks), with their content and time. The user's entries of the scan index
 * answer the inner query (the shape of truth.store nearestOwned); it reads more than `k` because
 * other namespaces', later chunks and superseded memories are left out after it.
 */
export async function decisionCandidates(
  db: Queryable,
  organizationId: string,
  model: string,
  owner: Owner & { vector: number[] },
  k: number,
): Promise<UpdateCandidate[]> {
  const dims = owner.vector.length;
  const rows = await db.query<{ id: string; content: string; at: Date }>(
    `SELECT m.id, m.content, coalesce(m.occurred_at, m.created_at) AS at
     FROM (
       SELECT c.memory_id, c.namespace_id, c.chunk_index,
              (c.embedding::vector(${dims})) <=> $4::vector(${dims}) AS d
       FROM memory_chunks c
       WHERE c.organization_id = $1 AND c.user_id = $2 AND c.embedding_model = $5
       ORDER BY d LIMIT $6) y
     JOIN memories m ON m.id = y.memory_id AND m.organization_id = $1
     WHERE y.namespace_id IS NOT DISTINCT FROM $3::text AND y.chunk_index = 0
       AND NOT EXISTS (SELECT 1 FROM memory_lineage l WHERE l.prior_id = m.id AND l.kind = 'supersedes')
     ORDER BY y.d, m.id LIMIT $7`,
    [organizationId, owner.userId, owner.namespaceId, toVector(owner.vector), model, k * 4, k],
  );
  return rows.map((r) => ({ id: r.id, content: r.content, at: new Date(r.at) }));
}

/**
 * The memories a decider named, with their owner and time, key-share locked until the write
 * commits: one deleted meanwhile is absent, never a failed link insert.
 */
export async function lockDecided(
  tx: Queryable,
  organizationId: string,
  ids: string[],
): Promise<Map<string, { userId: string; at: Date }>> {
  const out = new Map<string, { userId: string; at: Date }>();
  if (!ids.length) return out;
  const rows = await tx.query<{ id: string; user_id: string; at: Date }>(
    `SELECT id, user_id, coalesce(occurred_at, created_at) AS at
     FROM memories WHERE organization_id = $1 AND id = ANY($2::text[]) ORDER BY id FOR KEY SHARE`,
    [organizationId, ids],
  );
  for (const r of rows) out.set(r.id, { userId: r.user_id, at: new Date(r.at) });
  return out;
}
