import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkBoundaries, importsOf } from './check-boundaries.ts';

const tree = (files: Record<string, string>) => new Map(Object.entries(files));

describe('module boundary check', () => {
  it('passes imports through a module door, of platform and shared code, and within a module', () => {
    const r = checkBoundaries(
      tree({
        'src/modules/a/a.service.ts':
          `import { b } from '../b/index.ts';\nimport { x } from './a.store.ts';\n` +
          `import { db } from '../../platform/db/index.ts';`,
        'src/modules/a/a.store.ts': `export const x = 1;`,
        'src/modules/b/index.ts': `export const b = 1;`,
        'src/app.ts': `import { a } from './modules/a/index.ts';`,
      }),
    );
    assert.deepEqual(r.violations, []);
    assert.deepEqual(r.cycles, []);
    assert.deepEqual([...r.graph.get('a')!], ['b']);
  });

  it("fails on a deliberate violation: another module's store imported directly", () => {
    const r = checkBoundaries(
      tree({
        'src/modules/a/a.service.ts': `import { rows } from '../b/b.store.ts';`,
        'src/modules/b/b.store.ts': `export const rows = 1;`,
        'src/app.ts': `import type { T } from './modules/b/b.service.ts';`,
      }),
    );
    assert.deepEqual(r.violations, [
      'src/modules/a/a.service.ts → src/modules/b/b.store.ts: import src/modules/b/index.ts instead',
      'src/app.ts → src/modules/b/b.service.ts: import src/modules/b/index.ts instead',
    ]);
  });

  it('fails on type-only imports, re-exports and dynamic imports that bypass a door', () => {
    const r = checkBoundaries(
      tree({
        'src/modules/a/one.ts': `import type { T } from '../b/types.ts';`,
        'src/modules/a/two.ts': `export { y } from '../b/y.ts';`,
        'src/modules/a/three.ts': `const m = await import('../b/z.ts');`,
      }),
    );
    assert.equal(r.violations.length, 3);
  });

  it('fails when platform or shared code imports a module, even through its door', () => {
    const r = checkBoundaries(tree({ 'src/platform/http/app.ts': `import { a } from '../../modules/a/index.ts';` }));
    assert.equal(r.violations.length, 1);
    assert.match(r.violations[0], /platform and shared code imports no module/);
  });

  it('fails on a cycle between modules, even through doors, and names it once', () => {
    const r = checkBoundaries(
      tree({
        'src/modules/a/a.ts': `import { b } from '../b/index.ts';`,
        'src/modules/b/b.ts': `import { c } from '../c/index.ts';`,
        'src/modules/c/c.ts': `import { a } from '../a/index.ts';`,
        'src/modules/d/d.ts': `import { a } from '../a/index.ts';`,
      }),
    );
    assert.deepEqual(r.violations, []);
    assert.deepEqual(r.cycles, ['a → b → c → a']);
  });

  it('lets a test reach into its own module and does not count its imports as module edges', () => {
    const r = checkBoundaries(
      tree({
        'src/modules/a/a.test.ts': `import { x } from './a.store.ts';\nimport { b } from '../b/index.ts';`,
        'src/modules/b/b.ts': `import { a } from '../a/index.ts';`,
      }),
    );
    assert.deepEqual(r.violations, []);
    assert.deepEqual(r.cycles, []);
  });

  it('reads every kind of import specifier', () => {
    assert.deepEqual(
      importsOf(
        `import a from './a.ts';\nimport type { B } from './b.ts';\nexport * from './c.ts';\nawait import('./d.ts');`,
      ),
      ['./a.ts', './b.ts', './c.ts', './d.ts'],
    );
  });
});
