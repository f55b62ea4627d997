/**
 * User-supplied property patterns, run with RE2 (`re2js`), never with JavaScript's
 * backtracking RegExp: `^\d*\d*\d*\d*\d*\d*$` against 115 digits and an `x` held the event loop
 * for 36 s with RegExp. RE2 matches in time linear in the text, but the factor is the size of
 * the compiled pattern (up to ~25 ns per instruction per character when its DFA gives up), so
 * the size is bounded, and so is the matching one request may cause. Numbers: docs/schemas.md.
 */
import { RE2JS } from 're2js';

export const PATTERN_LIMITS = {
  /** Characters in a pattern (the request schema refuses longer ones). */
  chars: 200,
  /** RE2 program size (instructions) of one pattern; `x{100}` counts 100 copies of `x`. */
  size: 1000,
  /**
   * Program size of all patterns of one schema: compiling costs 1–6 µs per instruction, and a
   * schema may define 500 properties.
   */
  schemaSize: 10_000,
  /**
   * Matching one check may do (one schema's defaults, one write's nodes and relationships):
   * the sum of value length × pattern size, at most ~0.25 s of matching at the worst.
   */
  work: 10_000_000,
} as const;

/** A usable pattern and its program size, or why it is refused. */
export type CompiledPattern = { re: RE2JS; size: number } | { error: string };

/** What a check may still spend: characters × instructions matching, or instructions compiled. */
export interface PatternBudget {
  left: number;
}

/** A new matching budget for one check (PATTERN_LIMITS.work). */
export const patternBudget = (): PatternBudget => ({ left: PATTERN_LIMITS.work });

/** A new budget for the patterns of one schema definition (PATTERN_LIMITS.schemaSize). */
export const schemaPatternBudget = (): PatternBudget => ({ left: PATTERN_LIMITS.schemaSize });

/**
 * An estimate from the text alone of the program size (atoms 1, a group its parts plus 2, a
 * counted repeat about its atom times its largest count), so that a pattern too big to be
 * accepted is refused before compiling it: a 180-character pattern of repeats compiles to 24,000
 * instructions in ~280 ms. It errs high; the compiled size is what PATTERN_LIMITS.size is
 * checked against.
 */
export function estimatedSize(p: string): number {
  const groups: number[] = [0]; // size so far of each open group, outermost first
  let last = 0; // size of the atom a quantifier applies to
  const add = (n: number) => {
    groups[groups.length - 1] += n;
    last = n;
  };
  for (let i = 0; i < p.length; i++) {
    const c = p[i];
    if (c === '\\') {
      const next = p[i + 1];
      if (next === 'Q') {
        const end = p.indexOf('\\E', i + 2);
        const stop = end < 0 ? p.length : end;
        add(Math.max(stop - i - 2, 0));
        last = 1;
        i = end < 0 ? p.length : end + 1;
        continue;
      }
      // \x{…} \p{…} \P{…}: the braces are part of the escape, not a repeat.
      if ('xpP'.includes(next) && p[i + 2] === '{') i = Math.max(p.indexOf('}', i), i + 1);
      else i++;
      add(1);
    } else if (c === '[') {
      let j = i + 1;
      if (p[j] === '^') j++;
      if (p[j] === ']') j++;
      for (; j < p.length && p[j] !== ']'; j++) {
        if (p[j] === '\\') j++;
        else if (p[j] === '[' && p[j + 1] === ':') j = Math.max(p.indexOf(':]', j + 2) + 1, j);
      }
      i = j;
      add(1);
    } else if (c === '(') {
      if (p[i + 1] === '?') {
        // (?i) sets flags and opens nothing; (?:…, (?i:…, (?P<name>…, (?<name>… open a group.
        const rest = p.slice(i + 2).search(/[:)>]/);
        const at = rest < 0 ? p.length : i + 2 + rest;
        if (p[at] !== ')') groups.push(0);
        i = at;
      } else groups.push(0);
    } else if (c === ')') {
      if (groups.length > 1) add(groups.pop()! + 2);
    } else if (c === '{') {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(p.slice(i, i + 16));
      if (!m) {
        add(1);
        continue;
      }
      // x{n} is n copies of x; each optional copy of x{n,m} costs one more; x{n,} is x{n}x*.
      const min = Number(m[1]);
      const max = m[3] ? Number(m[3]) : m[2] ? min + 1 : min;
      const size = last * max + (max - min);
      groups[groups.length - 1] += size - last;
      last = size;
      i += m[0].length - 1;
    } else if ('*+?|'.includes(c)) {
      groups[groups.length - 1] += 1;
    } else {
      add(1);
    }
  }
  return groups.reduce((a, b) => a + b, 0);
}

