import { z } from 'zod';
import { unprocessable } from '../../shared/errors.ts';
import { expandLinkTo } from './link-to.ts';
import {
  DEFAULT_RELATED_MEMORIES,
  GRAPH_LIMITS,
  PREVIOUS_MEMORY,
  THIS_MEMORY,
  typeName,
  type EdgeConstraint,
  type GraphMode,
  type ManualNode,
  type NodeConstraint,
  type Relationship,
} from './policy.schemas.ts';
import {
  compact,
  edgeConstraintInput,
  manualNodeInput,
  nodeConstraintInput,
  parseOr422,
  relationshipInput,
} from './policy.inputs.ts';

/**
 * One precedence level of the graph policy (the request, the deprecated
 * graph_generation, the schema's memory_policy), read into canonical pieces. `policy.ts`
 * decides between levels; this file only knows the accepted spellings of one level.
 */

type Obj = Record<string, unknown>;

/** What one level says; `undefined` means "not said here", so a lower level may say it. */
export interface PolicyLevel {
  /** Field prefix of this level in error messages ('' for the request). */
  prefix: string;
  mode?: GraphMode;
  schema_id?: string;
  nodes?: ManualNode[];
  relationships?: Relationship[];
  node_constraints: NodeConstraint[];
  edge_constraints: EdgeConstraint[];
  link_to_previous_memory?: boolean;
  link_to_related_memories?: number;
  link_to_context_memories?: number;
  /** Fields of this level that ask for graph content (nodes, links, constraints). */
  contentFields: string[];
  /** Fields of this level that hold node or edge constraints (incl. link_to). */
  constraintFields: string[];
}

/** `structured` is the client's old alias of manual. */
const modeInput = z
  .enum(['auto', 'manual', 'none', 'structured'])
  .transform((m): GraphMode => (m === 'structured' ? 'manual' : m));
const schemaId = z.string().min(1).max(512);
const related = z.union([z.boolean(), z.number().int().min(0).max(GRAPH_LIMITS.relatedMemories)]);

/** An object or nothing; anything else is a 422 naming the field. */
export function asObject(value: unknown, field: string): Obj {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) throw unprocessable(`${field} must be an object`, { field });
  return value as Obj;
}

const at = (prefix: string, key: string) => (prefix ? `${prefix}.${key}` : key);
const list = <S extends z.ZodType>(item: S, max: number) => z.array(item).max(max);

/** Read a current-form level: policy.graph / memory_policy keys, or a schema's memory_policy. */
export function readLevel(o: Obj, prefix: string): PolicyLevel {
  const f = (k: string) => at(prefix, k);
  const has = (k: string) => o[k] !== undefined && o[k] !== null;
  // An empty list (SDK defaults) says nothing: it neither conflicts nor hides a lower level.
  const given = (k: string) => has(k) && !(Array.isArray(o[k]) && o[k].length === 0);
  const level: PolicyLevel = {
    prefix,
    mode: has('mode') ? parseOr422(modeInput, o.mode, f('mode')) : undefined,
    schema_id: has('schema_id') ? parseOr422(schemaId, o.schema_id, f('schema_id')) : undefined,
    nodes: given('nodes') ? parseOr422(list(manualNodeInput, GRAPH_LIMITS.nodes), o.nodes, f('nodes')) : undefined,
    relationships: given('relationships')
      ? parseOr422(list(relationshipInput, GRAPH_LIMITS.relationships), o.relationships, f('relationships'))
      : undefined,
    node_constraints: has('node_constraints')
      ? parseOr422(list(nodeConstraintInput, GRAPH_LIMITS.nodeConstraints), o.node_constraints, f('node_constraints'))
      : [],
    edge_constraints: has('edge_constraints')
      ? parseOr422(list(edgeConstraintInput, GRAPH_LIMITS.edgeConstraints), o.edge_constraints, f('edge_constraints'))
      : [],
    link_to_previous_memory: has('link_to_previous_memory')
      ? parseOr422(z.boolean(), o.link_to_previous_memory, f('link_to_previous_memory'))
      : undefined,
    contentFields: [],
    constraintFields: [],
  };
  if (has('link_to_related_memories')) {
    const n = parseOr422(related, o.link_to_related_memories, f('link_to_related_memories'));
    level.link_to_related_memories = n === true ? DEFAULT_RELATED_MEMORIES : n === false ? 0 : n;
  }
  if (has('link_to')) applyLinkTo(level, o.link_to, f('link_to'));
  if (has('relationships_json')) applyRelationshipsJson(level, o.relationships_json, f('relationships_json'));
  for (const k of ['nodes', 'relationships', 'node_constraints', 'edge_constraints', 'link_to', 'relationships_json'])
    if (given(k)) level.contentFields.push(f(k));
  if (level.link_to_previous_memory) level.contentFields.push(f('link_to_previous_memory'));
  if (level.link_to_related_memories) level.contentFields.push(f('link_to_related_memories'));
  for (const k of ['node_constraints', 'edge_constraints']) if (given(k)) level.constraintFields.push(f(k));
  return level;
}

/** link_to: constraints appended after explicit ones ("both may be set"); `$previous` / `$context:N` become links. */
function applyLinkTo(level: PolicyLevel, linkTo: unknown, field: string): void {
  const x = expandLinkTo(linkTo);
  level.node_constraints.push(...x.node_constraints);
  level.edge_constraints.push(...x.edge_constraints);
  if (x.node_constraints.length + x.edge_constraints.length > 0) level.constraintFields.push(field);
  for (const s of x.specials) {
    if (s.ref === '$previous') {
      if (level.link_to_previous_memory === false) {
        throw unprocessable(`${field} links $previous but link_to_previous_memory is false`, {
          fields: [field, at(level.prefix, 'link_to_previous_memory')],
        });
      }
      level.link_to_previous_memory = true;
    } else if (s.ref === '$context') {
      level.link_to_context_memories = Math.max(level.link_to_context_memories ?? 0, s.count);
    }
    // `$this` names the memory itself, which every extracted node is already linked to: nothing to add.
  }
}

