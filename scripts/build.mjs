#!/usr/bin/env node
/**
 * Compile the server ahead of time into dist/ (what `npm start` runs): one esbuild bundle of
 * src/main.ts and the worker-thread entries, shared code split into chunks, npm packages left
 * external (loaded from node_modules as usual). Running the build instead of tsx saves the
 * TypeScript loader and its inline source maps in the main thread and in every worker thread
 * (measured in docs/retrieval.md, "Footprint"), and transpiling at each start.
 *
 * The web console (src/console-ui/, docs/console.md) is bundled beside it into dist/console/: a
 * browser bundle of preact, htm and cytoscape with its page and style sheet, nothing fetched.
 *
 * Plain JS so it runs before anything is compiled. `node scripts/build.mjs [--if-stale]`:
 * with --if-stale it builds only when a file under src/ is newer than the last build.
 */
import { buildSync } from 'esbuild';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUT = path.join(ROOT, 'dist');
const STAMP = path.join(OUT, '.built');
/**
 * Everything that runs as its own module: the server, the CLI (dist/cli.js: bin/engram.mjs), the
 * MCP stdio bridge (dist/mcp-main.js: bin/engram-mcp.mjs) and each worker thread's entry.
 */
export const ENTRIES = [
  'src/main.ts',
  { in: 'src/cli/main.ts', out: 'cli' },
  'src/cli/mcp-main.ts',
  'src/platform/db/pglite-thread.worker.ts',
  'src/platform/models/embedder-thread.worker.ts',
  'src/platform/models/extractor-thread.worker.ts',
  'src/platform/documents/parse-thread.worker.ts',
];

const CONSOLE_SRC = path.join(ROOT, 'src', 'console-ui');
/** The console's files copied as they are (the bundle is app.js). */
const CONSOLE_STATIC = ['index.html', 'console.css'];

/** Bundle the web console into dist/console/ (browser code: no npm package left external). */
export function buildConsole() {
  const out = path.join(OUT, 'console');
  buildSync({
    absWorkingDir: ROOT,
    entryPoints: [path.join(CONSOLE_SRC, 'main.js')],
    outfile: path.join(out, 'app.js'),
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2020',
    minify: true,
    legalComments: 'linked',
    logLevel: 'warning',
  });
  for (const f of CONSOLE_STATIC) fs.copyFileSync(path.join(CONSOLE_SRC, f), path.join(out, f));
}

/** How the entries are bundled (also what scripts/check-deploy.ts reads the imports of). */
export const SERVER_BUILD = {
  entryPoints: ENTRIES,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
};

/** Newest modification time under `dir` (ms), test files aside. */
function newest(dir) {
  let t = 0;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    // Test files are not in the build: editing one while servers run from dist/ must not
    // rebuild it from under them (a rebuild empties the folder first).
    if (!e.isDirectory() && e.name.endsWith('.test.ts')) continue;
    t = Math.max(t, e.isDirectory() ? newest(p) : fs.statSync(p).mtimeMs);
  }
  return t;
}

export function isStale() {
  if (!fs.existsSync(STAMP)) return true;
  const built = fs.statSync(STAMP).mtimeMs;
  const inputs = [
    path.join(ROOT, 'package.json'),
    path.join(ROOT, 'package-lock.json'),
    path.join(ROOT, 'tsconfig.json'),
  ];
  return (
    newest(path.join(ROOT, 'src')) > built || inputs.some((f) => fs.existsSync(f) && fs.statSync(f).mtimeMs > built)
  );
}

/** Build dist/ now (synchronous: ~0.2 s, ~1 s with the console, and callers such as test/process.ts spawn right after). */
export function buildServer() {
  const t0 = performance.now();
  // A fresh folder: chunks of an earlier build would otherwise pile up beside the new ones.
  fs.rmSync(OUT, { recursive: true, force: true });
  buildSync({
    ...SERVER_BUILD,
    absWorkingDir: ROOT,
    outdir: OUT,
    // Flat: every output file sits directly in dist/, so paths relative to import.meta.url
    // (siblingEntry, root.ts) mean the same from any chunk.
    entryNames: '[name]',
    chunkNames: 'chunk-[hash]',
    // Readable stack traces without source maps (loading maps costs memory at every start).
    keepNames: true,
    logLevel: 'warning',
  });
  buildConsole();
  fs.writeFileSync(STAMP, new Date().toISOString() + '\n');
  return Math.round(performance.now() - t0);
}

/** Build dist/ unless it is up to date; the build's time in ms, or 0. */
export function ensureBuilt() {
  return isStale() ? buildServer() : 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  if (process.argv.includes('--if-stale') && !isStale()) process.exit(0);
  const ms = buildServer();
  console.error(`[build] dist/ (server and console) built in ${ms} ms`);
}
