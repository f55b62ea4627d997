import type { Queryable } from '../../platform/db/index.ts';
import type { Logger } from '../../platform/log.ts';
import type { Actor } from '../../shared/actor.ts';
import { AppError } from '../../shared/errors.ts';
import { assertNodesMatchSchema, type ActiveSchema, type PatternBudget } from '../schemas/index.ts';
import { resolveGraphPlan, type GraphPolicy } from './policy.ts';
import type { GraphPlan } from './policy.schemas.ts';

/** How the planner finds the schema a policy names, as the caller may see it (404/422 otherwise). */
export type SchemaForActor = (
  db: Queryable,
  actor: Actor,
  schemaId: string,
  opts: { field?: string },
) => Promise<ActiveSchema>;

/**
 * The graph plan of a memory being written, resolved once at the edge so the caller gets the
 * 422 instead of a failed memory later: the request's policy (policy.graph, memory_policy,
 * link_to, the deprecated forms) must resolve; a named schema must be usable by this caller,
 * and its memory_policy fills what the request leaves open; manual nodes and relationships
 * must fit it (types, required properties, enums). Extracted graphs are kept to the schema by
 * the extractor instead.
 */
export function graphPlanner(schemaFor: SchemaForActor, log?: Logger) {
  /**
   * `budget`: the pattern-matching budget of the whole request (a batch passes one to every
   * item); by default each call has its own.
   */
  return async function planFor(
    db: Queryable,
    actor: Actor,
    policy: GraphPolicy,
    budget?: PatternBudget,
  ): Promise<GraphPlan> {
    const { graph, graph_generation: generation } = policy;
    const request = resolveGraphPlan(graph, null, generation);
    if (!request.schema_id) return request;
    const { schema, memoryPolicy } = await schemaFor(db, actor, request.schema_id, {
      field: 'memory_policy.schema_id',
    });
    let plan = request;
    try {
      plan = resolveGraphPlan(graph, memoryPolicy, generation);
    } catch (err) {
      // The schema's defaults cannot join this request's plan (e.g. constraints for manual
      // mode): the request alone decides, as it wins over the schema's policy anyway.
      if (!(err instanceof AppError)) throw err;
      log?.warn({ err, schema_id: request.schema_id }, 'the schema memory_policy conflicts with the memory policy');
    }
    if (plan.mode === 'manual')
      assertNodesMatchSchema(schema, plan.nodes, plan.relationships, { location: 'memory_policy', budget });
    return plan;
  };
}
