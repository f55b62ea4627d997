/**
 * The knowledge graph: built from every memory in the background (a `memory.process` step),
 * checked at write time (a memory's graph policy), read by search (`enable_agentic_graph`,
 * result nodes) and pruned with namespaces (docs/graph.md).
 */
import type { Db } from '../../platform/db/index.ts';
import type { Logger } from '../../platform/log.ts';
import type { Extractor } from '../../platform/models/extractor.ts';
import type { SchemasModule } from '../schemas/index.ts';
import { createGraphBuilder } from './graph.builder.ts';
import {
  canonicalKey,
  countNamespaceGraph,
  countNamespaceNodes,
  deleteNamespaceNodes,
  matchNodes,
  nodesOfMemories,
} from './graph.store.ts';
import { graphLinks } from './walk.store.ts';
import { graphsOfMemories } from './export.store.ts';
import { graphPlanner } from './graph.validate.ts';
import { overrideMatches } from './override.store.ts';
import { relationshipsOfMemories } from './relationships.store.ts';

export interface GraphModuleDeps {
  db: Db;
  log?: Logger;
  /** Entities and relationships of a memory (local rules, or an LLM). */
  extractor: Extractor;
  /** Embeds names for `semantic` constraint matching (the primary embedder, cached). */
  embed?: (texts: string[]) => Promise<number[][]>;
  schemas: Pick<SchemasModule, 'activeFor' | 'activeInOrganization' | 'recordUse'>;
}

export function createGraphModule(deps: GraphModuleDeps) {
  const { db, schemas } = deps;
  return {
    /** The `graph` step of memory processing. */
    builder: createGraphBuilder({
      db,
      log: deps.log,
      extractor: deps.extractor,
      embed: deps.embed,
      schema: (organizationId, schemaId) => schemas.activeInOrganization(db, organizationId, schemaId),
      recordSchemaUse: schemas.recordUse,
    }),
    /**
     * A memory's graph plan, resolved once when it is written (422 for the caller, not a failed
     * memory later): stored with the memory, built from by the background step.
     */
    planFor: graphPlanner(schemas.activeFor, deps.log),
    /** What a namespace deletion removes of the graph. */
    namespaceContent: {
      countNodes: countNamespaceNodes,
      countGraph: countNamespaceGraph,
      deleteNodes: deleteNamespaceNodes,
    },
  };
}
export type GraphModule = ReturnType<typeof createGraphModule>;

/** What search (and GraphQL: a user's graph) reads of the graph (stateless; each call takes its connection). */
export const graphReader = {
  canonicalKey,
  matchNodes,
  graphLinks,
  nodesOfMemories,
  overrideMatches,
  relationshipsOfMemories,
};
export type GraphReader = typeof graphReader;

/** What an export reads of the graph: each memory's nodes and relationships (stateless). */
export const graphExport = { graphsOfMemories };
export type GraphExport = typeof graphExport;
export type { MemoryGraph, ExportedNode, ExportedEdge } from './export.store.ts';
export { GRAPH_LIMITS } from './policy.schemas.ts';

export type { GraphMemory, BuiltGraph } from './graph.builder.ts';
export type { NodeRow } from './graph.store.ts';
export type { RelationshipRow } from './relationships.store.ts';
export type { OverrideFilter } from './override.store.ts';
export { graphNode } from './graph.schemas.ts';
export { resolveGraphPlan, storedGraphPolicy, type GraphPolicy } from './policy.ts';
export type { GraphPlan } from './policy.schemas.ts';
export {
  graphGenerationWire,
  graphPolicyFields,
  graphPolicyWire,
  linkToWire,
  relationshipsJsonWire,
  relationshipWire,
} from './policy.wire.ts';
/**
 * The pattern-matching budget of one request, for `planFor`'s last argument: a batch shares
 * one across its items so a thousand manual graphs cannot each spend a whole budget.
 */
export { patternBudget as requestPatternBudget, type PatternBudget } from '../schemas/index.ts';
