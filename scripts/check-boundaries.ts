/**
 * The module boundary check (`npm run lint`): a file of `src/modules/<a>/` may import another
 * module only through its door, `src/modules/<b>/index.ts`; `src/platform/` and `src/shared/`
 * import no module; and the modules' import graph has no cycle. Tests beside the code may
 * reach into their own module but, like the code, only through the doors of the others.
 *
 *   npx tsx scripts/check-boundaries.ts          (exit 1 and a list of violations)
 *   npx tsx scripts/check-boundaries.ts --graph  (also print which module uses which)
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

export interface BoundaryReport {
  /** `from → to` imports that bypass a module's index.ts, or reach a module from platform/shared. */
  violations: string[];
  /** Each cycle of the module graph, as `a → b → … → a`. */
  cycles: string[];
  /** Module → the modules it imports (from code, not tests). */
  graph: Map<string, Set<string>>;
}

/** `src/modules/<m>/…` → m; anything else → null. */
function moduleOf(file: string): string | null {
  const m = /^src\/modules\/([^/]+)\//.exec(file);
  return m ? m[1] : null;
}

/** Import specifiers of a TypeScript source: static, type-only, re-exports and dynamic `import()`. */
export function importsOf(source: string): string[] {
  return ts.preProcessFile(source, true, true).importedFiles.map((f) => f.fileName);
}

/**
 * Check a set of files (repository-relative paths with `/`, and their sources). Pure, so the
 * check itself is tested on fabricated trees.
 */
export function checkBoundaries(files: Map<string, string>): BoundaryReport {
  const violations: string[] = [];
  const graph = new Map<string, Set<string>>();
  for (const [file, source] of files) {
    const from = moduleOf(file);
    const isTest = file.endsWith('.test.ts');
    if (from && !graph.has(from)) graph.set(from, new Set());
    for (const spec of importsOf(source)) {
      if (!spec.startsWith('.')) continue;
      const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), spec));
      const to = moduleOf(target);
      if (!to || to === from) continue;
      const door = target === `src/modules/${to}/index.ts`;
      if (!from && /^src\/(platform|shared)\//.test(file)) {
        violations.push(`${file} → ${target}: platform and shared code imports no module`);
      } else if (!door) {
        violations.push(`${file} → ${target}: import src/modules/${to}/index.ts instead`);
      }
      if (from && !isTest) graph.get(from)!.add(to);
    }
  }
  return { violations, cycles: cyclesOf(graph), graph };
}

/** Every elementary cycle reachable by depth-first search, each reported once (from its smallest module). */
function cyclesOf(graph: Map<string, Set<string>>): string[] {
  const found = new Set<string>();
  const walk = (start: string, node: string, trail: string[]) => {
    for (const next of graph.get(node) ?? []) {
      if (next === start) {
        const cycle = [...trail, start];
        if (trail.every((m) => m >= start)) found.add(cycle.join(' → '));
      } else if (!trail.includes(next) && next > start) walk(start, next, [...trail, next]);
    }
  };
  for (const m of [...graph.keys()].sort()) walk(m, m, [m]);
  return [...found];
}

/** Every .ts file under `dir`, as repository-relative paths. */
function sourcesUnder(root: string, dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const visit = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) visit(p);
      else if (e.name.endsWith('.ts'))
        out.set(path.relative(root, p).split(path.sep).join('/'), fs.readFileSync(p, 'utf8'));
    }
  };
  visit(path.join(root, dir));
  return out;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const report = checkBoundaries(sourcesUnder(root, 'src'));
  if (process.argv.includes('--graph')) {
    for (const [m, uses] of [...report.graph].sort()) console.log(`${m} → ${[...uses].sort().join(', ') || '—'}`);
  }
  for (const v of report.violations) console.error(`boundary: ${v}`);
  for (const c of report.cycles) console.error(`cycle: ${c}`);
  if (report.violations.length || report.cycles.length) {
    console.error(`${report.violations.length} boundary violations, ${report.cycles.length} module cycles`);
    process.exit(1);
  }
  console.log(`module boundaries: ${report.graph.size} modules, no violations, no cycles`);
}
