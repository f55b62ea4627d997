/**
 * `npm test`'s runner: node's test runner over the listed files, longest first.
 *
 * `node --test` sorts its files by path whatever order they are given in, so where the longest
 * files (the 10k import, the kill tests, the browser tests) started was up to the alphabet, and
 * a long file late in it would run alone at the end with a core idle. Here the files start in
 * the order of their last measured duration (test/durations.json), longest first — the
 * longest-processing-time rule for packing jobs on a fixed number of workers — and files not
 * measured yet start first, as if long. (Measured: the alphabet happened to pack the suite
 * within ~4 % of that already; the order guards it as files are added.) Output: node's TAP.
 *
 *   node --import tsx scripts/run-tests.ts [--test-concurrency=N] a.test.ts b.test.ts …
 *   TEST_DURATIONS_OUT=test/durations.json npm test   # measure again and keep the figures
 */
import fs from 'node:fs';
import path from 'node:path';
import { run } from 'node:test';
import { tap } from 'node:test/reporters';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DURATIONS = path.join(ROOT, 'test', 'durations.json');

/** Longest first by `seconds`; files without a figure go first, in their given order. */
export function longestFirst(files: string[], seconds: Record<string, number>): string[] {
  const known = (f: string) => (f in seconds ? seconds[f] : Infinity);
  return files
    .map((f, i) => ({ f, i }))
    .sort((a, b) => known(b.f) - known(a.f) || a.i - b.i)
    .map((x) => x.f);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const concurrency = Number(args.find((a) => a.startsWith('--test-concurrency='))?.split('=')[1] ?? 2);
  const files = args.filter((a) => !a.startsWith('--')).map((f) => path.relative(ROOT, path.resolve(f)));
  const measured = fs.existsSync(DURATIONS)
    ? (JSON.parse(fs.readFileSync(DURATIONS, 'utf8')) as Record<string, number>)
    : {};
  const ordered = longestFirst(files, measured);

  // A file's time: from its process being started (the file's own test dequeued) to its completion.
  // (The events of the tests inside a file name the file they were written in, maybe a helper.)
  const paths = ordered.map((f) => path.join(ROOT, f));
  const listed = new Set(paths);
  const began = new Map<string, number>();
  const took = new Map<string, number>();
  const stream = run({ files: paths, concurrency });
  stream.on('test:dequeue', (data) => {
    if (listed.has(data.name)) began.set(data.name, performance.now());
  });
  stream.on('test:complete', (data) => {
    const t0 = began.get(data.name);
    if (t0 !== undefined) took.set(path.relative(ROOT, data.name), Math.round((performance.now() - t0) / 100) / 10);
  });
  // A failing `todo` test is reported and does not fail the run, as under `node --test`.
  stream.on('test:fail', (data) => {
    if (!data.todo) process.exitCode = 1;
  });
  const out = stream.compose(tap);
  out.pipe(process.stdout);
  out.on('end', () => {
    const slowest = [...took].sort((a, b) => b[1] - a[1]);
    const line = slowest.slice(0, 8).map(([f, sec]) => `${f} ${sec} s`);
    process.stdout.write(`# slowest files: ${line.join(', ')}\n`);
    const keep = process.env.TEST_DURATIONS_OUT;
    if (keep) fs.writeFileSync(keep, JSON.stringify(Object.fromEntries(slowest), null, 2) + '\n');
  });
}
