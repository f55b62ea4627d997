/**
 * Checks on a schema definition itself, before it is stored: the documented limits, names
 * that match their keys, required/unique lists that name defined properties, and property
 * definitions that do not contradict themselves.
 */
import type { z } from 'zod';
import type { nodeTypeInput, PropertyDefinition, relationshipTypeInput } from './schemas.schemas.ts';
import { patternBudget, patternDefinitionError, schemaPatternBudget, type PatternBudget } from './validate.pattern.ts';
import { problem, valueProblem, type SchemaProblem } from './validate.values.ts';

/** Documented schema limits (client contract: "optimized for LLM performance"). */
export const SCHEMA_LIMITS = {
  nodeTypes: 10,
  relationshipTypes: 20,
  propertiesPerNodeType: 10,
  /** Not documented by the client; a sanity bound of ours. */
  propertiesPerRelationshipType: 20,
  enumValues: 15,
} as const;

type NodeTypeLike = z.infer<typeof nodeTypeInput>;
type RelationshipTypeLike = z.infer<typeof relationshipTypeInput>;

/** The parts of a schema the checks read; a stored UserGraphSchema fits. */
export interface GraphSchemaDefinition {
  id?: string;
  node_types: Record<string, NodeTypeLike>;
  relationship_types: Record<string, RelationshipTypeLike>;
}

/** What checking one schema definition may spend on its patterns: compiling them, matching defaults. */
interface DefinitionBudgets {
  compile: PatternBudget;
  match: PatternBudget;
}

function propertyDefinitionProblems(
  def: PropertyDefinition,
  field: string,
  budgets: DefinitionBudgets,
): SchemaProblem[] {
  const out: SchemaProblem[] = [];
  const ev = def.enum_values;
  if (ev) {
    if (ev.length > SCHEMA_LIMITS.enumValues)
      out.push(
        problem(
          `${field}.enum_values`,
          'limit_exceeded',
          `At most ${SCHEMA_LIMITS.enumValues} enum values per property (got ${ev.length})`,
        ),
      );
    if (ev.length === 0)
      out.push(problem(`${field}.enum_values`, 'invalid_definition', 'enum_values must not be empty when given'));
    if (new Set(ev).size !== ev.length)
      out.push(problem(`${field}.enum_values`, 'invalid_definition', 'enum_values must not repeat a value'));
    if (ev.some((e) => e.trim() === ''))
      out.push(problem(`${field}.enum_values`, 'invalid_definition', 'enum_values must be non-empty strings'));
  }
  if (def.min_length !== undefined && def.max_length !== undefined && def.min_length > def.max_length) {
    out.push(problem(`${field}.min_length`, 'invalid_definition', 'min_length is greater than max_length'));
  }
  if (def.min_value !== undefined && def.max_value !== undefined && def.min_value > def.max_value) {
    out.push(problem(`${field}.min_value`, 'invalid_definition', 'min_value is greater than max_value'));
  }
  if (def.pattern !== undefined) {
    const why = patternDefinitionError(def.pattern, budgets.compile);
    if (why) out.push(problem(`${field}.pattern`, 'invalid_definition', `pattern ${why}`));
  }
  if (def.default !== undefined && out.length === 0) {
    const bad = valueProblem(def, def.default, budgets.match);
    if (bad)
      out.push(problem(`${field}.default`, 'invalid_definition', `default does not fit the property: ${bad.message}`));
  }
  return out;
}

function propertiesProblems(
  props: Record<string, PropertyDefinition> | undefined,
  field: string,
  max: number,
  what: string,
  budgets: DefinitionBudgets,
): SchemaProblem[] {
  const entries = Object.entries(props ?? {});
  const out: SchemaProblem[] = [];
  if (entries.length > max)
    out.push(
      problem(`${field}.properties`, 'limit_exceeded', `At most ${max} properties per ${what} (got ${entries.length})`),
    );
  for (const [name, def] of entries)
    out.push(...propertyDefinitionProblems(def, `${field}.properties.${name}`, budgets));
  return out;
}

/**
 * Everything wrong with a schema definition: the limits (10 node types, 20 relationship
 * types, 10 properties per node type, 15 enum values), names that disagree with their
 * keys, required/unique properties that are not defined, and property definitions that
 * contradict themselves (empty or repeated enum values, min above max, a pattern RE2 refuses
 * or one too large, a default that does not fit).
 */
export function definitionProblems(def: GraphSchemaDefinition): SchemaProblem[] {
  const out: SchemaProblem[] = [];
  const budgets: DefinitionBudgets = { compile: schemaPatternBudget(), match: patternBudget() };
  const nodeTypes = Object.entries(def.node_types);
  const relTypes = Object.entries(def.relationship_types);
  if (nodeTypes.length > SCHEMA_LIMITS.nodeTypes) {
    out.push(
      problem(
        'node_types',
        'limit_exceeded',
        `At most ${SCHEMA_LIMITS.nodeTypes} node types per schema (got ${nodeTypes.length})`,
      ),
    );
  }
  if (relTypes.length > SCHEMA_LIMITS.relationshipTypes) {
    out.push(
      problem(
        'relationship_types',
        'limit_exceeded',
        `At most ${SCHEMA_LIMITS.relationshipTypes} relationship types per schema (got ${relTypes.length})`,
      ),
    );
  }
  for (const [key, nt] of nodeTypes) {
    const field = `node_types.${key}`;
    if (nt.name !== undefined && nt.name !== key)
      out.push(problem(`${field}.name`, 'invalid_definition', `name "${nt.name}" differs from its key "${key}"`));
    out.push(...propertiesProblems(nt.properties, field, SCHEMA_LIMITS.propertiesPerNodeType, 'node type', budgets));
    for (const list of ['required_properties', 'unique_identifiers'] as const) {
      for (const p of nt[list] ?? []) {
        if (!nt.properties?.[p])
          out.push(problem(`${field}.${list}`, 'invalid_definition', `"${p}" is not a property of ${key}`));
      }
    }
  }
  for (const [key, rt] of relTypes) {
    const field = `relationship_types.${key}`;
    if (rt.name !== undefined && rt.name !== key)
      out.push(problem(`${field}.name`, 'invalid_definition', `name "${rt.name}" differs from its key "${key}"`));
    out.push(
      ...propertiesProblems(
        rt.properties,
        field,
        SCHEMA_LIMITS.propertiesPerRelationshipType,
        'relationship type',
        budgets,
      ),
    );
  }
  return out;
}
