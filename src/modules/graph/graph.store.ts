import { newId } from '../../shared/ids.ts';
import type { Queryable } from '../../platform/db/index.ts';

export interface NodeRow {
  id: string;
  organization_id: string;
  namespace_key: string;
  type: string;
  name: string;
  properties: Record<string, unknown>;
  schema_id: string | null;
}

const COLUMNS = 'id, organization_id, namespace_key, type, name, properties, schema_id';
/** The same columns of alias `n`, for joins. */
const N_COLUMNS = COLUMNS.split(', ')
  .map((c) => `n.${c}`)
  .join(', ');

/** The identity a node is deduplicated by within its type: case and spacing do not matter. */
export const canonicalKey = (name: string) => name.normalize('NFKC').replace(/\s+/g, ' ').trim().toLowerCase();

export interface NodeUpsert {
  type: string;
  name: string;
  properties: Record<string, unknown>;
  schemaId: string | null;
}

/**
 * Insert nodes or merge each into the existing one with the same identity (newer property
 * values win), in one statement. Returns, per input node, its id and whether it was new
 * (`inserted` false: a duplicate found and reused). Inputs sharing an identity are merged
 * first, in order (one statement cannot update a row twice); rows are written in the order
 * given, so callers that sort them lock nodes in one order and cannot deadlock each other.
 */
export async function upsertNodes(
  tx: Queryable,
  organizationId: string,
  namespaceKey: string,
  nodes: NodeUpsert[],
): Promise<{ id: string; inserted: boolean }[]> {
  const identity = (n: NodeUpsert) => `${n.type}\u0000${canonicalKey(n.name)}`;
  const merged = new Map<string, NodeUpsert>();
  for (const n of nodes) {
    const prev = merged.get(identity(n));
    merged.set(
      identity(n),
      prev
        ? { ...prev, properties: { ...prev.properties, ...n.properties }, schemaId: n.schemaId ?? prev.schemaId }
        : n,
    );
  }
  const rows = [...merged.values()];
  if (!rows.length) return [];
  const out = await tx.query<{ id: string; type: string; canonical_key: string; inserted: boolean }>(
    `INSERT INTO graph_nodes (id, organization_id, namespace_key, type, name, canonical_key, properties, schema_id)
     SELECT x.id, $1, $2, x.type, x.name, x.key, x.props::jsonb, x.schema_id
     FROM unnest($3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[])
       WITH ORDINALITY AS x(id, type, name, key, props, schema_id, n)
     ORDER BY x.n
     ON CONFLICT (organization_id, namespace_key, type, canonical_key)
     DO UPDATE SET properties = graph_nodes.properties || EXCLUDED.properties,
                   schema_id = COALESCE(EXCLUDED.schema_id, graph_nodes.schema_id), updated_at = now()
     RETURNING id, type, canonical_key, (xmax = 0) AS inserted`,
    [
      organizationId,
      namespaceKey,
      rows.map(() => newId()),
      rows.map((n) => n.type),
      rows.map((n) => n.name),
      rows.map((n) => canonicalKey(n.name)),
      rows.map((n) => JSON.stringify(n.properties)),
      rows.map((n) => n.schemaId),
    ],
  );
  const byIdentity = new Map(out.map((r) => [`${r.type}\u0000${r.canonical_key}`, r]));
  // A node merged into an earlier input of this call counts as reused, as a second upsert would.
  const seen = new Set<string>();
  return nodes.map((n) => {
    const r = byIdentity.get(identity(n))!;
    const first = !seen.has(r.id);
    seen.add(r.id);
    return { id: r.id, inserted: r.inserted && first };
  });
}

/** Nodes of one type in an organization/namespace, for constraint matching (capped). */
export async function nodesOfType(
  db: Queryable,
  organizationId: string,
  namespaceKey: string,
  type: string,
  limit = 500,
): Promise<NodeRow[]> {
  return db.query<NodeRow>(
    `SELECT ${COLUMNS} FROM graph_nodes WHERE organization_id = $1 AND namespace_key = $2 AND type = $3
     ORDER BY updated_at DESC LIMIT $4`,
    [organizationId, namespaceKey, type, limit],
  );
}

