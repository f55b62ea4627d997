import type { Queryable } from '../../platform/db/index.ts';
import type { Actor } from '../../shared/actor.ts';
import { assertNodesMatchSchema, type ActiveSchema } from '../schemas/index.ts';
import { resolveGraphPlan } from './policy.ts';

/** How the check finds the schema a policy names, as the caller may see it (404/422 otherwise). */
export type SchemaForActor = (
  db: Queryable,
  actor: Actor,
  schemaId: string,
  opts: { field?: string },
) => Promise<ActiveSchema>;

/**
 * Write-time checks of a memory's graph policy, so the caller gets the 422 instead of a
 * failed memory later: the plan must resolve (policy, link_to), a named schema must be usable
 * by this caller, and manual nodes and relationships must fit it (types, required properties,
 * enums). Extracted graphs are kept to the schema by the extractor instead.
 */
export function graphPolicyCheck(schemaFor: SchemaForActor) {
  return async function checkGraphPolicy(db: Queryable, actor: Actor, graph: Record<string, unknown>): Promise<void> {
    const plan = resolveGraphPlan(graph);
    if (!plan.schema_id) return;
    const { schema } = await schemaFor(db, actor, plan.schema_id, { field: 'memory_policy.schema_id' });
    if (plan.mode === 'manual')
      assertNodesMatchSchema(schema, plan.nodes, plan.relationships, { location: 'memory_policy' });
  };
}
