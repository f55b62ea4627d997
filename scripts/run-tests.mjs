#!/usr/bin/env node
/**
 * `npm test`'s runner: node's test runner over the listed files, compiled first, longest first.
 *
 * Compiled: one esbuild build of every listed file into a directory of its own under
 * .cache/test-build/ (our code bundled, code shared between files split into chunks, npm packages
 * left external), and node's runner runs the compiled files without a TypeScript loader. Under
 * tsx, every module of a test process goes through the loader's hooks (a round trip to its thread
 * each): importing the test harness took ~4 s of CPU per process, compiled ~1.1 s, and the suite
 * starts ~130 processes on 2 cores. The build takes ~1 s. Each module's `import.meta.url`
 * (`.dirname`, `.filename`) is replaced with its source file's, so what is found from it —
 * fixtures, migrations, package resolution, our worker threads' .ts entries (which load tsx
 * themselves: src/platform/thread-boot.mjs) — is what it is under tsx. Linked source maps and
 * `--enable-source-maps` (on this runner: its test processes inherit its options) keep stack
 * traces in the .ts files.
 *
 * Longest first: `node --test` sorts its files by path whatever order they are given in, so where
 * the longest files (the 10k import, the kill tests, the browser tests) started was up to the
 * alphabet, and a long file late in it would run alone at the end with a core idle. Here the
 * files start in the order of their last measured duration (test/durations.json), longest first —
 * the longest-processing-time rule for packing jobs on a fixed number of workers — and files not
 * measured yet start first, as if long. Output: node's TAP.
 *
 * Before the tests, dist/ (the build that tests start servers and the CLI from) is made current.
 *
 * Plain JS (types in run-tests.d.mts) so that it runs without a loader for its children to inherit.
 *
 *   node --enable-source-maps scripts/run-tests.mjs [--test-concurrency=N] a.test.ts b.test.ts …
 *   TEST_DURATIONS_OUT=test/durations.json npm test   # measure again and keep the figures
 */
import { build, stop } from 'esbuild';
import fs from 'node:fs';
import path from 'node:path';
import { run } from 'node:test';
import { tap } from 'node:test/reporters';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ensureBuilt, SERVER_BUILD } from './build.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DURATIONS = path.join(ROOT, 'test', 'durations.json');

/**
 * Longest first by `seconds`; files without a figure go first, in their given order.
 * @param {string[]} files
 * @param {Record<string, number>} seconds
 * @returns {string[]}
 */
export function longestFirst(files, seconds) {
  const known = (/** @type {string} */ f) => (f in seconds ? seconds[f] : Infinity);
  return files
    .map((f, i) => ({ f, i }))
    .sort((a, b) => known(b.f) - known(a.f) || a.i - b.i)
    .map((x) => x.f);
}

/**
 * A module's source with `import.meta.url`, `.dirname` and `.filename` replaced by its own file's
 * (in a bundle they would name the bundle's chunk). Textual: the words inside a string or a comment
 * are replaced too (run-tests.test.ts spells them in pieces).
 * @param {string} source
 * @param {string} file absolute path of the module
 * @returns {string}
 */
export function pinImportMeta(source, file) {
  const values = {
    url: pathToFileURL(file).href,
    dirname: path.dirname(file),
    filename: file,
  };
  return source.replace(/\bimport\.meta\.(url|dirname|filename)\b/g, (_m, /** @type {'url'} */ k) =>
    JSON.stringify(values[k]),
  );
}

