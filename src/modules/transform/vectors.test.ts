import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  concatenate,
  cosineQ,
  dequantize,
  phaseOf,
  project,
  projection,
  quantize,
  rotate,
  seededUnit,
} from './vectors.ts';

const norm = (v: ArrayLike<number>) => Math.sqrt(Array.from(v).reduce((s, x) => s + x * x, 0));
const cos = (a: ArrayLike<number>, b: ArrayLike<number>) =>
  Array.from(a).reduce((s, x, i) => s + x * b[i], 0) / (norm(a) * norm(b));

describe('transform vectors', () => {
  it('projects 512 → 384 with orthonormal rows, the same on every call, keeping cosines on average', () => {
    const rows = projection(512, 384);
    assert.equal(rows.length, 384);
    for (const [i, j] of [
      [0, 1],
      [5, 300],
      [383, 200],
    ])
      assert.ok(Math.abs(cos(rows[i], rows[j])) < 1e-9);
    assert.ok(Math.abs(norm(rows[17]) - 1) < 1e-12);
    const a = seededUnit('a', 512);
    const b = Float64Array.from(a, (x, i) => x + 0.6 * seededUnit('b', 512)[i]);
    assert.deepEqual(project(a, 384), project(a, 384));
    assert.ok(Math.abs(norm(project(a, 384)) - 1) < 1e-12);
    // Random pairs: the projected cosine tracks the original one.
    const errs: number[] = [];
    for (let k = 0; k < 50; k++) {
      const x = seededUnit(`x${k}`, 512);
      const y = Float64Array.from(x, (v, i) => v + seededUnit(`y${k}`, 512)[i] * (k / 25));
      errs.push(Math.abs(cos(project(x, 384), project(y, 384)) - cos(x, y)));
    }
    assert.ok(errs.reduce((s, e) => s + e, 0) / errs.length < 0.03, `mean error ${errs}`);
    assert.ok(cos(project(a, 384), project(b, 384)) > 0.7);
    // Narrower models are zero-padded, equal widths unchanged.
    Array.from(project([3, 4], 4)).forEach((x, i) => assert.ok(Math.abs(x - [0.6, 0.8, 0, 0][i]) < 1e-12));
  });

  it('quantises to int8 idempotently: a dequantised vector quantises back to the same codes', () => {
    const v = Array.from(seededUnit('q', 384));
    const first = quantize(v);
    const again = quantize(dequantize(first));
    assert.deepEqual(again.q, first.q);
    assert.ok(Math.abs(again.scale - first.scale) < 1e-15);
    assert.ok(cosineQ(first.q, quantize(v).q) === 1);
    assert.ok(cos(dequantize(first), v) > 0.9995);
    assert.equal(cosineQ(new Int8Array(4), Int8Array.from([1, 2, 3, 4])), 0);
  });

  it('gives each band a phase from its content: deterministic, in (−π, π], near for near contents', () => {
    const a = quantize(Array.from(seededUnit('band', 384))).q;
    const near = quantize(Array.from(seededUnit('band', 384), (x, i) => x + 0.05 * seededUnit('n', 384)[i])).q;
    const p = phaseOf(a, 10);
    assert.equal(p, phaseOf(a, 10));
    assert.ok(p > -Math.PI && p <= Math.PI);
    assert.notEqual(p, phaseOf(a, 12)); // another frequency, another plane
    assert.ok(Math.abs(Math.cos(p - phaseOf(near, 10)) - 1) < 0.05);
  });

  it('rotates pairwise without changing the norm; equal phases keep the cosine', () => {
    const x = Array.from(seededUnit('x', 512));
    const y = Array.from(seededUnit('y', 512));
    const phases = Array.from({ length: 14 }, (_, i) => i / 3 - 2);
    assert.ok(Math.abs(norm(rotate(x, phases)) - 1) < 1e-12);
    assert.ok(Math.abs(cos(rotate(x, phases), rotate(y, phases)) - cos(x, y)) < 1e-12);
    assert.ok(
      Math.abs(
        cos(
          rotate(x, phases),
          rotate(
            x,
            phases.map((p) => p + 0.5),
          ),
        ) - Math.cos(0.5),
      ) < 1e-12,
    );
  });

  it('concatenates so that the cosine is the weighted sum of block cosines, at unit norm', () => {
    const blocks = (s: string) => [seededUnit(`${s}0`, 8), seededUnit(`${s}1`, 4), seededUnit(`${s}2`, 4)];
    const w = [1, 2, 0.5];
    const [a, b] = [blocks('a'), blocks('b')];
    const ca = concatenate(a, w);
    const cb = concatenate(b, w);
    assert.ok(Math.abs(norm(ca) - 1) < 1e-12);
    const expected = (w[0] * cos(a[0], b[0]) + w[1] * cos(a[1], b[1]) + w[2] * cos(a[2], b[2])) / 3.5;
    assert.ok(Math.abs(cos(ca, cb) - expected) < 1e-12);
  });
});
