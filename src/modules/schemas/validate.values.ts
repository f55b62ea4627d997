/**
 * Checks on one property value against its definition: type, enum, length, range and
 * pattern. Also the problem vocabulary every schema check reports in, and the guards on
 * user-supplied patterns (compiled once, refused when they can backtrack catastrophically),
 * which definition checks reuse.
 */
import type { PropertyDefinition } from './schemas.schemas.ts';

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

const patterns = new Map<string, RegExp | null>();
/**
 * The compiled pattern, or null when it does not compile (cached: definitions are reused
 * per node). Unicode mode first; without it as a fallback, since patterns written for the
 * original (Python) service use escapes such as `\_` that unicode mode refuses.
 */
export function compiled(pattern: string): RegExp | null {
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

/**
 * What is wrong with one value of a property, if anything: its type, then its enum
 * (compared as text; each element of an array), length, range and pattern.
 */
export function valueProblem(def: PropertyDefinition, v: unknown): { code: SchemaProblemCode; message: string } | null {
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
    const re = def.pattern ? compiled(def.pattern) : null;
    if (re && !re.test(v)) return { code: 'pattern_mismatch', message: `Does not match pattern ${def.pattern}` };
  }
  if (typeof v === 'number') {
    if (def.min_value !== undefined && v < def.min_value)
      return { code: 'out_of_range', message: `Below min_value ${def.min_value}` };
    if (def.max_value !== undefined && v > def.max_value)
      return { code: 'out_of_range', message: `Above max_value ${def.max_value}` };
  }
  return null;
}