/** Make `nodeIds` exactly the nodes linked to the memory (unlinked orphans are pruned by trigger). */
export async function setMemoryNodes(
  tx: Queryable,
  organizationId: string,
  memoryId: string,
  nodeIds: string[],
): Promise<void> {
  // One statement: the insert and the delete touch disjoint rows (the new set, the rest).
  // A memory's own Memory node stays linked: other memories' relationships point at it.
  await tx.query(
    `WITH linked AS (
       INSERT INTO memory_nodes (memory_id, node_id, organization_id, user_id)
         SELECT $1, unnest($2::text[]), $3, (SELECT user_id FROM memories WHERE id = $1) ON CONFLICT DO NOTHING
     )
     DELETE FROM memory_nodes WHERE memory_id = $1 AND NOT (node_id = ANY($2::text[]))
       AND node_id NOT IN (SELECT id FROM graph_nodes WHERE organization_id = $3 AND type = 'Memory' AND name = $1)`,
    [memoryId, nodeIds, organizationId],
  );
}

/**
 * Replace the relationships this memory produced. Two statements, not a DELETE in a CTE: the
 * sub-statements of one statement share a snapshot, so the INSERT's conflict check still saw
 * an unchanged relationship's old row, skipped the new one, and the DELETE then removed the
 * old: re-processing a memory lost every relationship it produced again.
 */
export async function setMemoryEdges(
  tx: Queryable,
  organizationId: string,
  memoryId: string,
  edges: { id: string; source: string; target: string; type: string; properties: Record<string, unknown> }[],
): Promise<void> {
  await tx.query('DELETE FROM graph_edges WHERE memory_id = $1', [memoryId]);
  if (!edges.length) return;
  await tx.query(
    `INSERT INTO graph_edges (id, organization_id, source_id, target_id, type, properties, memory_id)
     SELECT e.id, $1, e.source, e.target, e.type, e.props::jsonb, $2
     FROM unnest($3::text[], $4::text[], $5::text[], $6::text[], $7::text[]) AS e(id, source, target, type, props)
     ON CONFLICT DO NOTHING`,
    [
      organizationId,
      memoryId,
      edges.map((e) => e.id),
      edges.map((e) => e.source),
      edges.map((e) => e.target),
      edges.map((e) => e.type),
      edges.map((e) => JSON.stringify(e.properties)),
    ],
  );
}

/** The nodes linked to these memories, most linked first (search results' `nodes`). */
export async function nodesOfMemories(
  db: Queryable,
  organizationId: string,
  memoryIds: string[],
  limit: number,
  schemaId?: string,
): Promise<(NodeRow & { links: number })[]> {
  if (!memoryIds.length || limit <= 0) return [];
  const params: unknown[] = [organizationId, memoryIds, limit];
  let schema = '';
  if (schemaId) {
    params.push(schemaId);
    schema = `AND n.schema_id = $${params.length}`;
  }
  return db.query(
    `SELECT ${N_COLUMNS}, count(*)::int AS links
     FROM memory_nodes mn JOIN graph_nodes n ON n.id = mn.node_id
     WHERE mn.organization_id = $1 AND mn.memory_id = ANY($2::text[]) AND n.type <> 'Memory' ${schema}
     GROUP BY n.id ORDER BY links DESC, n.name LIMIT $3`,
    params,
  );
}

/**
 * Nodes whose canonical name is one of `keys`, in the organization (and namespace, when the
 * search is limited to one). Who may see what is decided on the memories these lead to.
 */
