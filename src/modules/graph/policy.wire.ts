import { z } from 'zod';
import { CREATE_ALIASES } from './policy.inputs.ts';
import { DEFAULT_RELATED_MEMORIES, GRAPH_LIMITS } from './policy.schemas.ts';

/**
 * The graph policy as it arrives on the wire (`policy.graph`, `memory_policy`, `link_to`,
 * `graph_generation`, `relationships_json`): the shapes routes validate and OpenAPI
 * documents. Values pass through unchanged; `resolveGraphPlan` (policy.ts) maps the accepted
 * spellings into one canonical `GraphPlan` and answers a 422 naming the field for anything
 * these shapes let through but the plan cannot take (unknown endpoints, conflicts, bounds
 * between fields). Keys not listed here are accepted and ignored.
 */

const name = (what: string) => z.string().min(1).max(GRAPH_LIMITS.name).describe(what);
const typeName = (what: string) =>
  z.string().min(1).max(GRAPH_LIMITS.name).describe(`${what} (letters, digits and _, starting with a letter or _)`);
const graphMode = z
  .enum(['auto', 'manual', 'none'])
  .describe(
    'auto: extract entities and relationships from the content; manual: exactly the given nodes; none: no graph',
  );

const searchProperty = z.union([
  name('Property name: an exact match on it'),
  z.looseObject({
    name: name('Property name'),
    mode: z.enum(['exact', 'semantic', 'fuzzy']).optional().describe('How values are compared (default semantic)'),
    threshold: z.number().min(0).max(1).optional().describe('Similarity needed for semantic and fuzzy (0–1)'),
    value: z
      .union([z.string(), z.number(), z.boolean()])
      .optional()
      .describe('Match this value instead of the extracted one'),
  }),
]);

const searchWire = z
  .looseObject({
    mode: z.enum(['exact', 'semantic', 'fuzzy']).optional().describe('Default comparison of the properties'),
    threshold: z.number().min(0).max(1).optional().describe('Default similarity threshold'),
    properties: z
      .array(searchProperty)
      .max(GRAPH_LIMITS.searchProperties)
      .optional()
      .describe('Properties that identify an existing node'),
    via_relationship: z
      .array(
        z.looseObject({
          edge_type: typeName('Relationship type to follow'),
          target_type: typeName('Node type at its other end'),
          direction: z
            .enum(['outgoing', 'incoming', 'both'])
            .optional()
            .describe('outgoing: the matched node is the source (default)'),
          target_search: z.looseObject({}).optional().describe('How the node at the other end is matched (as search)'),
        }),
      )
      .max(GRAPH_LIMITS.viaRelationships)
      .optional()
      .describe('Match through a neighbour: a node related to one that matches'),
  })
  .describe('How an extracted node is matched to a stored one');

const constraintCommon = {
  create: z
    .enum(Object.keys(CREATE_ALIASES) as [string, ...string[]])
    .optional()
    .describe('upsert (create when not found; aliases auto, always) or lookup (only link to existing; alias never)'),
  on_miss: z.enum(['create', 'ignore', 'error']).optional().describe('When nothing matches: create, ignore or error'),
  link_only: z.boolean().optional().describe('Deprecated: create lookup'),
  search: searchWire.optional(),
  set: z
    .record(z.string(), z.unknown())
    .optional()
    .describe('Properties to set: a fixed value, {mode: exact, value}, or {mode: auto, prompt} to extract'),
  when: z
    .record(z.string(), z.unknown())
    .optional()
    .describe('Apply only when this condition on the extracted properties holds (_and, _or, _not, property: value)'),
};

/** How extracted nodes of one type are matched, created and filled (client NodeConstraintInput). */
export const nodeConstraintWire = z.looseObject({ node_type: typeName('Node type'), ...constraintCommon });

/** How extracted relationships of one type are matched and created (client EdgeConstraintInput). */
export const edgeConstraintWire = z.looseObject({
  edge_type: typeName('Relationship type'),
  direction: z.enum(['outgoing', 'incoming', 'both']).optional().describe('Default outgoing'),
  source_type: typeName('Only edges from nodes of this type').optional(),
  target_type: typeName('Only edges to nodes of this type').optional(),
  ...constraintCommon,
});

const properties = z
  .record(z.string(), z.unknown())
  .describe(`Properties (at most ${GRAPH_LIMITS.nodeProperties}); a node's name is its name, title or id property`);

/** A node given exactly (manual mode; client NodeSpec). */
export const manualNodeWire = z.looseObject({
  id: z.string().min(1).max(GRAPH_LIMITS.nodeId).describe('Request-local id that relationships refer to'),
  type: typeName('Node type').optional(),
  label: typeName('Deprecated: type').optional(),
  properties: properties.optional(),
});

