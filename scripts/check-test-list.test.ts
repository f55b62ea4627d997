import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { checkTestList, findTestFiles, listedTestFiles } from './check-test-list.ts';

const SCRIPT =
  'tsx scripts/check-test-list.ts && node --import tsx --test --test-concurrency=1 ' +
  'src/a/a.test.ts ./src/b/b.test.ts test/c.test.ts';

describe('test list check', () => {
  it('reads the files of the node --test command, not the options or the other commands', () => {
    assert.deepEqual(listedTestFiles(SCRIPT), ['src/a/a.test.ts', 'src/b/b.test.ts', 'test/c.test.ts']);
    assert.deepEqual(listedTestFiles('node --test --import tsx x.test.ts --test-reporter spec'), ['x.test.ts']);
    assert.deepEqual(listedTestFiles('tsx scripts/x.ts'), []);
    assert.deepEqual(
      listedTestFiles('node --enable-source-maps scripts/run-tests.mjs --test-concurrency=2 a.test.ts ./b/b.test.ts'),
      ['a.test.ts', 'b/b.test.ts'],
    );
  });

  it('passes when every test file is listed and every listed file exists', () => {
    const report = checkTestList(SCRIPT, ['src/a/a.test.ts', 'src/b/b.test.ts', 'test/c.test.ts']);
    assert.deepEqual(report.missing, []);
    assert.deepEqual(report.nonexistent, []);
  });

  it('fails on a test file that is not listed', () => {
    const report = checkTestList(SCRIPT, [
      'src/a/a.test.ts',
      'src/b/b.test.ts',
      'test/c.test.ts',
      'src/d/d.test.ts',
      'scripts/e.test.ts',
    ]);
    assert.deepEqual(report.missing, ['scripts/e.test.ts', 'src/d/d.test.ts']);
    assert.deepEqual(report.nonexistent, []);
  });

  it('fails on a listed file that does not exist', () => {
    const report = checkTestList(SCRIPT, ['src/a/a.test.ts', 'test/c.test.ts']);
    assert.deepEqual(report.missing, []);
    assert.deepEqual(report.nonexistent, ['src/b/b.test.ts']);
  });

  it('finds test files anywhere but in node_modules, .git and the top-level data directory', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'engram-test-list-'));
    try {
      for (const f of [
        'src/m/m.test.ts',
        'src/m/m.ts',
        'scripts/s.test.ts',
        'node_modules/p/p.test.ts',
        'src/node_modules/q.test.ts',
        '.git/g.test.ts',
        'data/d.test.ts',
        'test/data/kept.test.ts',
      ]) {
        fs.mkdirSync(path.dirname(path.join(root, f)), { recursive: true });
        fs.writeFileSync(path.join(root, f), '');
      }
      assert.deepEqual(findTestFiles(root), ['scripts/s.test.ts', 'src/m/m.test.ts', 'test/data/kept.test.ts']);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
