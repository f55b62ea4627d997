import { z } from 'zod';

/**
 * The canonical graph plan: what the graph module acts on after every accepted request
 * form (policy.graph, memory_policy, graph_generation, link_to, relationships_json, the
 * schema's memory_policy) has been resolved by `policy.ts`. Internal, never a wire shape:
 * every value is explicit (no aliases, no defaults left to the reader).
 */

/** Bounds of the plan. Generous for real use, small enough that one request cannot make the graph job slow. */
export const GRAPH_LIMITS = {
  name: 128,
  nodeId: 256,
  stringValue: 4096,
  jsonValueChars: 16_384,
  prompt: 2000,
  searchProperties: 10,
  viaRelationships: 5,
  setEntries: 50,
  nodeProperties: 100,
  nodeConstraints: 50,
  edgeConstraints: 50,
  nodes: 100,
  relationships: 200,
  whenDepth: 8,
  whenBranches: 20,
  whenComparisons: 20,
  contextMemories: 50,
  relatedMemories: 20,
  linkToEntries: 50,
  linkToEntryChars: 5000,
} as const;

/** Default similarity thresholds (the official client's `semantic()` / `fuzzy()` defaults). */
export const DEFAULT_THRESHOLD = { semantic: 0.85, fuzzy: 0.8 } as const;

/** `true` for `link_to_related_memories` means this many (the client's documented example). */
export const DEFAULT_RELATED_MEMORIES = 3;

/** Relationship endpoint meaning the memory being written. */
export const THIS_MEMORY = '$this';
/** Relationship endpoint meaning the user's previous memory. */
export const PREVIOUS_MEMORY = '$previous';

/** Node, edge and property names: letters, digits and `_`, not starting with a digit (same rule as the link_to DSL). */
export const NAME_PATTERN = /^[\p{L}_][\p{L}\p{N}_]*$/u;

/** A node or relationship type name. */
export const typeName = z
  .string()
  .min(1)
  .max(GRAPH_LIMITS.name)
  .regex(NAME_PATTERN, 'must be letters, digits and _, not starting with a digit')
  .describe('Node or relationship type, e.g. Task, ASSIGNED_TO');

/** A property name (search, set, when). */
export const propertyName = z
  .string()
  .min(1)
  .max(GRAPH_LIMITS.name)
  .regex(NAME_PATTERN, 'must be letters, digits and _, not starting with a digit')
  .describe('Property name on a node or edge');

/** Any JSON value whose serialisation stays under the bound (fixed `set` values, node properties). */
export const jsonValue = z
  .unknown()
  .refine((v) => v !== undefined && (JSON.stringify(v)?.length ?? Infinity) <= GRAPH_LIMITS.jsonValueChars, {
    message: `must be a JSON value of at most ${GRAPH_LIMITS.jsonValueChars} characters`,
  });

/** A value searched for or compared against. */
export const scalarValue = z.union([z.string().max(GRAPH_LIMITS.stringValue), z.number(), z.boolean()], {
  error: 'must be a string, number or boolean',
});

/** Matching modes, modes of creation and miss handling, edge direction, graph mode. */
export const searchMode = z
  .enum(['exact', 'semantic', 'fuzzy'])
  .describe('exact: equal value; semantic: embedding similarity; fuzzy: edit distance');
export const createPolicy = z
  .enum(['upsert', 'lookup'])
  .describe('upsert: create when no match is found; lookup: link to existing nodes only');
export const onMissPolicy = z.enum(['create', 'ignore', 'error']).describe('What to do when search finds no match');
export const edgeDirection = z
  .enum(['outgoing', 'incoming', 'both'])
  .describe('outgoing: the matched node is the source (default)');
export const graphMode = z
  .enum(['auto', 'manual', 'none'])
  .describe('auto: extraction with constraints; manual: exactly the given nodes; none: no graph');

/** One property used to find an existing node; `threshold` only for semantic and fuzzy. */
export const propertyMatch = z.strictObject({
  name: propertyName,
  mode: searchMode,
  threshold: z.number().min(0).max(1).optional().describe('Similarity threshold 0..1 (semantic, fuzzy)'),
  value: scalarValue.optional().describe('Value to match instead of one extracted from the content'),
});

