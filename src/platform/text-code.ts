/**
 * Source code among memories: telling it from prose, and the words of it a sentence encoder can
 * read. The local embedders (USE lite, GloVe) were trained on prose; on a function's raw text
 * they rank CoSQA's gold function with MRR@10 0.035 and 0.089, on its words (names split, the
 * docstring, the comments, the identifiers) 0.060 and 0.132 (docs/transform.md).
 */

/**
 * A line that declares or imports something, in the shapes of the common languages — the whole
 * shape, not the keyword alone ("let me know: …" and "class tonight; …" are prose).
 */
const CODE_LINE = new RegExp(
  [
    String.raw`(?:async\s+)?def\s+\w+\s*\(`,
    String.raw`class\s+\w+\s*[(:{]`,
    String.raw`function\s*\*?\s*[\w$]*\s*\(`,
    String.raw`(?:const|let|var)\s+[\w$]+\s*=`,
    String.raw`import\s+[\w.]+(?:\s+as\s+\w+)?(?:\s*,\s*[\w.]+)*\s*;?\s*$`,
    String.raw`import\s+.+\sfrom\s+['"]`,
    String.raw`from\s+[\w.]+\s+import\s`,
    String.raw`#include\s*[<"]`,
    String.raw`package\s+[\w.]+;`,
    String.raw`(?:public|private|protected|static)\s+[\w<>[\]]+\s+\w+\s*[({=;]`,
    String.raw`fn\s+\w+\s*[(<]`,
    String.raw`func\s+(?:\([^)]*\)\s*)?\w+\s*\(`,
    String.raw`SELECT\s.+\sFROM\s`,
    String.raw`CREATE\s+TABLE\s`,
  ]
    .map((shape) => String.raw`^\s*` + shape)
    .join('|'),
  'm',
);

/** A declaration line, a fenced block, or indented lines dense in code's symbols. */
export function looksLikeCode(text: string): boolean {
  if (CODE_LINE.test(text) || text.includes('```')) return true;
  const indented = text.split('\n').filter((l) => /^(?: {4}|\t)\S/.test(l)).length;
  const symbols = (text.match(/[{}()[\];=<>_]/g) ?? []).length;
  return indented >= 2 && symbols / Math.max(1, text.replace(/\s/g, '').length) >= 0.04;
}

/** Words the common languages reserve: no meaning of the function's own. */
const KEYWORDS = new Set(
  `def return if else elif for while in not and or is none true false null undefined self this
  import from as try except catch finally raise throw with lambda class pass yield break continue
  function const let var new async await public private protected static void int str float bool
  fn func package struct interface type enum switch case default do`.split(/\s+/),
);

/** "writeBoolean", "is_iterable" → "write Boolean", "is iterable". */
const words = (identifier: string) =>
  identifier
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/_+/g, ' ')
    .trim();

/**
 * The words of a piece of code: its declared names split into words, its docstrings and
 * comments, then its other identifiers (split, once each, keywords out). What is embedded for a
 * chunk that looks like code; its BM25 terms stay those of the text as written.
 */
export function readableCode(code: string): string {
  const names = [...code.matchAll(/\b(?:def|class|function|fn|func)\s+([A-Za-z_$][\w$]*)/g)].map((m) => words(m[1]));
  const docs = [...code.matchAll(/("""|''')([\s\S]*?)\1/g)].map((m) => m[2]);
  const comments = [...code.matchAll(/(?:#|\/\/)\s*(.*)$|\/\*([\s\S]*?)\*\//gm)].map((m) => m[1] ?? m[2] ?? '');
  const bare = code.replace(/("""|''')[\s\S]*?\1/g, ' ').replace(/(?:#|\/\/).*$|\/\*[\s\S]*?\*\//gm, ' ');
  const identifiers = [...new Set(bare.match(/[A-Za-z_$][\w$]*/g) ?? [])].filter((w) => !KEYWORDS.has(w.toLowerCase()));
  return [...names, ...docs, ...comments, identifiers.map(words).join(' ')]
    .map((s) =>
      s
        .replace(/\s+/g, ' ')
        .replace(/[\s.]+$/, '')
        .trim(),
    )
    .filter(Boolean)
    .join('. ');
}

/** The text an embedder reads for a chunk: the chunk, or for code the words of it. */
export function embeddingText(text: string): string {
  return looksLikeCode(text) ? readableCode(text) || text : text;
}
