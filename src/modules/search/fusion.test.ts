import { it } from 'node:test';
import assert from 'node:assert/strict';
import { fuse } from './fusion.ts';
import { withNeighbourContext } from './context.ts';

it('fuses max-normalised scores with weights; a candidate missing from a list scores its floor', () => {
  const out = fuse([
    {
      scores: new Map([
        ['a', 10],
        ['b', 5],
        ['c', 2],
      ]),
      weight: 0.5,
    },
    {
      scores: new Map([
        ['b', 0.9],
        ['d', 0.45],
      ]),
      weight: 0.5,
    },
  ]);
  // a: 0.5·1 + 0.5·0.5 (missing: the second list's floor 0.45/0.9); b: 0.5·0.5 + 0.5·1;
  // c: 0.5·0.2 + 0.5·0.5; d: 0.5·0.2 (the first list's floor) + 0.5·0.5.
  assert.deepEqual(
    out.map((o) => o.id),
    ['a', 'b', 'c', 'd'],
  );
  assert.equal(out[0].score, 0.75);
  assert.equal(out[1].score, 0.75);
  assert.deepEqual(out[0].parts, [1, 0.5]);
  assert.deepEqual(out[3].parts, [0.2, 0.5]);
});

it('a flat list moves the ranking less than a spread one (max, not min-max, normalisation)', () => {
  // BM25 prefers x; a dense list that barely separates (0.60 vs 0.58) must not overturn it,
  // one that separates clearly (0.9 vs 0.2) may.
  const bm25 = new Map([
    ['x', 10],
    ['y', 8],
  ]);
  const flat = fuse([
    { scores: bm25, weight: 0.5 },
    {
      scores: new Map([
        ['y', 0.6],
        ['x', 0.58],
      ]),
      weight: 0.5,
    },
  ]);
  assert.equal(flat[0].id, 'x');
  const spread = fuse([
    { scores: bm25, weight: 0.5 },
    {
      scores: new Map([
        ['y', 0.9],
        ['x', 0.2],
      ]),
      weight: 0.5,
    },
  ]);
  assert.equal(spread[0].id, 'y');
});

it('absent: zero gives a candidate missing from an evidence list nothing; negative scores count 0', () => {
  const out = fuse([
    {
      scores: new Map([
        ['a', 1],
        ['b', 0.5],
      ]),
      weight: 1,
    },
    {
      scores: new Map([
        ['a', 2],
        ['c', -1],
      ]),
      weight: 1,
      absent: 'zero',
    },
  ]);
  assert.deepEqual(
    out.map((o) => [o.id, o.parts]),
    [
      ['a', [1, 1]],
      ['b', [0.5, 0]],
      ['c', [0.5, 0]],
    ],
  );
});

it('a weight of 0 or an empty list contributes nothing', () => {
  const out = fuse([
    { scores: new Map([['a', 1]]), weight: 0 },
    { scores: new Map(), weight: 1 },
  ]);
  assert.deepEqual(out, []);
});

it('neighbour context lends a share of a candidate’s score to its session neighbours', () => {
  const fused = new Map([
    ['q', 1],
    ['x', 0.4],
  ]);
  const out = withNeighbourContext(fused, [{ id: 'q', prev_id: 'p', next_id: 'x' }], 0.5);
  assert.equal(out.get('q'), 1);
  assert.equal(out.get('p'), 0.5);
  assert.equal(out.get('x'), 0.9);
  assert.deepEqual(withNeighbourContext(fused, [{ id: 'q', prev_id: 'p', next_id: null }], 0), fused);
});

it('with two hops the memory beyond a neighbour borrows the share squared', () => {
  const fused = new Map([
    ['q', 1],
    ['y', 0.1],
  ]);
  const thread = [{ id: 'q', prev_id: 'p', next_id: 'x', prev2_id: null, next2_id: 'y' }];
  const out = withNeighbourContext(fused, thread, 0.5, 2);
  assert.equal(out.get('x'), 0.5);
  assert.equal(out.get('y'), 0.1 + 0.25);
  assert.equal(withNeighbourContext(fused, thread, 0.5).get('y'), 0.1, 'one hop: only the neighbours');
});
