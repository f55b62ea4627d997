import { unprocessable } from '../../shared/errors.ts';
import { asObject, readGraphGeneration, readLevel, type PolicyLevel } from './policy.levels.ts';
import { parseOr422 } from './policy.inputs.ts';
import {
  graphPlan,
  type EdgeConstraint,
  type GraphMode,
  type GraphPlan,
  type NodeConstraint,
} from './policy.schemas.ts';

/**
 * Resolve what arrives as `NormalisedPolicy.graph` (see memories/compat.ts) into one
 * validated `GraphPlan`.
 *
 * Precedence, highest first: the request (policy.graph merged over memory_policy by
 * compat), the deprecated graph_generation (spec §2.2: policy wins over it), the memory
 * policy of the schema named by schema_id, then defaults (mode auto, no links).
 *
 * - mode: the first level that sets it; a level that gives manual nodes without a mode
 *   means manual. `structured` is manual.
 * - A level that declares a mode contributes its mode-specific content (nodes,
 *   relationships, constraints) only when that mode is the one in effect, so a
 *   graph_generation manual block is ignored when policy says auto.
 * - auto: constraints are merged per key (node_type; edge_type + source/target type +
 *   direction): a level's constraints for a key replace lower levels' for that key.
 *   Within a level explicit constraints come first, then link_to's, in order.
 * - manual: nodes and relationships from the first level that has them; constraints given
 *   in the request are a conflict (manual means exactly the given graph); the schema's
 *   constraints are defaults for auto mode and are dropped.
 * - none: nothing; a request that says none and also asks for graph content is a conflict.
 *
 * @param graph `NormalisedPolicy.graph`: the request's graph keys (policy.graph over memory_policy).
 * @param schemaPolicy The `memory_policy` of the schema named by `requestedSchemaId(graph, …)`, if any.
 * @param graphGeneration The deprecated `graph_generation`, a level between the two.
 * @throws AppError 422 naming the offending or conflicting fields.
 */
export function resolveGraphPlan(
  graph: Record<string, unknown> | null | undefined,
  schemaPolicy?: Record<string, unknown> | null,
  graphGeneration?: unknown,
): GraphPlan {
  const request = asObject(graph, 'policy.graph');
  const levels: PolicyLevel[] = [readLevel(request, '')];
  if (graphGeneration != null) levels.push(readGraphGeneration(graphGeneration));
  if (schemaPolicy != null)
    levels.push(readLevel(asObject(schemaPolicy, 'schema.memory_policy'), 'schema.memory_policy'));
  levels.forEach(checkLevel);

  const mode = first(levels, impliedMode) ?? 'auto';
  const schema_id = first(levels, (l) => l.schema_id);
  if (mode === 'none') return emptyPlan(schema_id);
  const contributing = levels.filter((l) => impliedMode(l) === undefined || impliedMode(l) === mode);
  const plan: GraphPlan = {
    ...emptyPlan(schema_id),
    mode,
    link_to_previous_memory: first(levels, (l) => l.link_to_previous_memory) ?? false,
    link_to_related_memories: first(levels, (l) => l.link_to_related_memories) ?? 0,
    link_to_context_memories: first(levels, (l) => l.link_to_context_memories) ?? 0,
    relationships: first(contributing, (l) => l.relationships) ?? [],
  };
  if (mode === 'manual') {
    const conflicting = contributing
      .filter((l) => l.prefix !== 'schema.memory_policy')
      .flatMap((l) => l.constraintFields);
    if (conflicting.length) {
      throw unprocessable(
        `mode manual stores exactly the given nodes and relationships; remove ${conflicting.join(', ')}`,
        { fields: ['mode', ...conflicting] },
      );
    }
    plan.nodes = first(contributing, (l) => l.nodes) ?? [];
    if (plan.nodes.length === 0 && plan.relationships.length === 0) {
      throw unprocessable('mode manual needs nodes (or relationships)', { fields: ['mode', 'nodes'] });
    }
    const seen = new Set<string>();
    for (const n of plan.nodes) {
      if (seen.has(n.id)) throw unprocessable(`Duplicate node id "${n.id}" in nodes`, { fields: ['nodes'], id: n.id });
      seen.add(n.id);
    }
  } else {
    plan.node_constraints = mergeByKey(
      contributing.map((l) => l.node_constraints),
      nodeKey,
    );
    plan.edge_constraints = mergeByKey(
      contributing.map((l) => l.edge_constraints),
      edgeKey,
    );
  }
  return parseOr422(graphPlan, plan, 'policy.graph');
}

