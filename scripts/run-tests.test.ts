import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { compileTests, longestFirst, pinImportMeta } from './run-tests.mjs';

describe('test runner order', () => {
  it('starts the longest files first and files never measured before them, in their given order', () => {
    const order = longestFirst(['a.test.ts', 'new1.test.ts', 'b.test.ts', 'c.test.ts', 'new2.test.ts'], {
      'a.test.ts': 3,
      'b.test.ts': 120,
      'c.test.ts': 40,
    });
    assert.deepEqual(order, ['new1.test.ts', 'new2.test.ts', 'b.test.ts', 'c.test.ts', 'a.test.ts']);
  });

  it('keeps the given order among files of equal duration', () => {
    assert.deepEqual(longestFirst(['x.test.ts', 'y.test.ts'], { 'x.test.ts': 5, 'y.test.ts': 5 }), [
      'x.test.ts',
      'y.test.ts',
    ]);
  });
});

/** `import.meta`, spelt so that compiling this file (which pins the real thing, textually) leaves it be. */
const META = ['import', 'meta'].join('.');

describe('test runner compilation', () => {
  it("pins each module's import.meta to its own source file", () => {
    const file = path.join(os.tmpdir(), 'a dir', 'm.ts');
    const out = pinImportMeta(`const u = ${META}.url, d = ${META}.dirname; f(${META}.filename);`, file);
    assert.equal(
      out,
      `const u = ${JSON.stringify(pathToFileURL(file).href)}, d = ${JSON.stringify(path.dirname(file))}; ` +
        `f(${JSON.stringify(file)});`,
    );
  });

  it('compiles test files that run without a loader and see their sources where they are', async () => {
    // Inside the repository, so that the compiled files resolve its packages as the sources do.
    fs.mkdirSync(path.join(process.cwd(), '.cache'), { recursive: true });
    const dir = fs.mkdtempSync(path.join(process.cwd(), '.cache', 'run-tests-test-'));
    try {
      fs.mkdirSync(path.join(dir, 'src', 'lib'), { recursive: true });
      fs.writeFileSync(path.join(dir, 'src', 'lib', 'data.json'), '{"n": 3}');
      fs.writeFileSync(
        path.join(dir, 'src', 'lib', 'where.ts'),
        "import data from './data.json';\n" +
          `export const here: string = ${META}.url;\nexport const n: number = data.n;\n`,
      );
      fs.writeFileSync(
        path.join(dir, 'src', 'a.test.ts'),
        "import { here, n } from './lib/where.ts';\nimport { z } from 'zod';\n" +
          `console.log(JSON.stringify({ here, self: ${META}.url, n, zod: typeof z.string }));\n`,
      );
      const rel = path.relative(process.cwd(), path.join(dir, 'src', 'a.test.ts'));
      const compiled = await compileTests([rel], path.join(dir, 'out'));
      const js = compiled.get(rel)!;
      assert.ok(js.endsWith('.mjs') && fs.existsSync(js));
      const seen = JSON.parse(execFileSync(process.execPath, [js], { encoding: 'utf8' })) as Record<string, unknown>;
      assert.deepEqual(seen, {
        here: pathToFileURL(path.join(dir, 'src', 'lib', 'where.ts')).href,
        self: pathToFileURL(path.join(dir, 'src', 'a.test.ts')).href,
        n: 3,
        zod: 'function',
      });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
