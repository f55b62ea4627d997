import type { Queryable } from '../../platform/db/index.ts';

/** A node linked to a memory, as an export shows it. */
export interface ExportedNode {
  id: string;
  type: string;
  name: string;
  properties: Record<string, unknown>;
  schema_id: string | null;
}

/**
 * A relationship a memory produced, between node ids, with each end's type and name (a
 * `Memory` node stands for a memory: its name is the memory's id).
 */
export interface ExportedEdge {
  source: string;
  target: string;
  source_type: string;
  source_name: string;
  target_type: string;
  target_name: string;
  type: string;
  properties: Record<string, unknown>;
}

/** One memory's part of the graph: its nodes and the relationships it produced. */
export interface MemoryGraph {
  nodes: ExportedNode[];
  edges: ExportedEdge[];
  /** More nodes or relationships exist than the caps let through. */
  truncated: boolean;
}

/**
 * The graph of each memory (OMO export): the nodes linked to it (its own `Memory` node
 * included, as relationships refer to it) and the relationships it produced, up to `caps`
 * each per memory, in two statements whatever the number of memories. Every row is in the
 * organization: the caller has already decided which memories may be read.
 */
export async function graphsOfMemories(
  db: Queryable,
  organizationId: string,
  memoryIds: string[],
  caps: { nodes: number; edges: number },
): Promise<Map<string, MemoryGraph>> {
  const out = new Map<string, MemoryGraph>(memoryIds.map((id) => [id, { nodes: [], edges: [], truncated: false }]));
  if (!memoryIds.length) return out;
  const nodes = await db.query<ExportedNode & { memory_id: string; rank: number }>(
    `SELECT * FROM (
       SELECT mn.memory_id, n.id, n.type, n.name, n.properties, n.schema_id,
              row_number() OVER (PARTITION BY mn.memory_id ORDER BY n.type = 'Memory' DESC, n.type, n.name)::int AS rank
       FROM memory_nodes mn JOIN graph_nodes n ON n.id = mn.node_id
       WHERE mn.organization_id = $1 AND mn.memory_id = ANY($2::text[])
     ) x WHERE rank <= $3 + 1`,
    [organizationId, memoryIds, caps.nodes],
  );
  const edges = await db.query<ExportedEdge & { memory_id: string; rank: number }>(
    `SELECT * FROM (
       SELECT e.memory_id, e.source_id AS source, e.target_id AS target, e.type, e.properties,
              s.type AS source_type, s.name AS source_name, t.type AS target_type, t.name AS target_name,
              row_number() OVER (PARTITION BY e.memory_id ORDER BY e.created_at, e.id)::int AS rank
       FROM graph_edges e JOIN graph_nodes s ON s.id = e.source_id JOIN graph_nodes t ON t.id = e.target_id
       WHERE e.organization_id = $1 AND e.memory_id = ANY($2::text[])
     ) x WHERE rank <= $3 + 1`,
    [organizationId, memoryIds, caps.edges],
  );
  for (const { memory_id, rank, ...node } of nodes) {
    const g = out.get(memory_id)!;
    if (rank > caps.nodes) g.truncated = true;
    else g.nodes.push(node);
  }
  for (const { memory_id, rank, ...edge } of edges) {
    const g = out.get(memory_id)!;
    if (rank > caps.edges) g.truncated = true;
    else g.edges.push(edge);
  }
  return out;
}
