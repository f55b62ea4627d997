/**
 * The agentic walk's one read of the graph (search's graph-signal.ts): the memories around the
 * query's nodes in the searcher's own graph (docs/graph.md, "Search").
 */
import type { Queryable } from '../../platform/db/index.ts';

/** Whose links a walk reads: one user's own memories and others' shared with the reader. */
export interface WalkScope {
  userId: string | null;
  sharedIds?: string[] | null;
}

/**
 * The memories around some seed nodes in the reader's own graph, in one bounded statement. Nodes
 * are shared within an organization, but a walk reads only the links of the memories it may
 * search (WalkScope): another user's memory that names two things together is no relationship of
 * this reader's. So the seeds' memories of the reader (up to `maxDegree` + 1 each), the
 * relationships those memories produced from or to a seed (up to 2 × `perSeed` per seed), at most
 * `nodes` nodes nearest first, and each node's memories of the reader unless it is a hub of theirs
 * (linked to more than `maxDegree`, counted up to that cap), with that degree. Every step has a
 * LIMIT: a frequent entity in a query cannot make it read the whole graph.
 */
export async function graphLinks(
  db: Queryable,
  seeds: string[],
  scope: WalkScope,
  caps: { perSeed: number; nodes: number; maxDegree: number },
): Promise<{ node_id: string; type: string; depth: number; memory_id: string; degree: number }[]> {
  const shared = scope.sharedIds ?? [];
  if (!seeds.length || (!scope.userId && !shared.length)) return [];
  // Whose links: by the (node_id, user_id) index, and the shared memories by the primary key.
  const params: unknown[] = [seeds, caps.perSeed, caps.nodes, caps.maxDegree];
  const whose: string[] = [];
  if (scope.userId) whose.push(`m.user_id = $${params.push(scope.userId)}`);
  if (shared.length) whose.push(`m.memory_id = ANY($${params.push(shared)}::text[])`);
  const readable = whose.join(' OR ');
  return db.query(
    `WITH seed AS (SELECT DISTINCT unnest($1::text[]) AS id),
     mine AS (
       SELECT s.id AS seed, l.memory_id FROM seed s CROSS JOIN LATERAL
         (SELECT m.memory_id FROM memory_nodes m WHERE m.node_id = s.id AND (${readable}) LIMIT $4::int + 1) l
     ),
     near AS (
       SELECT id, 0 AS depth FROM seed
       UNION ALL SELECT x.id, 1 FROM seed s CROSS JOIN LATERAL
         (SELECT CASE WHEN e.source_id = s.id THEN e.target_id ELSE e.source_id END AS id
          FROM mine JOIN graph_edges e ON e.memory_id = mine.memory_id
          WHERE mine.seed = s.id AND (e.source_id = s.id OR e.target_id = s.id) LIMIT 2 * $2::int) x
     ),
     node AS (SELECT id, min(depth) AS depth FROM near GROUP BY id ORDER BY min(depth), id LIMIT $3),
     link AS (
       SELECT n.id AS node_id, n.depth, l.memory_id FROM node n CROSS JOIN LATERAL
         (SELECT m.memory_id FROM memory_nodes m WHERE m.node_id = n.id AND (${readable}) LIMIT $4::int + 1) l
     ),
     degree AS (SELECT node_id, count(*)::int AS degree FROM link GROUP BY node_id)
     SELECT l.node_id, g.type, l.depth::int AS depth, l.memory_id, d.degree
     FROM link l JOIN degree d USING (node_id) JOIN graph_nodes g ON g.id = l.node_id WHERE d.degree <= $4`,
    params,
  );
}