/** esbuild plugin: every module of ours (not a package's) with its import.meta pinned. */
const pinnedImportMeta = {
  name: 'pinned-import-meta',
  setup(/** @type {import('esbuild').PluginBuild} */ b) {
    b.onLoad({ filter: /\.(ts|mts|mjs|js)$/ }, async (args) => {
      if (args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
      const source = await fs.promises.readFile(args.path, 'utf8');
      return { contents: pinImportMeta(source, args.path), loader: /\.m?ts$/.test(args.path) ? 'ts' : 'js' };
    });
  },
};

/**
 * Compile `files` (repository-relative) into `outDir`; returns each file's compiled path by file.
 * @param {string[]} files
 * @param {string} outDir
 * @returns {Promise<Map<string, string>>}
 */
export async function compileTests(files, outDir) {
  const out = (/** @type {string} */ f) => f.replace(/\.[cm]?[jt]s$/, '');
  // Bundled as the server is (scripts/build.mjs): the same target, chunks, packages left external.
  const { entryPoints: _server, ...bundling } = SERVER_BUILD;
  await build({
    ...bundling,
    absWorkingDir: ROOT,
    entryPoints: files.map((f) => ({ in: f, out: out(f) })),
    outdir: outDir,
    outExtension: { '.js': '.mjs' },
    sourcemap: 'linked',
    logLevel: 'warning',
    plugins: [pinnedImportMeta],
  });
  return new Map(files.map((f) => [f, path.join(outDir, `${out(f)}.mjs`)]));
}

/** Whether a process of this id runs (signal 0 checks without sending anything). */
function isRunning(/** @type {number} */ pid) {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return /** @type {NodeJS.ErrnoException} */ (err).code === 'EPERM';
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const concurrency = Number(args.find((a) => a.startsWith('--test-concurrency='))?.split('=')[1] ?? 2);
  const files = args.filter((a) => !a.startsWith('--')).map((f) => path.relative(ROOT, path.resolve(f)));
  const measured = fs.existsSync(DURATIONS) ? JSON.parse(fs.readFileSync(DURATIONS, 'utf8')) : {};
  const ordered = longestFirst(files, measured);

  // A directory per run, so that two runs (two checkouts sharing .cache) never compile over each other;
  // those of runs that were stopped before they could remove theirs go.
  const builds = path.join(ROOT, '.cache', 'test-build');
  const outDir = path.join(builds, `run-${process.pid}`);
  for (const d of fs.existsSync(builds) ? fs.readdirSync(builds) : [])
    if (d === path.basename(outDir) || !isRunning(Number(d.replace(/^run-/, ''))))
      fs.rmSync(path.join(builds, d), { recursive: true, force: true });
  const compiled = await compileTests(ordered, outDir);
  await stop(); // esbuild's service process, idle from here
  // The server's and the CLI's build (dist/), which tests run as real processes: made current here,
  // once, rather than by the first test files to need it, two at a time (a build empties dist/ first).
  ensureBuilt();
  const sourceOf = new Map([...compiled].map(([f, c]) => [c, f]));

  // A file's time: from its process being started (the file's own test dequeued) to its completion.
  // (The events of the tests inside a file name the file they were written in, maybe a helper.)
  /** @type {Map<string, number>} */ const began = new Map();
  /** @type {Map<string, number>} */ const took = new Map();
  const stream = run({ files: [...compiled.values()], concurrency });
  stream.on('test:dequeue', (data) => {
    if (sourceOf.has(data.name)) began.set(data.name, performance.now());
  });
  stream.on('test:complete', (data) => {
    const t0 = began.get(data.name);
    const file = sourceOf.get(data.name);
    if (t0 !== undefined && file) took.set(file, Math.round((performance.now() - t0) / 100) / 10);
  });
  // A failing `todo` test is reported and does not fail the run, as under `node --test`.
  stream.on('test:fail', (data) => {
    if (!data.todo) process.exitCode = 1;
  });
  const tapOut = stream.compose(tap);
  tapOut.pipe(process.stdout);
  tapOut.on('end', () => {
    fs.rmSync(outDir, { recursive: true, force: true });
    const slowest = [...took].sort((a, b) => b[1] - a[1]);
    const line = slowest.slice(0, 8).map(([f, sec]) => `${f} ${sec} s`);
    process.stdout.write(`# slowest files: ${line.join(', ')}\n`);
    const keep = process.env.TEST_DURATIONS_OUT;
    if (keep) fs.writeFileSync(keep, JSON.stringify(Object.fromEntries(slowest), null, 2) + '\n');
  });
}