/** Find a node through one of its relationships (`Type.via(EDGE->Target:prop)`). */
export const viaRelationship = z.strictObject({
  edge_type: typeName,
  target_type: typeName,
  direction: edgeDirection,
  target_search: z
    .strictObject({ properties: z.array(propertyMatch).min(1).max(GRAPH_LIMITS.searchProperties) })
    .optional()
    .describe('How to find the node at the other end'),
});

/** How to find existing nodes: properties in priority order (first match wins), relationship matches ANDed. */
export const searchConfig = z
  .strictObject({
    properties: z.array(propertyMatch).max(GRAPH_LIMITS.searchProperties).describe('Properties in priority order'),
    via_relationship: z.array(viaRelationship).min(1).max(GRAPH_LIMITS.viaRelationships).optional(),
  })
  .refine((s) => s.properties.length > 0 || s.via_relationship !== undefined, {
    message: 'search needs at least one property or via_relationship',
  });

/** A property value to set: a fixed value, or extracted by the model from the content. */
export const setValue = z.discriminatedUnion('mode', [
  z.strictObject({ mode: z.literal('exact'), value: jsonValue.describe('Fixed value') }),
  z.strictObject({
    mode: z.literal('auto'),
    prompt: z.string().max(GRAPH_LIMITS.prompt).optional().describe('Extraction guidance for this property'),
    text_mode: z.enum(['replace', 'append', 'merge']).optional().describe('How a text property is updated'),
  }),
]);

/** `set`: property name → value to set. */
export const setMap = z
  .record(propertyName, setValue)
  .refine((m) => Object.keys(m).length <= GRAPH_LIMITS.setEntries, {
    message: `at most ${GRAPH_LIMITS.setEntries} properties`,
  })
  .describe('Property values to set on matched or created nodes/edges');

/** Logical operators of `when`; any other key is a property compared for equality. */
export const WHEN_OPERATORS = ['_and', '_or', '_not'] as const;

const comparisonValue = z.union([z.string().max(GRAPH_LIMITS.stringValue), z.number(), z.boolean(), z.null()], {
  error: 'a property comparison must be a string, number, boolean or null',
});

/**
 * `when` condition. An object is either exactly one operator (`{_and: [...]}`,
 * `{_or: [...]}`, `{_not: {...}}`) or property comparisons (`{priority: 'high', done:
 * false}`: all must be equal). Mixing both in one object is rejected rather than
 * guessed at; nest with `_and` instead.
 */
export const whenCondition = z
  .object({
    get _and() {
      return z.array(whenCondition).min(1).max(GRAPH_LIMITS.whenBranches).optional();
    },
    get _or() {
      return z.array(whenCondition).min(1).max(GRAPH_LIMITS.whenBranches).optional();
    },
    get _not() {
      return whenCondition.optional();
    },
  })
  .catchall(comparisonValue)
  .superRefine((cond, ctx) => {
    const keys = Object.keys(cond);
    const operators = keys.filter((k) => (WHEN_OPERATORS as readonly string[]).includes(k));
    if (keys.length === 0) ctx.addIssue({ code: 'custom', message: 'a condition must not be empty' });
    if (operators.length > 0 && keys.length > 1) {
      ctx.addIssue({
        code: 'custom',
        message: `${operators[0]} must be the only key of its object; combine with _and`,
      });
    }
    if (keys.length > GRAPH_LIMITS.whenComparisons)
      ctx.addIssue({ code: 'custom', message: `at most ${GRAPH_LIMITS.whenComparisons} comparisons` });
    for (const k of keys) {
      if (operators.includes(k)) continue;
      if (k.startsWith('_'))
        ctx.addIssue({ code: 'custom', path: [k], message: `unknown operator ${k} (use _and, _or, _not)` });
      else if (!NAME_PATTERN.test(k) || k.length > GRAPH_LIMITS.name)
        ctx.addIssue({ code: 'custom', path: [k], message: 'invalid property name' });
    }
  });

/** Depth of a condition tree (a comparison object is depth 1). */
export function whenDepth(cond: WhenCondition): number {
  const children = [...(cond._and ?? []), ...(cond._or ?? []), ...(cond._not ? [cond._not] : [])];
  return 1 + Math.max(0, ...children.map(whenDepth));
}

/** A `when` condition with its nesting bounded. */
export const boundedWhen = whenCondition.refine((c) => whenDepth(c) <= GRAPH_LIMITS.whenDepth, {
  message: `conditions nest at most ${GRAPH_LIMITS.whenDepth} deep`,
});

