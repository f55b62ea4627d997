import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { longestFirst } from './run-tests.ts';

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
