/**
 * Validation against a user graph schema: nodes and relationships checked against their
 * types (validateNodesAgainstSchema, assertNodesMatchSchema) and the 422 that lists every
 * problem. The schema definition checks (validate.definition.ts) and the per-value checks
 * (validate.values.ts) live beside it and are re-exported here, so importers use this path.
 */
import { unprocessable, type AppError } from '../../shared/errors.ts';
import type { PropertyDefinition } from './schemas.schemas.ts';
import type { GraphSchemaDefinition } from './validate.definition.ts';
import { patternBudget, type PatternBudget } from './validate.pattern.ts';
import { problem, valueProblem, type SchemaProblem } from './validate.values.ts';

export { definitionProblems, SCHEMA_LIMITS, type GraphSchemaDefinition } from './validate.definition.ts';
export { valueProblem, type SchemaProblem, type SchemaProblemCode } from './validate.values.ts';
export { PATTERN_LIMITS } from './validate.pattern.ts';

/** A node to check: NodeSpec (`type`) or the legacy manual form (`label`). */
export interface NodeInput {
  id?: string;
  type?: string;
  label?: string;
  properties?: Record<string, unknown>;
}

/** A relationship to check: RelationshipSpec or the legacy `source_node_id/target_node_id/relationship_type`. */
export interface RelationshipInput {
  source?: string;
  target?: string;
  type?: string;
  source_node_id?: string;
  target_node_id?: string;
  relationship_type?: string;
  properties?: Record<string, unknown>;
}

/** How validateNodesAgainstSchema reports problems and resolves node types it is not given. */
export interface ValidateOptions {
  /** Field paths the problems are reported under. Default `nodes` and `relationships`. */
  nodesField?: string;
  relationshipsField?: string;
  /** The type of a node referenced by id but not in `nodes` (an existing graph node). */
  typeOfNode?: (id: string) => string | undefined;
  /** Node types accepted without a definition here (built-in types); their properties are not checked. */
  extraNodeTypes?: readonly string[];
  /**
   * The matching budget to spend (default: a new one, PATTERN_LIMITS.work, for this call). A
   * request that checks many writes (a batch of 1,000 memories with manual nodes) passes one
   * budget to every call, so the request as a whole is bounded, not each of its items.
   */
  budget?: PatternBudget;
}

function propertyValueProblems(
  props: Record<string, unknown> | undefined,
  defs: Record<string, PropertyDefinition> | undefined,
  required: readonly string[],
  field: string,
  budget: PatternBudget,
): SchemaProblem[] {
  const out: SchemaProblem[] = [];
  for (const [name, def] of Object.entries(defs ?? {})) {
    const v = props?.[name];
    if (v === undefined || v === null) {
      if ((def.required || required.includes(name)) && def.default === undefined) {
        out.push(
          problem(`${field}.properties.${name}`, 'missing_required_property', `Required property "${name}" is missing`),
        );
      }
      continue;
    }
    const bad = valueProblem(def, v, budget);
    if (bad) out.push(problem(`${field}.properties.${name}`, bad.code, bad.message));
  }
  return out;
}

/**
 * Check nodes and relationships against a schema; returns every problem (empty: valid).
 * Nodes: a known type, required properties present (a `default` satisfies), values of the
 * declared type, enum, length, range and pattern (RE2, one matching budget for the call:
 * PATTERN_LIMITS.work); undeclared properties are allowed.
 * Relationships: a known type whose allowed source and target types admit the endpoints'
 * types. `$this`, `$previous` and other `$…` references (the memory itself) are not typed
 * and not checked; other ids must be in `nodes` or known to `typeOfNode`.
 */
export function validateNodesAgainstSchema(
  schema: GraphSchemaDefinition,
  nodes: readonly NodeInput[],
  relationships: readonly RelationshipInput[] = [],
  opts: ValidateOptions = {},
): SchemaProblem[] {
  const nf = opts.nodesField ?? 'nodes';
  const rf = opts.relationshipsField ?? 'relationships';
  const extra = new Set(opts.extraNodeTypes ?? []);
  const out: SchemaProblem[] = [];
  // One matching budget for the whole write (or request): each value is bounded, their number is not small.
  const budget = opts.budget ?? patternBudget();
  const typeById = new Map<string, string>();
  nodes.forEach((n, i) => {
    const type = n.type ?? n.label;
    if (type && n.id) typeById.set(n.id, type);
    const def = type ? schema.node_types[type] : undefined;
    if (!def) {
      if (!type || !extra.has(type))
        out.push(
          problem(
            `${nf}.${i}.type`,
            'unknown_node_type',
            `Node type ${JSON.stringify(type ?? null)} is not in the schema`,
          ),
        );
      return;
    }
    out.push(
      ...propertyValueProblems(n.properties, def.properties, def.required_properties ?? [], `${nf}.${i}`, budget),
    );
  });
  relationships.forEach((r, i) => {
    const type = r.type ?? r.relationship_type;
    const def = type ? schema.relationship_types[type] : undefined;
    if (!def) {
      out.push(
        problem(
          `${rf}.${i}.type`,
          'unknown_relationship_type',
          `Relationship type ${JSON.stringify(type ?? null)} is not in the schema`,
        ),
      );
      return;
    }
    const ends = [
      ['source', r.source ?? r.source_node_id, def.allowed_source_types, 'invalid_relationship_source'],
      ['target', r.target ?? r.target_node_id, def.allowed_target_types, 'invalid_relationship_target'],
    ] as const;
    for (const [end, ref, allowed, code] of ends) {
      if (typeof ref === 'string' && ref.startsWith('$')) continue;
      const endType = ref ? (typeById.get(ref) ?? opts.typeOfNode?.(ref)) : undefined;
      if (!endType)
        out.push(
          problem(
            `${rf}.${i}.${end}`,
            'unknown_node_reference',
            ref ? `No node with id ${JSON.stringify(ref)}` : `The relationship has no ${end}`,
          ),
        );
      else if (!allowed.includes(endType))
        out.push(
          problem(
            `${rf}.${i}.${end}`,
            code,
            `${type} does not allow a ${endType} ${end} (allowed: ${allowed.join(', ')})`,
          ),
        );
    }
    out.push(...propertyValueProblems(r.properties, def.properties, [], `${rf}.${i}`, budget));
  });
  return out;
}

/** A 422 whose message names the first problem's field and whose `details.issues` list them all. */
export function schemaProblemsError(what: string, problems: readonly SchemaProblem[], location = 'body'): AppError {
  const first = problems[0];
  const more = problems.length > 1 ? ` (and ${problems.length - 1} more)` : '';
  return unprocessable(`${what}: ${first.field}: ${first.message}${more}`, {
    issues: problems.map((p) => ({ location, ...p })),
  });
}

/** Throw a 422 (schemaProblemsError) unless the nodes and relationships fit the schema. */
export function assertNodesMatchSchema(
  schema: GraphSchemaDefinition,
  nodes: readonly NodeInput[],
  relationships: readonly RelationshipInput[] = [],
  opts: ValidateOptions & { location?: string } = {},
): void {
  const problems = validateNodesAgainstSchema(schema, nodes, relationships, opts);
  if (problems.length)
    throw schemaProblemsError(`The graph does not match schema ${schema.id ?? ''}`.trim(), problems, opts.location);
}
