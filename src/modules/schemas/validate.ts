import type { z } from 'zod';
import { unprocessable, type AppError } from '../../shared/errors.ts';
import type { nodeTypeInput, PropertyDefinition, relationshipTypeInput } from './schemas.schemas.ts';

/** Documented schema limits (client contract: "optimized for LLM performance"). */
export const SCHEMA_LIMITS = {
  nodeTypes: 10,
  relationshipTypes: 20,
  propertiesPerNodeType: 10,
  /** Not documented by the client; a sanity bound of ours. */
  propertiesPerRelationshipType: 20,
  enumValues: 15,
} as const;

export type SchemaProblemCode =
  | 'limit_exceeded' | 'invalid_definition'
  | 'unknown_node_type' | 'missing_required_property' | 'wrong_property_type' | 'enum_violation' | 'out_of_range' | 'pattern_mismatch'
  | 'unknown_relationship_type' | 'invalid_relationship_source' | 'invalid_relationship_target' | 'unknown_node_reference';

/** One thing wrong, named by its dotted field path (as in validation errors: `nodes.0.properties.status`). */
export interface SchemaProblem {
  field: string;
  code: SchemaProblemCode;
  message: string;
}

type NodeTypeLike = z.infer<typeof nodeTypeInput>;
type RelationshipTypeLike = z.infer<typeof relationshipTypeInput>;

/** The parts of a schema the checks read; a stored UserGraphSchema fits. */
export interface GraphSchemaDefinition {
  id?: string;
  node_types: Record<string, NodeTypeLike>;
  relationship_types: Record<string, RelationshipTypeLike>;
}

const problem = (field: string, code: SchemaProblemCode, message: string): SchemaProblem => ({ field, code, message });

const patterns = new Map<string, RegExp | null>();
/**
 * The compiled pattern, or null when it does not compile (cached: definitions are reused
 * per node). Unicode mode first; without it as a fallback, since patterns written for the
 * original (Python) service use escapes such as `\_` that unicode mode refuses.
 */
function compiled(pattern: string): RegExp | null {
  if (!patterns.has(pattern)) {
    let re: RegExp | null = null;
    for (const flags of ['u', '']) {
      try {
        re = new RegExp(pattern, flags);
        break;
      } catch {
        re = null;
      }
    }
    if (patterns.size > 1000) patterns.clear();
    patterns.set(pattern, re);
  }
  return patterns.get(pattern)!;
}

/**
 * True for patterns that can backtrack exponentially on the shared event loop: a repeated
 * group that itself repeats or alternates (`(a+)+`, `(a|aa)*`), or a back-reference.
 */