export async function matchNodes(
  db: Queryable,
  organizationId: string,
  namespaceKey: string | null,
  keys: string[],
  limit = 50,
): Promise<NodeRow[]> {
  if (!keys.length) return [];
  const params: unknown[] = [organizationId, keys, limit];
  let ns = '';
  if (namespaceKey !== null) {
    params.push(namespaceKey);
    ns = `AND namespace_key = $${params.length}`;
  }
  return db.query<NodeRow>(
    `SELECT ${COLUMNS} FROM graph_nodes
     WHERE organization_id = $1 AND canonical_key = ANY($2::text[]) AND type <> 'Memory' ${ns} LIMIT $3`,
    params,
  );
}

/** Graph size of an organization (bench and status). */
export async function graphCounts(
  db: Queryable,
  organizationId: string,
): Promise<{ nodes: number; edges: number; links: number }> {
  const [r] = await db.query<{ nodes: number; edges: number; links: number }>(
    `SELECT (SELECT count(*)::int FROM graph_nodes WHERE organization_id = $1) AS nodes,
            (SELECT count(*)::int FROM graph_edges WHERE organization_id = $1) AS edges,
            (SELECT count(*)::int FROM memory_nodes WHERE organization_id = $1) AS links`,
    [organizationId],
  );
  return r;
}

/** Nodes of one namespace (namespace deletion reports how many went). */
export async function countNamespaceNodes(db: Queryable, organizationId: string, namespaceId: string): Promise<number> {
  const [r] = await db.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM graph_nodes WHERE organization_id = $1 AND namespace_key = $2',
    [organizationId, namespaceId],
  );
  return r.n;
}

/** Delete every node of a namespace (their links and relationships go with them). */
export async function deleteNamespaceNodes(tx: Queryable, organizationId: string, namespaceId: string): Promise<void> {
  await tx.query('DELETE FROM graph_nodes WHERE organization_id = $1 AND namespace_key = $2', [
    organizationId,
    namespaceId,
  ]);
}

/**
 * For each of `nodeIds`, its neighbours of `targetType` over `edgeType` (outgoing: the node is
 * the source; incoming: the target; both), for `Type.via(EDGE->Target:prop)` searches.
 */
export async function neighboursVia(
  db: Queryable,
  organizationId: string,
  nodeIds: string[],
  v: { edge_type: string; target_type: string; direction: 'outgoing' | 'incoming' | 'both' },
): Promise<Map<string, NodeRow[]>> {
  const out = new Map<string, NodeRow[]>();
  if (!nodeIds.length) return out;
  const sides =
    v.direction === 'outgoing'
      ? [['source_id', 'target_id']]
      : v.direction === 'incoming'
        ? [['target_id', 'source_id']]
        : [
            ['source_id', 'target_id'],
            ['target_id', 'source_id'],
          ];
  for (const [mine, theirs] of sides) {
    const rows = await db.query<NodeRow & { from_id: string }>(
      `SELECT e.${mine} AS from_id, ${N_COLUMNS}
       FROM graph_edges e JOIN graph_nodes n ON n.id = e.${theirs}
       WHERE e.organization_id = $1 AND e.${mine} = ANY($2::text[]) AND e.type = $3 AND n.type = $4`,
      [organizationId, nodeIds, v.edge_type, v.target_type],
    );
    for (const { from_id, ...n } of rows) out.set(from_id, [...(out.get(from_id) ?? []), n]);
  }
  return out;
}

/** A namespace's graph, counted: its nodes, their relationships and their links to memories. */
export async function countNamespaceGraph(db: Queryable, organizationId: string, namespaceId: string) {
  const [r] = await db.query<{ nodes: number; edges: number; links: number }>(
    `WITH n AS (SELECT id FROM graph_nodes WHERE organization_id = $1 AND namespace_key = $2)
     SELECT (SELECT count(*) FROM n)::int AS nodes,
            (SELECT count(*) FROM graph_edges e WHERE e.source_id IN (SELECT id FROM n)
                                                   OR e.target_id IN (SELECT id FROM n))::int AS edges,
            (SELECT count(*) FROM memory_nodes m WHERE m.node_id IN (SELECT id FROM n))::int AS links`,
    [organizationId, namespaceId],
  );
  return r;
}
