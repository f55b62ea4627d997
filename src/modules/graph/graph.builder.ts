import type { Db, Queryable } from '../../platform/db/index.ts';
import type { Logger } from '../../platform/log.ts';
import type { Extraction, Extractor } from '../../platform/models/extractor.ts';
import { newId } from '../../shared/ids.ts';
import { dot } from '../../platform/models/embedder.ts';
import type { StepWrites } from '../../platform/jobs/index.ts';
import { applyConsent, requestedSchemaId, resolveGraphPlan, storedGraphPolicy, type GraphPolicy } from './policy.ts';
import type { GraphPlan, ViaRelationship } from './policy.schemas.ts';
import {
  canonicalKey,
  neighboursVia,
  nodesOfType,
  setMemoryEdges,
  setMemoryNodes,
  upsertNodes,
  type NodeRow,
} from './graph.store.ts';
import {
  existingMemoryIds,
  linkOwnMemoryNode,
  previousMemoryIds,
  relatedMemoryIds,
  stillCurrent,
} from './links.store.ts';
import { extractionSchema } from './schema-bridge.ts';
import type { ActiveSchema } from '../schemas/index.ts';
import { applyEdgeConstraints, applyNodeConstraints, type PlannedEdge, type PlannedNode } from './constraints.ts';

/** What one build stored: nodes linked (created or reused) and edges. */
export interface BuiltGraph {
  nodes: number;
  edges: number;
  reused: number;
}

/** A planned graph's writes (a {@link StepWrites} that reports what it stored). */
interface GraphWrites extends StepWrites {
  write(tx: Queryable): Promise<BuiltGraph>;
}

const NOTHING: BuiltGraph = { nodes: 0, edges: 0, reused: 0 };

interface PlannedGraph {
  nodes: PlannedNode[];
  edges: PlannedEdge[];
}

export interface GraphBuilderDeps {
  db: Db;
  extractor: Extractor;
  log?: Logger;
  /** Embeds names for `semantic` constraint matching (the primary embedder, cached). */
  embed?: (texts: string[]) => Promise<number[][]>;
  /** A usable user graph schema and its `memory_policy` (null when unknown, deleted or a draft). */
  schema?: (organizationId: string, schemaId: string) => Promise<ActiveSchema | null>;
  /** Counts a schema's use once a graph shaped by it is stored. */
  recordSchemaUse?: (db: Queryable, organizationId: string, schemaId: string) => Promise<void>;
}

/** What the builder reads of a memory (the row `memory.process` read at its start). */
export interface GraphMemory {
  id: string;
  organization_id: string;
  namespace_id: string | null;
  user_id: string;
  content: string;
  context: { role: string; content: string }[] | null;
  policy: Record<string, unknown>;
  consent: string;
  occurred_at: Date | null;
  created_at: Date;
  /** The plan resolved when the memory was written (null for memories written before plans were stored). */
  graph_plan?: GraphPlan | null;
}

/** `set: {prop: {mode: auto, prompt}}` of the node constraints, as guidance for a model extractor. */
function autoGuidance(plan: GraphPlan): string[] {
  return plan.node_constraints.flatMap((c) =>
    Object.entries(c.set ?? {}).flatMap(([prop, v]) =>
      v.mode === 'auto' && v.prompt ? [`${c.node_type}.${prop}: ${v.prompt}`] : [],
    ),
  );
}

const memoryNode = (key: string, memoryId: string): PlannedNode => ({
  key,
  type: 'Memory',
  name: memoryId,
  properties: { memory_id: memoryId },
});

/**
 * The request's plan was validated when the memory was written; a schema's memory_policy can
 * still conflict with it (the schema changed since). Retrying cannot fix that, so the request
 * alone decides then, and the conflict is logged.
 */
function planWithSchema(policy: GraphPolicy, schemaPolicy: Record<string, unknown> | null, log?: Logger): GraphPlan {
  try {
    return resolveGraphPlan(policy.graph, schemaPolicy, policy.graph_generation);
  } catch (err) {
    if (!schemaPolicy) throw err;
    log?.warn({ err }, 'the schema memory_policy conflicts with the memory policy; using the memory policy alone');
    return resolveGraphPlan(policy.graph, null, policy.graph_generation);
  }
}

/** Other memories this one relates to, found before planning (store queries). */
interface MemoryRefs {
  previous: string | undefined;
  context: string[];
  related: string[];
  /** Memory ids named by relationships that exist in the organization. */
  named: Set<string>;
}

