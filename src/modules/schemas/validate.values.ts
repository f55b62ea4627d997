/**
 * Checks on one property value against its definition: type, enum, length, range and
 * pattern (run with RE2 within a budget: validate.pattern.ts). Also the problem vocabulary
 * every schema check reports in.
 */
import type { PropertyDefinition } from './schemas.schemas.ts';
import { compilePattern, PATTERN_LIMITS, patternBudget, testPattern, type PatternBudget } from './validate.pattern.ts';

/** Machine-readable kind of a schema problem, reported as `details.issues[].code` in a 422. */
export type SchemaProblemCode =
  | 'limit_exceeded'
  | 'invalid_definition'
  | 'unknown_node_type'
  | 'missing_required_property'
  | 'wrong_property_type'
  | 'enum_violation'
  | 'out_of_range'
  | 'pattern_mismatch'
  | 'unknown_relationship_type'
  | 'invalid_relationship_source'
  | 'invalid_relationship_target'
  | 'unknown_node_reference';

/** One thing wrong, named by its dotted field path (as in validation errors: `nodes.0.properties.status`). */
export interface SchemaProblem {
  field: string;
  code: SchemaProblemCode;
  message: string;
}

/** One problem at a field path. */
export const problem = (field: string, code: SchemaProblemCode, message: string): SchemaProblem => ({
  field,
  code,
  message,
});

const ISO_DATE = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;
const isPlainObject = (v: unknown) => typeof v === 'object' && v !== null && !Array.isArray(v);

function typeMatches(type: PropertyDefinition['type'], v: unknown): boolean {
  switch (type) {
    case 'string':
      return typeof v === 'string';
    case 'integer':
      return Number.isInteger(v);
    case 'float':
      return typeof v === 'number' && Number.isFinite(v);
    case 'boolean':
      return typeof v === 'boolean';
    case 'array':
      return Array.isArray(v);
    case 'datetime':
      return typeof v === 'string' && ISO_DATE.test(v) && !Number.isNaN(Date.parse(v));
    case 'object':
      return isPlainObject(v);
  }
}

/** Why a string does not fit a pattern: no match, a stored pattern RE2 refuses, or no budget left. */
function patternProblem(
  pattern: string,
  v: string,
  budget: PatternBudget,
): { code: SchemaProblemCode; message: string } | null {
  const compiled = compilePattern(pattern);
  // A pattern stored before RE2 (or before its limits) that RE2 refuses: say so, never skip it.
  if ('error' in compiled)
    return {
      code: 'invalid_definition',
      message: `The schema's pattern ${pattern} ${compiled.error}; update the schema`,
    };
  const matched = testPattern(compiled, v, budget);
  if (matched === null)
    return {
      code: 'limit_exceeded',
      message:
        `Too much text to check against patterns in one request: value length × pattern size may total ` +
        `${PATTERN_LIMITS.work} (this pattern's size is ${compiled.size})`,
    };
  return matched ? null : { code: 'pattern_mismatch', message: `Does not match pattern ${pattern}` };
}

/**
 * What is wrong with one value of a property, if anything: its type, then its enum
 * (compared as text; each element of an array), length, range and pattern. Pattern matching
 * is paid from `budget`: pass one budget for all the values of one request.
 */
export function valueProblem(
  def: PropertyDefinition,
  v: unknown,
  budget: PatternBudget = patternBudget(),
): { code: SchemaProblemCode; message: string } | null {
  if (!typeMatches(def.type, v))
    return {
      code: 'wrong_property_type',
      message: `Expected ${def.type}, got ${Array.isArray(v) ? 'array' : typeof v}`,
    };
  if (def.enum_values && def.type !== 'object') {
    const values: unknown[] = Array.isArray(v) ? v : [v];
    const bad = values.find((x) => !def.enum_values!.includes(String(x)));
    if (bad !== undefined)
      return {
        code: 'enum_violation',
        message: `${JSON.stringify(bad)} is not one of ${JSON.stringify(def.enum_values)}`,
      };
  }
  if (typeof v === 'string' && def.type === 'string') {
    const len = [...v].length;
    if (def.min_length !== undefined && len < def.min_length)
      return { code: 'out_of_range', message: `Shorter than min_length ${def.min_length}` };
    if (def.max_length !== undefined && len > def.max_length)
      return { code: 'out_of_range', message: `Longer than max_length ${def.max_length}` };
    if (def.pattern !== undefined) {
      const bad = patternProblem(def.pattern, v, budget);
      if (bad) return bad;
    }
  }
  if (typeof v === 'number') {
    if (def.min_value !== undefined && v < def.min_value)
      return { code: 'out_of_range', message: `Below min_value ${def.min_value}` };
    if (def.max_value !== undefined && v > def.max_value)
      return { code: 'out_of_range', message: `Above max_value ${def.max_value}` };
  }
  return null;
}
