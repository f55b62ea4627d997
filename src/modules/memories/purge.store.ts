/**
 * Deleting memories with everything that hangs off them, counted (the deletion receipt, issue #22).
 *
 * The foreign keys remove chunks (and, by trigger, their BM25 postings), graph links (and, by
 * trigger, nodes no memory links to any more), the memories' relationships and transforms. Rows
 * that name a memory without a foreign key (lifecycle events, webhook deliveries, jobs, feedback
 * signals) would outlive it: they are deleted here, in the same transaction. Sync tombstones are
 * the one exception by design (a replica must learn of the delete; docs/sync.md).
 */
import type { Queryable } from '../../platform/db/index.ts';
import { deleteEventsOf } from '../../platform/events/index.ts';
import { deleteIdleJobsOf } from '../../platform/jobs/index.ts';
import type { ReceiptPart } from '../../shared/receipt.ts';

export interface PurgedMemory {
  id: string;
  content_bytes: number;
  created_at: Date;
}

/**
 * Delete the memories matching `where` (SQL over `memories`, with `params`) in the caller's
 * transaction, and what only they referenced; the deleted rows and the receipt's counts.
 */
export async function purgeMemories(
  tx: Queryable,
  organizationId: string,
  where: string,
  params: unknown[],
): Promise<{ rows: PurgedMemory[]; receipt: ReceiptPart }> {
  const doomed = await tx.query<PurgedMemory & { batch_id: string | null }>(
    `SELECT id, content_bytes, created_at, batch_id FROM memories WHERE ${where} ORDER BY id FOR UPDATE`,
    params,
  );
  if (doomed.length === 0) return { rows: [], receipt: {} };
  const ids = doomed.map((m) => m.id);
  const batches = [...new Set(doomed.flatMap((m) => (m.batch_id ? [m.batch_id] : [])))];

  const [before] = await tx.query<{
    chunks: number;
    vectors: number;
    graph_links: number;
    transforms: number;
    nodes: string[];
  }>(
    `SELECT
       (SELECT count(*) FROM memory_chunks WHERE memory_id = ANY($1))::int AS chunks,
       (SELECT coalesce(sum((embedding IS NOT NULL)::int + (embedding2 IS NOT NULL)::int), 0)
          FROM memory_chunks WHERE memory_id = ANY($1))::int AS vectors,
       (SELECT count(*) FROM memory_nodes WHERE memory_id = ANY($1))::int AS graph_links,
       (SELECT count(*) FROM memory_transforms WHERE memory_id = ANY($1))::int AS transforms,
       (SELECT coalesce(array_agg(DISTINCT node_id), '{}') FROM memory_nodes WHERE memory_id = ANY($1)) AS nodes`,
    [ids],
  );
  // Relationships that can go: the memories' own, and those touching a node that may be pruned.
  const edgesWhere = 'memory_id = ANY($1) OR source_id = ANY($2) OR target_id = ANY($2)';
  const [{ n: edgesBefore }] = await tx.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM graph_edges WHERE ${edgesWhere}`,
    [ids, before.nodes],
  );

  const deliveries = await tx.query<{ id: string }>(
    'DELETE FROM webhook_deliveries WHERE organization_id = $1 AND memory_id = ANY($2) RETURNING id',
    [organizationId, ids],
  );
  const jobs = await deleteIdleJobsOf(tx, organizationId, [...ids, ...deliveries.map((d) => d.id)]);
  const events = await deleteEventsOf(tx, organizationId, { memoryIds: ids });
  const signals = await tx.query(
    'DELETE FROM feedback_signals WHERE organization_id = $1 AND memory_id = ANY($2) RETURNING memory_id',
    [organizationId, ids],
  );
  await tx.query('DELETE FROM memories WHERE id = ANY($1)', [ids]);
  const batch = await purgeEmptyBatches(tx, organizationId, batches);

  const [after] = await tx.query<{ nodes: number; edges: number }>(
    `SELECT (SELECT count(*) FROM graph_nodes WHERE id = ANY($2))::int AS nodes,
            (SELECT count(*) FROM graph_edges WHERE ${edgesWhere})::int AS edges`,
    [ids, before.nodes],
  );
  return {
    rows: doomed.map(({ id, content_bytes, created_at }) => ({ id, content_bytes, created_at })),
    receipt: {
      memories: ids.length,
      chunks: before.chunks,
      vectors: before.vectors,
      graph_links: before.graph_links,
      graph_nodes: before.nodes.length - after.nodes,
      relationships: edgesBefore - after.edges,
      transforms: before.transforms,
      feedback_signals: signals.length,
      events: events + batch.events,
      webhook_deliveries: deliveries.length + batch.deliveries,
      jobs: jobs + batch.jobs,
    },
  };
}

/**
 * A batch none of whose memories is left, and which is no document upload (the upload keeps its
 * own batch record until it is deleted): its batch events and webhook delivery go too. A batch
 * whose memories were kept (a namespace deleted with delete_memories=false) keeps its records.
 */
export async function purgeEmptyBatches(tx: Queryable, organizationId: string, batches: string[]) {
  if (batches.length === 0) return { events: 0, deliveries: 0, jobs: 0 };
  const [{ empty }] = await tx.query<{ empty: string[] }>(
    `SELECT coalesce(array_agg(b), '{}') AS empty FROM unnest($2::text[]) AS b
     WHERE NOT EXISTS (SELECT 1 FROM memories m WHERE m.organization_id = $1 AND m.batch_id = b)
       AND NOT EXISTS (SELECT 1 FROM document_uploads d WHERE d.organization_id = $1 AND d.id = b)`,
    [organizationId, batches],
  );
  return purgeBatchRecords(tx, organizationId, empty);
}

/** The events and webhook deliveries (and their idle jobs) of these batches; how many of each. */
export async function purgeBatchRecords(tx: Queryable, organizationId: string, batches: string[]) {
  if (batches.length === 0) return { events: 0, deliveries: 0, jobs: 0 };
  const deliveries = await tx.query<{ id: string }>(
    'DELETE FROM webhook_deliveries WHERE organization_id = $1 AND batch_id = ANY($2) RETURNING id',
    [organizationId, batches],
  );
  const jobs = await deleteIdleJobsOf(
    tx,
    organizationId,
    deliveries.map((d) => d.id),
  );
  const events = await deleteEventsOf(tx, organizationId, { batchIds: batches });
  return { events, deliveries: deliveries.length, jobs };
}
