/**
 * The npm packages the server build (scripts/build.mjs's entries, packages left external)
 * imports: the image's runtime stage keeps only production dependencies (`npm prune
 * --omit=dev`), so each of them must be one. Read from esbuild's metafile of the same build,
 * not written anywhere. Packages loaded by name at run time (createRequire) are not seen.
 */
import { buildSync } from 'esbuild';
import { builtinModules } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { SERVER_BUILD } from '../build.mjs';

/** `@scope/name/sub` → `@scope/name`, `name/sub` → `name`. */
const packageName = (spec: string) =>
  spec
    .split('/')
    .slice(0, spec.startsWith('@') ? 2 : 1)
    .join('/');

export function serverPackages(root: string): string[] {
  const result = buildSync({
    ...SERVER_BUILD,
    absWorkingDir: root,
    outdir: path.join(os.tmpdir(), 'engram-check-deploy'), // nothing is written (write: false)
    write: false,
    metafile: true,
    logLevel: 'error',
  });
  const names = new Set<string>();
  for (const output of Object.values(result.metafile.outputs)) {
    for (const i of output.imports) {
      if (!i.external || i.path.startsWith('node:') || builtinModules.includes(i.path)) continue;
      names.add(packageName(i.path));
    }
  }
  return [...names].sort();
}

/** The packages of `used` that are not in `dependencies`. */
export function notProductionDependencies(used: string[], dependencies: Record<string, string> = {}): string[] {
  return used.filter((name) => !(name in dependencies));
}