/** relationships_json entries (client RelationshipItem); a JSON string of the list is accepted too. */
const relationshipItem = z.object({
  relation_type: typeName.describe('The relationship (edge) type'),
  related_item_id: z.string().min(1).max(GRAPH_LIMITS.nodeId).nullish(),
  related_item_type: z.string().max(GRAPH_LIMITS.name).nullish().describe('Legacy, unused'),
  relationship_type: z.enum(['previous_memory_item_id', 'all_previous_memory_items', 'link_to_id']).nullish(),
  metadata: z.record(z.string(), z.unknown()).nullish(),
});

/**
 * Map relationships_json: `previous_memory_item_id` links `$this` to `$previous`;
 * `link_to_id` (or no relationship_type) links `$this` to the memory `related_item_id`;
 * `all_previous_memory_items` links to the conversation's earlier memories, bounded like
 * `$context:N` at its maximum. `metadata` becomes the edge properties.
 */
function applyRelationshipsJson(level: PolicyLevel, value: unknown, field: string): void {
  let items = value;
  if (typeof value === 'string') {
    try {
      items = JSON.parse(value);
    } catch {
      throw unprocessable(`${field} is not valid JSON`, { field });
    }
  }
  const parsed = parseOr422(list(relationshipItem, GRAPH_LIMITS.relationships), items, field);
  const links: unknown[] = [];
  parsed.forEach((r, i) => {
    const properties = r.metadata && Object.keys(r.metadata).length ? r.metadata : undefined;
    if (r.relationship_type === 'previous_memory_item_id') {
      links.push(compact({ source: THIS_MEMORY, target: PREVIOUS_MEMORY, type: r.relation_type, properties }));
    } else if (r.relationship_type === 'all_previous_memory_items') {
      level.link_to_context_memories = GRAPH_LIMITS.contextMemories;
    } else if (r.related_item_id) {
      links.push(compact({ source: THIS_MEMORY, target: r.related_item_id, type: r.relation_type, properties }));
    } else {
      throw unprocessable(
        `${field}.${i} needs related_item_id (relationship_type ${r.relationship_type ?? 'absent'})`,
        { field: `${field}.${i}.related_item_id` },
      );
    }
  });
  const rels = parseOr422(list(relationshipInput, GRAPH_LIMITS.relationships), links, field);
  if (rels.length) level.relationships = [...(level.relationships ?? []), ...rels];
}

const graphGeneration = z.object({
  mode: modeInput.nullish(),
  auto: z
    .object({
      schema_id: schemaId.nullish(),
      property_overrides: z.array(z.unknown()).max(GRAPH_LIMITS.nodeConstraints).nullish(),
    })
    .nullish(),
  manual: z.object({ nodes: z.unknown().optional(), relationships: z.unknown().optional() }).nullish(),
});

const propertyOverride = z.object({
  nodeLabel: typeName,
  set: z.record(z.string(), z.unknown()),
  match: z.record(z.string(), z.unknown()).nullish(),
});

/**
 * Deprecated graph_generation as a level: `manual.nodes` (with `label`) and
 * `manual.relationships` (source_node_id / target_node_id / relationship_type) are the
 * manual content; `auto.schema_id` names the schema; `auto.property_overrides`
 * (superseded by node constraints) become constraints `{node_type: nodeLabel, set,
 * when: match}`.
 */
export function readGraphGeneration(value: unknown): PolicyLevel {
  const g = parseOr422(graphGeneration, asObject(value, 'graph_generation'), 'graph_generation');
  const said = (v: unknown) => (v == null || (Array.isArray(v) && v.length === 0) ? undefined : v);
  const nodes = said(g.manual?.nodes);
  const rels = said(g.manual?.relationships);
  const level: PolicyLevel = {
    prefix: 'graph_generation',
    mode: g.mode ?? undefined,
    schema_id: g.auto?.schema_id ?? undefined,
    nodes:
      nodes !== undefined
        ? parseOr422(list(manualNodeInput, GRAPH_LIMITS.nodes), nodes, 'graph_generation.manual.nodes')
        : undefined,
    relationships:
      rels !== undefined
        ? parseOr422(list(relationshipInput, GRAPH_LIMITS.relationships), rels, 'graph_generation.manual.relationships')
        : undefined,
    node_constraints: [],
    edge_constraints: [],
    contentFields: [],
    constraintFields: [],
  };
  (g.auto?.property_overrides ?? []).forEach((raw, i) => {
    const field = `graph_generation.auto.property_overrides.${i}`;
    const o = parseOr422(propertyOverride, raw, field);
    const when = o.match && Object.keys(o.match).length ? o.match : undefined;
    level.node_constraints.push(
      parseOr422(nodeConstraintInput, compact({ node_type: o.nodeLabel, set: o.set, when }), field),
    );
    level.constraintFields.push(field);
  });
  if (nodes !== undefined) level.contentFields.push('graph_generation.manual.nodes');
  if (rels !== undefined) level.contentFields.push('graph_generation.manual.relationships');
  level.contentFields.push(...level.constraintFields);
  return level;
}
