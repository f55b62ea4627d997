/**
 * The text-reading rules of the local band extractor: sentences and the cue words that mark
 * evidence, reasons and conclusions in prose; functions, parameters, docstrings, calls and
 * returns in code. Plain functions over strings, so each rule is testable alone.
 */

/** Sentences of prose: split after . ! ? followed by a space and a capital, digit or quote. */
export function sentences(text: string): string[] {
  return text
    .replace(/\s+/g, ' ')
    .split(/(?<=[.!?])\s+(?=[A-Z0-9"“(])/)
    .map((s) => s.trim())
    .filter(Boolean);
}

/**
 * Cue words of each prose role. Lists, not a model: the local extractor is a baseline that
 * must run offline in microseconds; an LLM extractor is the better option when configured.
 */
export const CUES = {
  evidence:
    /\b(found|find|showed?|shown|demonstrat\w*|observ\w*|measur\w*|increas\w*|decreas\w*|reduc\w*|significant\w*|associat\w*|correlat\w*|compared|trial|cohort|patients|participants|p\s*[<=]|%|ratio|odds|risk|results?)\b/i,
  rationale:
    /\b(because|due to|since|therefore|thus|hence|so that|in order to|mechanism\w*|caus\w*|leads? to|result(s|ed)? in|via|through|reason|why)\b/i,
  outcome:
    /\b(conclu\w*|suggest\w*|indicat\w*|therefore|overall|in summary|we propose|implicat\w*|outcome|verdict|returns?)\b/i,
  context:
    /\b(in (patients|mice|rats|humans|adults|children|women|men|cells|vitro|vivo)|during|among|within|at|in \d{4}|years?|months?|weeks?|days?|hospital|city|country|region|environment|setting)\b/i,
} as const;

/** Sentences matching `cue`, in text order, at most `n`. */
export function cued(sents: string[], cue: RegExp, n: number): string[] {
  return sents.filter((s) => cue.test(s)).slice(0, n);
}

/** camelCase, PascalCase and snake_case split into lower-case words: 'parseHTTPHeader_v2' → 'parse http header v 2'. */
export function splitIdentifier(id: string): string {
  return id
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .replace(/([A-Za-z])(\d)/g, '$1 $2')
    .replace(/[_\W]+/g, ' ')
    .trim()
    .toLowerCase();
}

/** What a function in code says about itself. */
export interface CodeParts {
  language: string;
  name: string;
  params: string[];
  docstring: string;
  comments: string[];
  calls: string[];
  returns: string[];
  literals: string[];
  imports: string[];
}

const KEYWORDS = new Set(
  (
    'if for while return print len range int str float list dict set tuple isinstance super self not and or in ' +
    'is def class lambda with try except'
  ).split(' '),
);

/** Read the parts of a function (Python first; JavaScript, Java and SQL by their marks). */
export function codeParts(text: string): CodeParts {
  const language = /\bdef\s+\w+\s*\(|^\s*import \w+$|self\b/m.test(text)
    ? 'python'
    : /\bfunction\b|=>|\bconst\b|\blet\b/.test(text)
      ? 'javascript'
      : /\bSELECT\b|\bFROM\b/i.test(text)
        ? 'sql'
        : /\bpublic\b|\bprivate\b|\bvoid\b/.test(text)
          ? 'java'
          : 'code';
  const fn = /\b(?:def|function|fn|func)\s+([A-Za-z_]\w*)\s*\(([^)]*)\)/.exec(text) ??
    /\b([A-Za-z_]\w*)\s*\(([^)]*)\)\s*\{/.exec(text) ?? ['', '', ''];
  const params = fn[2]
    .split(',')
    .map((p) =>
      p
        .replace(/[:=].*$/s, '')
        .replace(/[*&]/g, '')
        .trim(),
    )
    .filter((p) => p && p !== 'self' && p !== 'cls');
  const doc = /("""|''')([\s\S]*?)\1/.exec(text)?.[2] ?? /\/\*\*?([\s\S]*?)\*\//.exec(text)?.[1] ?? '';
  const docstring = doc
    .split('\n')
    .map((l) => l.replace(/^\s*\*?\s?/, '').trim())
    .filter((l) => l && !/^[:@]/.test(l))
    .join(' ');
  const comments = [...text.matchAll(/(?:#|\/\/)\s*(.+)$/gm)].map((m) => m[1].trim()).filter(Boolean);
  const calls = unique(
    [...text.matchAll(/([A-Za-z_][\w.]*)\s*\(/g)]
      .map((m) => m[1])
      .filter((c) => c !== fn[1] && !KEYWORDS.has(c.split('.').pop()!)),
  );
  const returns = [...text.matchAll(/\breturn\s+([^\n;]+)/g)].map((m) => m[1].trim());
  const literals = unique([...text.matchAll(/(["'])([^"'\n]{1,40})\1|\b\d+(?:\.\d+)?\b/g)].map((m) => m[2] ?? m[0]));
  const imports = unique([...text.matchAll(/^\s*(?:import|from)\s+([\w.]+)/gm)].map((m) => m[1]));
  return { language, name: fn[1], params, docstring, comments, calls, returns, literals, imports };
}

/** Numbers with their unit or sign: '12 mg', '35%', 'p < 0.05', '3.2-fold'. */
export function quantities(text: string): string[] {
  return unique(
    [
      ...text.matchAll(
        /(?:p\s*[<=>]\s*)?\d+(?:[.,]\d+)?\s*(?:%|-fold|fold|mg|kg|g|ml|mm|cm|km|years?|months?|weeks?|days?|hours?|h|min|s|times|x)?/gi,
      ),
    ]
      .map((m) => m[0].trim())
      .filter((q) => q.length > 0),
  );
}

/**
 * Names and symbols of prose: capitalised words not at a sentence start, acronyms, and tokens
 * mixing letters and digits (genes, products, versions).
 */
export function identifiers(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(
    /\b([A-Z][a-z]+(?:\s+[A-Z][a-z]+)*|[A-Z]{2,}[\w-]*|[A-Za-z]+\d[\w-]*|\d+[A-Za-z][\w-]*)\b/g,
  )) {
    const before = text.slice(Math.max(0, m.index - 2), m.index);
    if (/^[A-Z][a-z]+$/.test(m[1]) && (m.index === 0 || /[.!?]\s$/.test(before))) continue;
    out.push(m[1]);
  }
  return unique(out);
}

export function unique<T>(xs: T[]): T[] {
  return [...new Set(xs)];
}