/**
 * Apply the data owner's consent: `none` means no graph work at all (no extraction, no
 * links), whatever the request asked for; other values leave the plan as it is.
 */
export function applyConsent(plan: GraphPlan, consent: string | null | undefined): GraphPlan {
  return consent === 'none' ? { ...emptyPlan(plan.schema_id), disabled_by: 'consent' } : plan;
}

/**
 * The schema id the request names (policy/memory_policy `schema_id`, else the deprecated
 * `graph_generation.auto.schema_id`), so the caller can load that schema's memory_policy
 * before calling `resolveGraphPlan`.
 */
export function requestedSchemaId(
  graph: Record<string, unknown> | null | undefined,
  graphGeneration?: unknown,
): string | undefined {
  const request = asObject(graph, 'policy.graph');
  const fromRequest = readLevel({ schema_id: request.schema_id }, '').schema_id;
  if (fromRequest !== undefined || graphGeneration == null) return fromRequest;
  return readGraphGeneration(graphGeneration).schema_id;
}

/** A memory's graph policy as the edge normalised it: the request's graph keys, and the deprecated graph_generation. */
export interface GraphPolicy {
  graph: Record<string, unknown>;
  graph_generation?: unknown;
}

/**
 * The graph policy of a stored memory's `policy`. Memories stored before the plan was kept
 * with them (migration 0015) carried graph_generation inside `graph`, as `legacy_graph_generation`.
 */
export function storedGraphPolicy(policy: Record<string, unknown> | null | undefined): GraphPolicy {
  const { legacy_graph_generation: inside, ...graph } = asObject(policy?.graph, 'policy.graph');
  return { graph, graph_generation: policy?.graph_generation ?? inside ?? undefined };
}

/** A level's own mode, or manual when it gives manual nodes without one. */
function impliedMode(l: PolicyLevel): GraphMode | undefined {
  return l.mode ?? (l.nodes?.length ? 'manual' : undefined);
}

/** Contradictions inside one level. */
function checkLevel(l: PolicyLevel): void {
  const field = (k: string) => (l.prefix ? `${l.prefix}.${k}` : k);
  if (l.mode === 'auto' && l.nodes?.length) {
    throw unprocessable(`${field('mode')} auto extracts the graph; manual nodes need mode manual`, {
      fields: [field('mode'), field('nodes')],
    });
  }
  if (l.mode === 'none' && l.contentFields.length) {
    throw unprocessable(`${field('mode')} none builds no graph; remove ${l.contentFields.join(', ')}`, {
      fields: [field('mode'), ...l.contentFields],
    });
  }
}

function first<T>(levels: PolicyLevel[], pick: (l: PolicyLevel) => T | undefined): T | undefined {
  for (const l of levels) {
    const v = pick(l);
    if (v !== undefined) return v;
  }
  return undefined;
}

function emptyPlan(schema_id: string | undefined): GraphPlan {
  return {
    mode: 'none' as GraphMode,
    ...(schema_id !== undefined ? { schema_id } : {}),
    nodes: [],
    relationships: [],
    node_constraints: [],
    edge_constraints: [],
    link_to_previous_memory: false,
    link_to_related_memories: 0,
    link_to_context_memories: 0,
  };
}

const nodeKey = (c: NodeConstraint) => c.node_type;
const edgeKey = (c: EdgeConstraint) => [c.edge_type, c.source_type ?? '*', c.target_type ?? '*', c.direction].join('|');

/** Keep every entry of the highest level; lower levels only add keys no higher level has. */
function mergeByKey<T>(byLevel: T[][], key: (t: T) => string): T[] {
  const out: T[] = [];
  const taken = new Set<string>();
  for (const entries of byLevel) {
    const mine = new Set<string>();
    for (const e of entries) {
      if (taken.has(key(e))) continue;
      out.push(e);
      mine.add(key(e));
    }
    mine.forEach((k) => taken.add(k));
  }
  return out;
}
