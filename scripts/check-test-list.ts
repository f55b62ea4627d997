/**
 * The test list check (first step of `npm test`): `npm test` runs an explicit list of files, so a
 * new `*.test.ts` that is not added to it would silently never run. Fails (exit 1) when a test file
 * of the repository is missing from package.json's "test" script, or the script lists a file that
 * does not exist.
 *
 *   npx tsx scripts/check-test-list.ts
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export interface TestListReport {
  /** The files the script runs, in its order (repository-relative, `/`-separated). */
  listed: string[];
  /** Test files of the repository that the script does not run. */
  missing: string[];
  /** Files the script lists that do not exist. */
  nonexistent: string[];
}

/** Node options whose value is the next word (`--import tsx`), so that word is not a file. */
const OPTIONS_WITH_VALUE = new Set([
  '--import',
  '--require',
  '-r',
  '--loader',
  '--experimental-loader',
  '--test-reporter',
  '--test-reporter-destination',
  '--test-name-pattern',
  '--test-skip-pattern',
  '--test-concurrency',
  '--test-timeout',
  '--env-file',
  '--conditions',
  '-C',
]);

/** `./src/a.test.ts` → `src/a.test.ts`. */
const normalise = (file: string): string => path.posix.normalize(file.split(path.sep).join('/')).replace(/^\.\//, '');

/** The runner `npm test` calls instead of `node --test` (it orders the files, longest first). */
const RUNNER = 'scripts/run-tests.mjs';

/**
 * The files that the `node --test` (or `scripts/run-tests.mjs`) command of an npm script runs: its
 * positional arguments. Other commands chained with `&&`/`;` (like this check itself) are ignored.
 */
export function listedTestFiles(script: string): string[] {
  const command = script
    .split(/&&|\|\||;/)
    .map((c) => c.trim().split(/\s+/))
    .find((words) => words.includes('--test') || words.some((w) => w.endsWith(RUNNER)));
  if (!command) return [];
  const files: string[] = [];
  for (let i = 1; i < command.length; i++) {
    const word = command[i].replace(/^(['"])(.*)\1$/, '$2');
    if (OPTIONS_WITH_VALUE.has(word)) i++;
    else if (!word.startsWith('-') && !word.endsWith(RUNNER)) files.push(normalise(word));
  }
  return files;
}

/**
 * Compare the "test" script with the repository's test files. Pure, so the check itself is tested
 * on fabricated lists: `testFiles` are the repository's `*.test.ts` files, `exists` says whether a
 * listed path exists (by default: whether it is one of `testFiles`).
 */
export function checkTestList(
  script: string,
  testFiles: string[],
  exists: (file: string) => boolean = (file) => testFiles.map(normalise).includes(file),
): TestListReport {
  const listed = listedTestFiles(script);
  const inList = new Set(listed);
  const missing = testFiles
    .map(normalise)
    .filter((f) => !inList.has(f))
    .sort();
  const nonexistent = listed.filter((f) => !exists(f));
  return { listed, missing, nonexistent };
}

/** Directories never searched for tests (anywhere in the tree). */
const SKIPPED_DIRS = new Set(['node_modules', '.git']);

/** Every `*.test.ts` of the repository (repository-relative, `/`-separated), outside node_modules, data and .git. */
export function findTestFiles(root: string): string[] {
  const out: string[] = [];
  const visit = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      const rel = path.relative(root, p).split(path.sep).join('/');
      if (e.isDirectory()) {
        if (!SKIPPED_DIRS.has(e.name) && rel !== 'data') visit(p);
      } else if (e.isFile() && e.name.endsWith('.test.ts')) out.push(rel);
    }
  };
  visit(root);
  return out.sort();
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as {
    scripts?: Record<string, string>;
  };
  const script = pkg.scripts?.test ?? '';
  const report = checkTestList(script, findTestFiles(root), (f) => fs.existsSync(path.join(root, f)));
  for (const f of report.missing) console.error(`not in the "test" script of package.json: ${f}`);
  for (const f of report.nonexistent) console.error(`listed in the "test" script but does not exist: ${f}`);
  if (report.missing.length || report.nonexistent.length) {
    console.error(
      `test list: ${report.missing.length} test files not run by npm test, ${report.nonexistent.length} ` +
        `listed files missing`,
    );
    process.exit(1);
  }
  console.log(`test list: all ${report.listed.length} test files are run by npm test`);
}