/** Why RE2 refuses a pattern, in the words a schema author needs. */
function syntaxError(pattern: string, err: unknown): string {
  if (/\(\?<?[=!]/.test(pattern)) return 'uses lookaround ((?=, (?!, (?<=, (?<!), which RE2 syntax does not have';
  if (/\\[1-9]|\\k</.test(pattern)) return 'uses a back-reference (\\1, \\k<name>), which RE2 syntax does not have';
  const detail = err instanceof Error ? err.message.replace(/^error parsing regexp: /, '') : String(err);
  return `is not valid RE2 syntax: ${detail}`;
}

function compileUncached(pattern: string): CompiledPattern {
  const tooBig = (n: number, estimated = false) =>
    `is too large: it ${estimated ? 'would compile to about' : 'compiles to'} ${n} instructions, ` +
    `at most ${PATTERN_LIMITS.size} (a counted repeat x{n} counts n copies of x)`;
  if (pattern.length > PATTERN_LIMITS.chars) return { error: `is longer than ${PATTERN_LIMITS.chars} characters` };
  // Compiling costs about as much as the program is big: refuse clearly oversized ones first
  // (the estimate is close, but high for alternations of single characters: 4× leaves room).
  const estimate = estimatedSize(pattern);
  if (estimate > 4 * PATTERN_LIMITS.size) return { error: tooBig(estimate, true) };
  let re: RE2JS;
  try {
    re = RE2JS.compile(pattern);
  } catch (err) {
    return { error: syntaxError(pattern, err) };
  }
  const size = re.programSize();
  return size > PATTERN_LIMITS.size ? { error: tooBig(size) } : { re, size };
}

const cache = new Map<string, CompiledPattern>();
/**
 * The compiled pattern or why it is refused; cached (by its text), since a schema's definitions
 * are reused per node. 1024 entries hold the patterns of two schemas of 500 properties.
 */
export function compilePattern(pattern: string): CompiledPattern {
  let found = cache.get(pattern);
  if (!found) {
    found = compileUncached(pattern);
    if (cache.size >= 1024) cache.clear();
    cache.set(pattern, found);
  }
  return found;
}

/**
 * Why a pattern may not be part of a schema definition, or null; its size is charged to the
 * schema's budget (estimated before compiling, so a schema of many large patterns is refused
 * without compiling them all).
 */
export function patternDefinitionError(pattern: string, schema: PatternBudget): string | null {
  const estimate = estimatedSize(pattern);
  // One pattern far too large on its own is compilePattern's to refuse (as too large, uncompiled).
  if (estimate > schema.left && estimate <= 4 * PATTERN_LIMITS.size)
    return (
      `makes the schema's patterns too large: together at most ${PATTERN_LIMITS.schemaSize} ` +
      `instructions (this one is about ${estimate})`
    );
  const compiled = compilePattern(pattern);
  schema.left -= 'error' in compiled ? estimate : compiled.size;
  return 'error' in compiled ? compiled.error : null;
}

/**
 * Whether `value` contains a match of the compiled pattern (unanchored, like RegExp#test), or
 * null when the budget cannot pay for it (value length × pattern size).
 */
export function testPattern(p: { re: RE2JS; size: number }, value: string, budget: PatternBudget): boolean | null {
  const cost = p.size * Math.max(value.length, 1);
  if (cost > budget.left) return null;
  budget.left -= cost;
  try {
    return p.re.test(value);
  } finally {
    // The DFA cache a match builds may reach 8 MB; the cached pattern must not keep it.
    p.re.reset();
  }
}