/** Extraction (auto) or the given nodes (manual) as one planned graph around the memory. */
function planFrom(plan: GraphPlan, extraction: Extraction | null, memoryId: string, refs: MemoryRefs): PlannedGraph {
  const out: PlannedGraph = { nodes: [], edges: [] };
  if (plan.mode === 'auto' && extraction) {
    for (const n of extraction.nodes)
      out.nodes.push({ key: n.key, type: n.type, name: n.name, properties: n.properties });
    for (const r of extraction.relationships)
      out.edges.push({ source: r.source, target: r.target, type: r.type, properties: r.properties ?? {} });
  }
  if (plan.mode === 'manual') {
    for (const n of plan.nodes) {
      const p = n.properties ?? {};
      const name = String(p.name ?? p.title ?? p.id ?? n.id);
      out.nodes.push({ key: n.id, type: n.type, name, properties: p });
    }
  }
  const refsOf = new Set(out.nodes.map((n) => n.key));
  const memoryKey = (id: string) => `memory:${id}`;
  const others = new Set<string>();
  const endpoint = (ref: string): string | undefined => {
    if (ref === '$this') return '$this';
    if (ref === '$previous') return refs.previous && (others.add(refs.previous), memoryKey(refs.previous));
    if (refsOf.has(ref)) return ref;
    return refs.named.has(ref) ? (others.add(ref), memoryKey(ref)) : undefined;
  };
  for (const r of plan.relationships) {
    const source = endpoint(r.source);
    const target = endpoint(r.target);
    if (source && target) out.edges.push({ source, target, type: r.type, properties: r.properties ?? {} });
  }
  const linkTo = (id: string, type: string) => {
    others.add(id);
    out.edges.push({ source: '$this', target: memoryKey(id), type, properties: {} });
  };
  if (plan.link_to_previous_memory && refs.previous) linkTo(refs.previous, 'FOLLOWS');
  for (const id of refs.context) linkTo(id, 'IN_CONTEXT_OF');
  for (const id of refs.related) linkTo(id, 'RELATED_TO');
  if (out.edges.some((e) => e.source === '$this' || e.target === '$this'))
    out.nodes.push(memoryNode('$this', memoryId));
  for (const id of others) out.nodes.push(memoryNode(memoryKey(id), id));
  return out;
}

/**
 * The `graph` processing step of `memory.process`: resolve the memory's graph plan, extract
 * (auto) or take the given nodes (manual), and make the stored graph of this memory exactly
 * that — idempotent, so a re-run after a crash or an update replaces rather than adds.
 * Model calls happen before the transaction; nodes are upserted in a fixed order so two
 * workers sharing entities cannot deadlock.
 */
