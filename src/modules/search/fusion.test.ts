import { it } from 'node:test';
import assert from 'node:assert/strict';
import { fuse } from './fusion.ts';
import { withNeighbourContext } from './context.ts';

it('fuses min-max normalised scores with weights; missing entries count 0', () => {
  const out = fuse([
    {
      scores: new Map([
        ['a', 10],
        ['b', 5],
        ['c', 0],
      ]),
      weight: 0.5,
    },
    {
      scores: new Map([
        ['b', 0.9],
        ['d', 0.1],
      ]),
      weight: 0.5,
    },
  ]);
  assert.deepEqual(
    out.map((o) => o.id),
    ['b', 'a', 'c', 'd'],
  );
  assert.equal(out[0].score, 0.5 * 0.5 + 0.5 * 1);
  assert.deepEqual(out[0].parts, [0.5, 1]);
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