/** A relationship given exactly (client RelationshipSpec). */
export const relationshipWire = z.looseObject({
  source: z
    .string()
    .max(GRAPH_LIMITS.nodeId)
    .optional()
    .describe('$this (this memory), $previous (the user’s previous memory), a node id of nodes, or a memory id'),
  target: z.string().max(GRAPH_LIMITS.nodeId).optional().describe('As source'),
  type: typeName('Relationship type').optional(),
  source_node_id: z.string().max(GRAPH_LIMITS.nodeId).optional().describe('Deprecated: source'),
  target_node_id: z.string().max(GRAPH_LIMITS.nodeId).optional().describe('Deprecated: target'),
  relationship_type: typeName('Deprecated: type').optional(),
  properties: properties.optional(),
});

/** `link_to`: a shorthand for constraints and links (docs/graph.md, "link_to"). */
export const linkToWire = z
  .union([z.string().max(2000), z.array(z.string().max(2000)), z.record(z.string(), z.unknown())])
  .describe(
    'Type:property=value (or a list of them, or {"Type:property": options}) to link the memory to stored nodes; ' +
      '$previous and $context:N link to earlier memories',
  );

/** `relationships_json` (deprecated; client RelationshipItem[]), or that list as a JSON string. */
export const relationshipsJsonWire = z
  .union([
    z
      .array(
        z.looseObject({
          relation_type: typeName('The relationship type'),
          related_item_id: z.string().max(GRAPH_LIMITS.nodeId).optional().describe('The memory to link to'),
          related_item_type: z.string().max(GRAPH_LIMITS.name).optional().describe('Legacy, unused'),
          relationship_type: z
            .enum(['previous_memory_item_id', 'all_previous_memory_items', 'link_to_id'])
            .optional()
            .describe(
              'previous_memory_item_id: the previous memory; all_previous_memory_items: the conversation; ' +
                'link_to_id (default): related_item_id',
            ),
          metadata: z.record(z.string(), z.unknown()).optional().describe('Properties of the relationship'),
        }),
      )
      .max(GRAPH_LIMITS.relationships),
    z.string().max(100_000),
  ])
  .describe('Deprecated: relationships to other memories (use memory_policy.relationships or link_to)');

/** The graph part of a memory policy: the same keys in `policy.graph` and in `memory_policy`. */
export const graphPolicyFields = {
  schema_id: z.string().min(1).max(512).optional().describe('User graph schema the graph keeps to (GET /v1/schemas)'),
  nodes: z.array(manualNodeWire).max(GRAPH_LIMITS.nodes).optional().describe('Manual mode: exactly these nodes'),
  relationships: z
    .array(relationshipWire)
    .max(GRAPH_LIMITS.relationships)
    .optional()
    .describe('Relationships between the given nodes, this memory ($this) and other memories'),
  node_constraints: z
    .array(nodeConstraintWire)
    .max(GRAPH_LIMITS.nodeConstraints)
    .optional()
    .describe('Auto mode: how extracted nodes are matched, created and filled'),
  edge_constraints: z
    .array(edgeConstraintWire)
    .max(GRAPH_LIMITS.edgeConstraints)
    .optional()
    .describe('Auto mode: how extracted relationships are matched and created'),
  link_to: linkToWire.optional(),
  link_to_previous_memory: z.boolean().optional().describe('Link the memory to the user’s previous memory'),
  link_to_related_memories: z
    .union([z.boolean(), z.number().int().min(0).max(GRAPH_LIMITS.relatedMemories)])
    .optional()
    .describe(`Link to this many most similar memories (true: ${DEFAULT_RELATED_MEMORIES})`),
  relationships_json: relationshipsJsonWire.optional(),
};

/** `policy.graph`: how this memory's graph is built. */
export const graphPolicyWire = z
  .looseObject({ mode: graphMode.optional(), ...graphPolicyFields })
  .describe('How the knowledge graph of this memory is built (docs/graph.md)');

/** `graph_generation` (deprecated; replaced by memory_policy). */
export const graphGenerationWire = z
  .looseObject({
    mode: z.enum(['auto', 'manual', 'none', 'structured']).optional().describe('As memory_policy.mode'),
    auto: z
      .looseObject({
        schema_id: z.string().min(1).max(512).optional().describe('As memory_policy.schema_id'),
        property_overrides: z
          .array(
            z.looseObject({
              nodeLabel: typeName('Node type'),
              set: z.record(z.string(), z.unknown()).describe('Properties to set'),
              match: z.record(z.string(), z.unknown()).optional().describe('Only nodes with these properties'),
            }),
          )
          .max(GRAPH_LIMITS.nodeConstraints)
          .optional()
          .describe('Superseded by node_constraints with set and when'),
      })
      .optional()
      .describe('Auto mode settings'),
    manual: z
      .looseObject({
        nodes: z.array(manualNodeWire).max(GRAPH_LIMITS.nodes).optional().describe('As memory_policy.nodes'),
        relationships: z
          .array(relationshipWire)
          .max(GRAPH_LIMITS.relationships)
          .optional()
          .describe('As memory_policy.relationships'),
      })
      .optional()
      .describe('Manual mode content'),
  })
  .describe('Deprecated: memory_policy (policy.graph wins over it)');