export function createGraphBuilder(deps: GraphBuilderDeps) {
  const { db, extractor } = deps;

  const embed = deps.embed;
  const similarity = embed
    ? async (text: string, others: string[]) => {
        const [q, ...vs] = await embed([text, ...others]);
        return vs.map((v) => dot(q, v)); // embedders return unit vectors: the dot product is the cosine
      }
    : undefined;

  async function memoryRefs(plan: GraphPlan, m: GraphMemory): Promise<MemoryRefs> {
    if (plan.mode === 'none') return { previous: undefined, context: [], related: [], named: new Set() };
    // Only plans that link to earlier memories pay for the lookup (most memories do not).
    const wantsPrevious =
      plan.link_to_previous_memory ||
      plan.relationships.some((r) => r.source === '$previous' || r.target === '$previous');
    const wanted = Math.max(plan.link_to_context_memories, wantsPrevious ? 1 : 0);
    const before = await previousMemoryIds(db, m, wanted);
    const named = plan.relationships
      .flatMap((r) => [r.source, r.target])
      .filter((x) => !x.startsWith('$') && !plan.nodes.some((n) => n.id === x));
    return {
      previous: before[0],
      context: before.slice(0, plan.link_to_context_memories),
      related: await relatedMemoryIds(db, m, plan.link_to_related_memories),
      named: await existingMemoryIds(db, m.organization_id, named),
    };
  }

  /**
   * Plan the memory's graph (extraction, constraints: reads and model calls, no transaction)
   * and return the writes that store it.
   */
  async function prepare(m: GraphMemory): Promise<GraphWrites> {
    const organizationId = m.organization_id;
    const stored = m.graph_plan ? null : storedGraphPolicy(m.policy);
    const schemaId = stored ? requestedSchemaId(stored.graph, stored.graph_generation) : m.graph_plan?.schema_id;
    // The schema still shapes extraction (its types and properties) and is stamped on the nodes.
    const active = schemaId && deps.schema ? await deps.schema(organizationId, schemaId) : null;
    // The plan was resolved when the memory was written; only memories stored before plans
    // were kept (migration 0015) resolve it here.
    const resolved = m.graph_plan ?? planWithSchema(stored!, active?.memoryPolicy ?? null, deps.log);
    const plan = applyConsent(resolved, m.consent);
    const refs = await memoryRefs(plan, m);
    const extraction =
      plan.mode === 'auto'
        ? await extractor.extract({
            content: m.content,
            context: m.context ?? undefined,
            createdAt: m.occurred_at ?? m.created_at,
            // With a schema the extractor keeps to its types and properties.
            schema: active ? extractionSchema(active.schema) : undefined,
            guidance: autoGuidance(plan),
          })
        : null;
    const namespaceKey = m.namespace_id ?? '';
    const planned = plan.mode === 'none' ? { nodes: [], edges: [] } : planFrom(plan, extraction, m.id, refs);
    if (plan.mode === 'auto' && (plan.node_constraints.length || plan.edge_constraints.length)) {
      const cache = new Map<string, Promise<NodeRow[]>>();
      const candidates = (type: string) => {
        if (!cache.has(type)) cache.set(type, nodesOfType(db, organizationId, namespaceKey, type));
        return cache.get(type)!;
      };
      const neighbours = (ids: string[], v: ViaRelationship) => neighboursVia(db, organizationId, ids, v);
      planned.nodes = await applyNodeConstraints(planned.nodes, plan.node_constraints, {
        candidates,
        neighbours,
        similarity,
      });
      planned.edges = applyEdgeConstraints(planned.edges, planned.nodes, plan.edge_constraints);
    }
    let built = NOTHING;
    const write = async (tx: Queryable): Promise<BuiltGraph> => {
      // A run that read an older version of the memory (content or policy changed meanwhile)
      // writes nothing: the run enqueued with that update builds from the new row.
      if (!(await stillCurrent(tx, m))) return NOTHING;
      const ids = new Map<string, string>();
      let reused = 0;
      const ordered = [...planned.nodes].sort((a, b) =>
        a.type + canonicalKey(a.name) < b.type + canonicalKey(b.name) ? -1 : 1,
      );
      const upserted = await upsertNodes(
        tx,
        organizationId,
        namespaceKey,
        ordered.map((n) => ({
          type: n.type,
          name: n.name,
          properties: n.properties,
          schemaId: active && n.type !== 'Memory' ? schemaId! : null,
        })),
      );
      ordered.forEach((n, i) => {
        ids.set(n.key, upserted[i].id);
        if (!upserted[i].inserted) reused++;
      });
      // This memory links to its own nodes; another memory's Memory node belongs to that memory.
      const linked = planned.nodes.filter((n) => !n.key.startsWith('memory:')).map((n) => ids.get(n.key)!);
      await setMemoryNodes(tx, organizationId, m.id, [...new Set(linked)]);
      for (const n of planned.nodes)
        if (n.key.startsWith('memory:')) await linkOwnMemoryNode(tx, organizationId, n.name, ids.get(n.key)!);
      const edges = planned.edges
        .filter((e) => ids.has(e.source) && ids.has(e.target) && ids.get(e.source) !== ids.get(e.target))
        .map((e) => ({
          id: newId(),
          source: ids.get(e.source)!,
          target: ids.get(e.target)!,
          type: e.type,
          properties: e.properties,
        }));
      await setMemoryEdges(tx, organizationId, m.id, edges);
      built = { nodes: ids.size, edges: edges.length, reused };
      return built;
    };
    return {
      write,
      // The schema's usage count, after the commit: one short update on a row every memory of
      // that schema shares, which a long transaction should not hold.
      after: async () => {
        if (active && built.nodes) await deps.recordSchemaUse?.(db, organizationId, schemaId!);
      },
    };
  }

  /** Plan and store the graph of one memory in a transaction of its own (re-builds, tools). */
  async function build(memory: GraphMemory): Promise<BuiltGraph> {
    const w = await prepare(memory);
    const built = await db.transaction((tx) => w.write(tx));
    await w.after?.();
    return built;
  }

  return {
    name: 'graph',
    build,
    // In memory.process, the writes join the transaction that completes the memory.
    run: (memory: GraphMemory): Promise<StepWrites> => prepare(memory),
  };
}