export function unsafePattern(p: string): boolean {
  const stack: boolean[] = [false]; // per open group: holds a quantifier or an alternation
  for (let i = 0; i < p.length; i++) {
    const c = p[i];
    if (c === '\\') {
      if (/[1-9k]/.test(p[i + 1] ?? '')) return true;
      i++;
    } else if (c === '[') {
      for (i++; i < p.length && p[i] !== ']'; i++) if (p[i] === '\\') i++;
    } else if (c === '(') {
      stack.push(false);
      if (p[i + 1] === '?') {
        if (p[i + 2] === '<' && p[i + 3] !== '=' && p[i + 3] !== '!') i = Math.max(i, p.indexOf('>', i));
        else i += p[i + 2] === '<' ? 3 : 2;
      }
    } else if (c === ')') {
      const risky = stack.length > 1 ? stack.pop()! : false;
      const next = p[i + 1];
      const repeated = next === '*' || next === '+' || next === '{';
      if (risky && repeated) return true;
      stack[stack.length - 1] ||= risky || repeated;
    } else if ('*+?{|'.includes(c)) {
      stack[stack.length - 1] = true;
    }
  }
  return false;
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;
const isPlainObject = (v: unknown) => typeof v === 'object' && v !== null && !Array.isArray(v);

function typeMatches(type: PropertyDefinition['type'], v: unknown): boolean {
  switch (type) {
    case 'string': return typeof v === 'string';
    case 'integer': return Number.isInteger(v);
    case 'float': return typeof v === 'number' && Number.isFinite(v);
    case 'boolean': return typeof v === 'boolean';
    case 'array': return Array.isArray(v);
    case 'datetime': return typeof v === 'string' && ISO_DATE.test(v) && !Number.isNaN(Date.parse(v));
    case 'object': return isPlainObject(v);
  }
}

/**
 * What is wrong with one value of a property, if anything: its type, then its enum
 * (compared as text; each element of an array), length, range and pattern.
 */
export function valueProblem(def: PropertyDefinition, v: unknown): { code: SchemaProblemCode; message: string } | null {
  if (!typeMatches(def.type, v)) return { code: 'wrong_property_type', message: `Expected ${def.type}, got ${Array.isArray(v) ? 'array' : typeof v}` };
  if (def.enum_values && def.type !== 'object') {
    const bad = (Array.isArray(v) ? v : [v]).find((x) => !def.enum_values!.includes(String(x)));
    if (bad !== undefined) return { code: 'enum_violation', message: `${JSON.stringify(bad)} is not one of ${JSON.stringify(def.enum_values)}` };
  }
  if (typeof v === 'string' && def.type === 'string') {
    const len = [...v].length;
    if (def.min_length !== undefined && len < def.min_length) return { code: 'out_of_range', message: `Shorter than min_length ${def.min_length}` };
    if (def.max_length !== undefined && len > def.max_length) return { code: 'out_of_range', message: `Longer than max_length ${def.max_length}` };
    const re = def.pattern ? compiled(def.pattern) : null;
    if (re && !re.test(v)) return { code: 'pattern_mismatch', message: `Does not match pattern ${def.pattern}` };
  }
  if (typeof v === 'number') {
    if (def.min_value !== undefined && v < def.min_value) return { code: 'out_of_range', message: `Below min_value ${def.min_value}` };
    if (def.max_value !== undefined && v > def.max_value) return { code: 'out_of_range', message: `Above max_value ${def.max_value}` };
  }
  return null;
}

function propertyDefinitionProblems(def: PropertyDefinition, field: string): SchemaProblem[] {
  const out: SchemaProblem[] = [];
  const ev = def.enum_values;
  if (ev) {
    if (ev.length > SCHEMA_LIMITS.enumValues) out.push(problem(`${field}.enum_values`, 'limit_exceeded', `At most ${SCHEMA_LIMITS.enumValues} enum values per property (got ${ev.length})`));
    if (ev.length === 0) out.push(problem(`${field}.enum_values`, 'invalid_definition', 'enum_values must not be empty when given'));
    if (new Set(ev).size !== ev.length) out.push(problem(`${field}.enum_values`, 'invalid_definition', 'enum_values must not repeat a value'));
    if (ev.some((e) => e.trim() === '')) out.push(problem(`${field}.enum_values`, 'invalid_definition', 'enum_values must be non-empty strings'));
  }
  if (def.min_length !== undefined && def.max_length !== undefined && def.min_length > def.max_length) {
    out.push(problem(`${field}.min_length`, 'invalid_definition', 'min_length is greater than max_length'));
  }
  if (def.min_value !== undefined && def.max_value !== undefined && def.min_value > def.max_value) {
    out.push(problem(`${field}.min_value`, 'invalid_definition', 'min_value is greater than max_value'));
  }
  if (def.pattern !== undefined) {
    if (!compiled(def.pattern)) out.push(problem(`${field}.pattern`, 'invalid_definition', 'pattern is not a valid regular expression'));
    else if (unsafePattern(def.pattern)) out.push(problem(`${field}.pattern`, 'invalid_definition', 'pattern has nested quantifiers or back-references (catastrophic backtracking)'));
  }
  if (def.default !== undefined && out.length === 0) {
    const bad = valueProblem(def, def.default);
    if (bad) out.push(problem(`${field}.default`, 'invalid_definition', `default does not fit the property: ${bad.message}`));
  }
  return out;
}

function propertiesProblems(props: Record<string, PropertyDefinition> | undefined, field: string, max: number, what: string): SchemaProblem[] {
  const entries = Object.entries(props ?? {});
  const out: SchemaProblem[] = [];
  if (entries.length > max) out.push(problem(`${field}.properties`, 'limit_exceeded', `At most ${max} properties per ${what} (got ${entries.length})`));
  for (const [name, def] of entries) out.push(...propertyDefinitionProblems(def, `${field}.properties.${name}`));
  return out;
}

/**
 * Everything wrong with a schema definition: the limits (10 node types, 20 relationship
 * types, 10 properties per node type, 15 enum values), names that disagree with their
 * keys, required/unique properties that are not defined, and property definitions that
 * contradict themselves (empty or repeated enum values, min above max, a bad or unsafe
 * pattern, a default that does not fit).
 */
export function definitionProblems(def: GraphSchemaDefinition): SchemaProblem[] {
  const out: SchemaProblem[] = [];
  const nodeTypes = Object.entries(def.node_types);
  const relTypes = Object.entries(def.relationship_types);
  if (nodeTypes.length > SCHEMA_LIMITS.nodeTypes) {
    out.push(problem('node_types', 'limit_exceeded', `At most ${SCHEMA_LIMITS.nodeTypes} node types per schema (got ${nodeTypes.length})`));
  }
  if (relTypes.length > SCHEMA_LIMITS.relationshipTypes) {
    out.push(problem('relationship_types', 'limit_exceeded', `At most ${SCHEMA_LIMITS.relationshipTypes} relationship types per schema (got ${relTypes.length})`));
  }
  for (const [key, nt] of nodeTypes) {
    const field = `node_types.${key}`;
    if (nt.name !== undefined && nt.name !== key) out.push(problem(`${field}.name`, 'invalid_definition', `name "${nt.name}" differs from its key "${key}"`));
    out.push(...propertiesProblems(nt.properties, field, SCHEMA_LIMITS.propertiesPerNodeType, 'node type'));
    for (const list of ['required_properties', 'unique_identifiers'] as const) {
      for (const p of nt[list] ?? []) {
        if (!nt.properties?.[p]) out.push(problem(`${field}.${list}`, 'invalid_definition', `"${p}" is not a property of ${key}`));
      }
    }
  }
  for (const [key, rt] of relTypes) {
    const field = `relationship_types.${key}`;
    if (rt.name !== undefined && rt.name !== key) out.push(problem(`${field}.name`, 'invalid_definition', `name "${rt.name}" differs from its key "${key}"`));
    out.push(...propertiesProblems(rt.properties, field, SCHEMA_LIMITS.propertiesPerRelationshipType, 'relationship type'));
  }
  return out;
}

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

export interface ValidateOptions {
  /** Field paths the problems are reported under. Default `nodes` and `relationships`. */
  nodesField?: string;
  relationshipsField?: string;
  /** The type of a node referenced by id but not in `nodes` (an existing graph node). */
  typeOfNode?: (id: string) => string | undefined;
  /** Node types accepted without a definition here (built-in types); their properties are not checked. */
  extraNodeTypes?: readonly string[];
}

function propertyValueProblems(
  props: Record<string, unknown> | undefined,
  defs: Record<string, PropertyDefinition> | undefined,
  required: readonly string[],
  field: string,
): SchemaProblem[] {
  const out: SchemaProblem[] = [];
  for (const [name, def] of Object.entries(defs ?? {})) {
    const v = props?.[name];
    if (v === undefined || v === null) {
      if ((def.required || required.includes(name)) && def.default === undefined) {
        out.push(problem(`${field}.properties.${name}`, 'missing_required_property', `Required property "${name}" is missing`));
      }
      continue;
    }
    const bad = valueProblem(def, v);
    if (bad) out.push(problem(`${field}.properties.${name}`, bad.code, bad.message));
  }
  return out;
}

/**
 * Check nodes and relationships against a schema; returns every problem (empty: valid).
 * Nodes: a known type, required properties present (a `default` satisfies), values of the
 * declared type, enum, length, range and pattern; undeclared properties are allowed.
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
  const typeById = new Map<string, string>();
  nodes.forEach((n, i) => {
    const type = n.type ?? n.label;
    if (type && n.id) typeById.set(n.id, type);
    const def = type ? schema.node_types[type] : undefined;
    if (!def) {
      if (!type || !extra.has(type)) out.push(problem(`${nf}.${i}.type`, 'unknown_node_type', `Node type ${JSON.stringify(type ?? null)} is not in the schema`));
      return;
    }
    out.push(...propertyValueProblems(n.properties, def.properties, def.required_properties ?? [], `${nf}.${i}`));
  });
  relationships.forEach((r, i) => {
    const type = r.type ?? r.relationship_type;
    const def = type ? schema.relationship_types[type] : undefined;
    if (!def) {
      out.push(problem(`${rf}.${i}.type`, 'unknown_relationship_type', `Relationship type ${JSON.stringify(type ?? null)} is not in the schema`));
      return;
    }
    const ends = [
      ['source', r.source ?? r.source_node_id, def.allowed_source_types, 'invalid_relationship_source'],
      ['target', r.target ?? r.target_node_id, def.allowed_target_types, 'invalid_relationship_target'],
    ] as const;
    for (const [end, ref, allowed, code] of ends) {
      if (typeof ref === 'string' && ref.startsWith('$')) continue;
      const endType = ref ? (typeById.get(ref) ?? opts.typeOfNode?.(ref)) : undefined;
      if (!endType) out.push(problem(`${rf}.${i}.${end}`, 'unknown_node_reference', ref ? `No node with id ${JSON.stringify(ref)}` : `The relationship has no ${end}`));
      else if (!allowed.includes(endType)) out.push(problem(`${rf}.${i}.${end}`, code, `${type} does not allow a ${endType} ${end} (allowed: ${allowed.join(', ')})`));
    }
    out.push(...propertyValueProblems(r.properties, def.properties, [], `${rf}.${i}`));
  });
  return out;
}

/** A 422 whose message names the first problem's field and whose `details.issues` list them all. */
export function schemaProblemsError(what: string, problems: readonly SchemaProblem[], location = 'body'): AppError {
  const first = problems[0];
  const more = problems.length > 1 ? ` (and ${problems.length - 1} more)` : '';
  return unprocessable(`${what}: ${first.field}: ${first.message}${more}`, { issues: problems.map((p) => ({ location, ...p })) });
}

/** Throw a 422 (schemaProblemsError) unless the nodes and relationships fit the schema. */
export function assertNodesMatchSchema(
  schema: GraphSchemaDefinition,
  nodes: readonly NodeInput[],
  relationships: readonly RelationshipInput[] = [],
  opts: ValidateOptions & { location?: string } = {},
): void {
  const problems = validateNodesAgainstSchema(schema, nodes, relationships, opts);
  if (problems.length) throw schemaProblemsError(`The graph does not match schema ${schema.id ?? ''}`.trim(), problems, opts.location);
}
