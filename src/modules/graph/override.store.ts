import type { Queryable } from '../../platform/db/index.ts';
import type { NodeRow } from './graph.store.ts';

/** One filter of a structured graph query (search_override). */
export interface OverrideFilter {
  node_type: string;
  property_name: string;
  operator: 'CONTAINS' | 'EQUALS' | 'STARTS_WITH' | 'IN';
  value: string | string[] | number | boolean;
}

const likeEscape = (v: string) => v.replace(/[\\%_]/g, (c) => `\\${c}`);

/** SQL for one filter on node alias `a` (`name` is the node's name; others are properties). */
function filterSql(a: string, f: OverrideFilter, params: unknown[]): string {
  const col = f.property_name === 'name' ? `${a}.name` : `(${a}.properties ->> $${params.push(f.property_name)})`;
  if (f.operator === 'IN') {
    const values = (Array.isArray(f.value) ? f.value : [f.value]).map((v) => String(v).toLowerCase());
    return `lower(${col}) = ANY($${params.push(values)}::text[])`;
  }
  const v = String(f.value);
  if (f.operator === 'EQUALS') return `lower(${col}) = lower($${params.push(v)})`;
  const pattern = f.operator === 'CONTAINS' ? `%${likeEscape(v)}%` : `${likeEscape(v)}%`;
  return `${col} ILIKE $${params.push(pattern)}`;
}

/**
 * A structured graph query (search_override): relationships `source -[type]-> target` by node
 * labels and direction, with filters on either end, in the organization (and namespace).
 * Returns the producing memories and both end nodes; the caller scopes the memories.
 */
export async function overrideMatches(
  db: Queryable,
  q: {
    organizationId: string;
    namespaceKey: string | null;
    sourceLabel: string;
    relationshipType: string;
    targetLabel: string;
    direction: '->' | '<-' | '-';
    filters: OverrideFilter[];
  },
  limit = 500,
): Promise<{ memory_id: string; source: NodeRow; target: NodeRow }[]> {
  const params: unknown[] = [q.organizationId, q.relationshipType, q.sourceLabel, q.targetLabel];
  // s/t are the pattern's source and target; the stored edge may run the other way.
  const forward = 'e.source_id = s.id AND e.target_id = t.id';
  const backward = 'e.source_id = t.id AND e.target_id = s.id';
  const join = q.direction === '->' ? forward : q.direction === '<-' ? backward : `((${forward}) OR (${backward}))`;
  const where = ['e.organization_id = $1', 'e.type = $2', 's.type = $3', 't.type = $4'];
  if (q.namespaceKey !== null) where.push(`s.namespace_key = $${params.push(q.namespaceKey)}`);
  for (const f of q.filters) {
    const ends = [
      f.node_type === q.sourceLabel ? filterSql('s', f, params) : null,
      f.node_type === q.targetLabel ? filterSql('t', f, params) : null,
    ].filter(Boolean);
    where.push(ends.length ? `(${ends.join(' OR ')})` : 'false');
  }
  const node = (
    a: string,
  ) => `json_build_object('id', ${a}.id, 'organization_id', ${a}.organization_id, 'namespace_key', ${a}.namespace_key,
    'type', ${a}.type, 'name', ${a}.name, 'properties', ${a}.properties, 'schema_id', ${a}.schema_id)`;
  return db.query(
    `SELECT e.memory_id, ${node('s')} AS source, ${node('t')} AS target
     FROM graph_edges e JOIN graph_nodes s ON true JOIN graph_nodes t ON true
     WHERE ${join} AND ${where.join(' AND ')} LIMIT $${params.push(limit)}`,
    params,
  );
}
