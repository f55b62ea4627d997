/**
 * The SQL of keeping memories true (truth.ts): owner locks, exact and near duplicates, and the
 * links between a memory and the older ones it supersedes or repeats (the facts memories state:
 * facts.store.ts). Every statement takes the organization.
 */
import { toVector, type Queryable } from '../../platform/db/index.ts';

/** One owner's memories: the unit of every comparison here. */
export interface Owner {
  userId: string;
  namespaceId: string | null;
}

/**
 * Serialise writes of the same owners until the transaction ends (a transaction-level advisory
 * lock per owner, taken in one order so two writers of several owners cannot deadlock): two
 * requests storing the same content at once must not both find it absent.
 */
export async function lockOwners(tx: Queryable, organizationId: string, userIds: string[]): Promise<void> {
  const keys = [...new Set(userIds)].sort();
  if (!keys.length) return;
  await tx.query(
    `SELECT pg_advisory_xact_lock(hashtextextended('engram.owner:' || $1 || ':' || u, 0))
     FROM unnest($2::text[]) AS u ORDER BY u`,
    [organizationId, keys],
  );
}

/**
 * For each item, a current memory of its owner with the same folded content (migration 0030's
 * `content_key`; normally one: a write that found it stored no other unless dedupe was off). A
 * superseded memory is not current: saying again what was once true and then replaced is news,
 * not a duplicate.
 */
export async function exactDuplicates(
  tx: Queryable,
  organizationId: string,
  items: (Owner & { content: string })[],
): Promise<(string | null)[]> {
  if (!items.length) return [];
  const rows = await tx.query<{ n: string; id: string }>(
    `SELECT x.n, d.id
     FROM unnest($2::text[], $3::text[], $4::text[]) WITH ORDINALITY AS x(usr, ns, content, n)
     CROSS JOIN LATERAL (SELECT engram_content_key(x.content) AS k OFFSET 0) q
     CROSS JOIN LATERAL (
       -- The key alone asks the index (OFFSET 0: the owner's conditions stay outside, where
       -- they cannot draw the planner to the owner's index and a scan of all its memories).
       SELECT m.id FROM (
         SELECT id, user_id, namespace_id FROM memories
         WHERE content_key = q.k AND organization_id = $1 OFFSET 0) m
       WHERE m.user_id = x.usr AND m.namespace_id IS NOT DISTINCT FROM x.ns
         AND NOT EXISTS (SELECT 1 FROM memory_lineage l WHERE l.prior_id = m.id AND l.kind = 'supersedes')
       LIMIT 1) d`,
    [organizationId, items.map((i) => i.userId), items.map((i) => i.namespaceId), items.map((i) => i.content)],
  );
  const out: (string | null)[] = items.map(() => null);
  for (const r of rows) out[Number(r.n) - 1] = r.id;
  if (!rows.length) return out;
  // The write answers with these rows: a delete must not remove them before it commits (a
  // delete of the memory takes no owner lock). A key-share lock makes a delete under way
  // finish first, and a memory it removed is no duplicate: the item is stored.
  const kept = new Set(
    (
      await tx.query<{ id: string }>(`SELECT id FROM memories WHERE id = ANY($1::text[]) FOR KEY SHARE`, [
        rows.map((r) => r.id),
      ])
    ).map((r) => r.id),
  );
  return out.map((id) => (id && kept.has(id) ? id : null));
}

/** A near-duplicate candidate: an older memory of the owner, its cosine similarity and its content. */
export interface NearMemory {
  n: number;
  id: string;
  similarity: number;
  content: string;
}

/**
 * The `k` memories of each item's owner nearest to its vector (first chunks of other memories,
 * by the primary embedding), with their analysed terms. The user's entries of the scan index
 * answer it (the shape of search's nearestSql).
 */
export async function nearestOwned(
  tx: Queryable,
  organizationId: string,
  model: string,
  items: (Owner & { memoryId: string; vector: number[] })[],
  k: number,
): Promise<NearMemory[]> {
  if (!items.length) return [];
  const dims = items[0].vector.length;
  const rows = await tx.query<{ n: string; id: string; d: number; content: string }>(
    `SELECT x.n, c.memory_id AS id, c.d, (SELECT m.content FROM memories m WHERE m.id = c.memory_id) AS content
     FROM unnest($2::text[], $3::text[], $4::text[], $5::text[]) WITH ORDINALITY AS x(usr, ns, self, vec, n)
     -- The vector parsed once per item (OFFSET 0 keeps the planner from inlining the cast into
     -- the distance, where it was parsed again for every chunk compared: 100 ms for 100 chunks).
     CROSS JOIN LATERAL (SELECT x.vec::vector(${dims}) AS v OFFSET 0) q
     CROSS JOIN LATERAL (
       SELECT y.memory_id, y.d FROM (
         SELECT c.memory_id, c.namespace_id, c.chunk_index,
                (c.embedding::vector(${dims})) <=> q.v AS d
         FROM memory_chunks c
         WHERE c.organization_id = $1 AND c.user_id = x.usr AND c.embedding_model = $6 AND c.memory_id <> x.self
         ORDER BY d LIMIT $7) y
       WHERE y.namespace_id IS NOT DISTINCT FROM x.ns AND y.chunk_index = 0) c`,
    [
      organizationId,
      items.map((i) => i.userId),
      items.map((i) => i.namespaceId),
      items.map((i) => i.memoryId),
      items.map((i) => toVector(i.vector)),
      model,
      k,
    ],
  );
  return rows.map((r) => ({
    n: Number(r.n) - 1,
    id: r.id,
    similarity: 1 - Number(r.d),
    content: r.content,
  }));
}

/** A link from a newer memory to an older one. */
export interface Link {
  memoryId: string;
  priorId: string;
  kind: 'supersedes' | 'duplicate';
  validTo: Date | null;
  reason: string;
}

export async function insertLinks(tx: Queryable, organizationId: string, links: Link[]): Promise<void> {
  if (!links.length) return;
  await tx.query(
    `INSERT INTO memory_lineage (prior_id, memory_id, organization_id, kind, valid_to, reason)
     SELECT x.prior, x.memory, $1, x.kind, x.valid_to, x.reason
     FROM unnest($2::text[], $3::text[], $4::text[], $5::timestamptz[], $6::text[])
          AS x(prior, memory, kind, valid_to, reason)
     ON CONFLICT DO NOTHING`,
    [
      organizationId,
      links.map((l) => l.priorId),
      links.map((l) => l.memoryId),
      links.map((l) => l.kind),
      links.map((l) => (l.validTo ? l.validTo.toISOString() : null)),
      links.map((l) => l.reason),
    ],
  );
}

/** Memories of the organization by id with their owner and time (explicit `supersedes`). */
export async function ownersOf(
  tx: Queryable,
  organizationId: string,
  ids: string[],
): Promise<Map<string, Owner & { at: Date }>> {
  const out = new Map<string, Owner & { at: Date }>();
  if (!ids.length) return out;
  const rows = await tx.query<{ id: string; user_id: string; namespace_id: string | null; at: Date }>(
    `SELECT id, user_id, namespace_id, coalesce(occurred_at, created_at) AS at
     FROM memories WHERE organization_id = $1 AND id = ANY($2::text[])`,
    [organizationId, ids],
  );
  for (const r of rows) out.set(r.id, { userId: r.user_id, namespaceId: r.namespace_id, at: new Date(r.at) });
  return out;
}