const constraintCommon = {
  search: searchConfig.optional(),
  set: setMap.optional(),
  create: createPolicy,
  on_miss: onMissPolicy.describe('Always consistent with create: create⇔upsert; ignore/error⇔lookup'),
  when: boundedWhen.optional().describe('Apply the constraint only when this holds'),
};

/** How extracted nodes of one type are matched, created and filled. */
export const nodeConstraint = z.strictObject({ node_type: typeName, ...constraintCommon });

/** How extracted relationships of one type are matched and created. */
export const edgeConstraint = z.strictObject({
  edge_type: typeName,
  direction: edgeDirection,
  source_type: typeName.optional().describe('Only edges from nodes of this type'),
  target_type: typeName.optional().describe('Only edges to nodes of this type'),
  ...constraintCommon,
});

const propertiesMap = z
  .record(z.string().min(1).max(GRAPH_LIMITS.name), jsonValue)
  .refine((m) => Object.keys(m).length <= GRAPH_LIMITS.nodeProperties, {
    message: `at most ${GRAPH_LIMITS.nodeProperties} properties`,
  });

/** A node given exactly (manual mode). */
export const manualNode = z.strictObject({
  id: z.string().min(1).max(GRAPH_LIMITS.nodeId).describe('Request-local id that relationships refer to'),
  type: typeName,
  properties: propertiesMap,
});

/**
 * A relationship given exactly. An endpoint is `$this` (the memory being written),
 * `$previous` (the user's previous memory), the id of a node in `nodes`, or otherwise
 * the id of an existing memory (see `classifyEndpoint`).
 */
export const relationship = z.strictObject({
  source: z.string().min(1).max(GRAPH_LIMITS.nodeId),
  target: z.string().min(1).max(GRAPH_LIMITS.nodeId),
  type: typeName,
  properties: propertiesMap.optional(),
});

/** The resolved graph plan for one memory. */
export const graphPlan = z.strictObject({
  mode: graphMode,
  schema_id: z.string().min(1).max(512).optional().describe('User graph schema the request named'),
  nodes: z.array(manualNode).max(GRAPH_LIMITS.nodes).describe('Manual mode: exactly these nodes'),
  relationships: z.array(relationship).max(GRAPH_LIMITS.relationships),
  node_constraints: z.array(nodeConstraint).max(GRAPH_LIMITS.nodeConstraints).describe('Auto mode only'),
  edge_constraints: z.array(edgeConstraint).max(GRAPH_LIMITS.edgeConstraints).describe('Auto mode only'),
  link_to_previous_memory: z.boolean().describe('Link the memory to the user’s previous memory'),
  link_to_related_memories: z
    .number()
    .int()
    .min(0)
    .max(GRAPH_LIMITS.relatedMemories)
    .describe('Link to this many most similar memories'),
  link_to_context_memories: z
    .number()
    .int()
    .min(0)
    .max(GRAPH_LIMITS.contextMemories)
    .describe('Link to the last N memories of the conversation ($context:N)'),
  disabled_by: z.literal('consent').optional().describe('Why the graph is off although the request asked for one'),
});

/** Types of the plan, inferred from the schemas above (the single source). */
export type GraphMode = z.infer<typeof graphMode>;
export type PropertyMatch = z.infer<typeof propertyMatch>;
export type ViaRelationship = z.infer<typeof viaRelationship>;
export type SearchConfig = z.infer<typeof searchConfig>;
export type SetValue = z.infer<typeof setValue>;
export type WhenCondition = z.infer<typeof whenCondition>;
export type NodeConstraint = z.infer<typeof nodeConstraint>;
export type EdgeConstraint = z.infer<typeof edgeConstraint>;
export type ManualNode = z.infer<typeof manualNode>;
export type Relationship = z.infer<typeof relationship>;
export type GraphPlan = z.infer<typeof graphPlan>;

/** What a relationship endpoint refers to. */
export type Endpoint =
  { kind: 'this' } | { kind: 'previous' } | { kind: 'node'; id: string } | { kind: 'memory'; id: string };

/** Manual node ids win over memory ids: an id present in `nodes` is that node. */
export function classifyEndpoint(ref: string, nodeIds: ReadonlySet<string>): Endpoint {
  if (ref === THIS_MEMORY) return { kind: 'this' };
  if (ref === PREVIOUS_MEMORY) return { kind: 'previous' };
  return nodeIds.has(ref) ? { kind: 'node', id: ref } : { kind: 'memory', id: ref };
}
