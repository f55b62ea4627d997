/**
 * Python functions with docstrings, read from source trees for scripts/train-code-words.ts: the
 * docstring's first paragraph (what the function does, in words) and the function's code without
 * its docstring. Read by indentation, not parsed: a function ends at the first non-blank line
 * indented no deeper than its `def`, which a string continued at column 0 cuts short — noise
 * a bag of words does not mind.
 */
import fs from 'node:fs';
import path from 'node:path';

export interface DocumentedFunction {
  /** The docstring's first paragraph, whitespace collapsed. */
  summary: string;
  name: string;
  /** The signature and the body after the docstring. */
  code: string;
  /** The whole function as written, docstring included. */
  whole: string;
}

const DEF = /^(\s*)(?:async\s+)?def\s+(\w+)\s*\(/;
const DOC_OPEN = /^\s*[rRuUbB]{0,2}("""|''')/;
const indentOf = (line: string) => line.length - line.trimStart().length;

/** The documented functions of one file's source. */
export function documentedFunctions(source: string): DocumentedFunction[] {
  const lines = source.split('\n');
  const out: DocumentedFunction[] = [];
  for (let i = 0; i < lines.length; i++) {
    const def = DEF.exec(lines[i]);
    if (!def) continue;
    const indent = def[1].length;
    // The signature: until its parentheses close on a line that ends with ':'.
    let depth = 0;
    let j = i;
    for (; j < lines.length; j++) {
      for (const ch of lines[j].replace(/#.*$/, '')) depth += ch === '(' ? 1 : ch === ')' ? -1 : 0;
      if (depth <= 0 && /:\s*(#.*)?$/.test(lines[j])) break;
    }
    let k = j + 1;
    while (k < lines.length && !lines[k].trim()) k++;
    const open = DOC_OPEN.exec(lines[k] ?? '');
    if (!open || j >= lines.length) continue;
    // The docstring: from its opening quotes to the same quotes closing.
    const quote = open[1];
    const first = lines[k].slice(lines[k].indexOf(quote) + 3);
    const doc: string[] = [];
    let end = k;
    if (first.includes(quote)) doc.push(first.slice(0, first.indexOf(quote)));
    else {
      doc.push(first);
      for (end = k + 1; end < lines.length && !lines[end].includes(quote); end++) doc.push(lines[end]);
      if (end >= lines.length) continue;
      doc.push(lines[end].slice(0, lines[end].indexOf(quote)));
    }
    let last = end + 1;
    for (; last < lines.length; last++) if (lines[last].trim() && indentOf(lines[last]) <= indent) break;
    const body = lines.slice(end + 1, last);
    if (!body.some((l) => l.trim())) continue;
    const summary = doc
      .join('\n')
      .trim()
      .split(/\n\s*\n/)[0]
      .replace(/\s+/g, ' ')
      .trim();
    if (summary.split(' ').length < 3) continue;
    out.push({
      summary: summary.slice(0, 300),
      name: def[2],
      code: [...lines.slice(i, j + 1), ...body].join('\n'),
      whole: lines.slice(i, last).join('\n'),
    });
  }
  return out;
}

/** Every `.py` file under the roots (symbolic links not followed). */
export function* pythonFiles(roots: string[]): Generator<string> {
  for (const root of roots) {
    const stack = [root];
    while (stack.length) {
      const dir = stack.pop()!;
      let entries: fs.Dirent[];
      try {
        entries = fs.readdirSync(dir, { withFileTypes: true });
      } catch {
        continue;
      }
      for (const e of entries) {
        const p = path.join(dir, e.name);
        if (e.isDirectory()) stack.push(p);
        else if (e.isFile() && e.name.endsWith('.py')) yield p;
      }
    }
  }
}

/** Code compared without its whitespace (the same function indented or wrapped otherwise). */
export const codeKey = (code: string) => code.replace(/\s+/g, '');
