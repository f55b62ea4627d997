import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FEATURE_NAMES } from './features.ts';
import { committedRanker, linearRanker, rankerSet, type RankerFile } from './ranker.ts';

const file: RankerFile = {
  models: {
    general: { features: ['first_stage'], weights: [1] },
    code: { features: ['bm25'], weights: [1] },
  },
  domains: { cosqa: 'code' },
  default: 'general',
};
// Two candidates: the first leads on the first stage, the second on BM25.
const row = (first: number, bm25: number) => FEATURE_NAMES.map((f) => (f === 'first_stage' ? first : f === 'bm25' ? bm25 : 0));
const rows = [row(0.9, 0.1), row(0.2, 0.8)];
const best = (scores: number[]) => scores.indexOf(Math.max(...scores));

test('a domain picks its family: by short name, by full id, unknown and custom ones the default', () => {
  const set = rankerSet(file);
  assert.equal(best(set.for('cosqa').score(rows)), 1);
  assert.equal(best(set.for('cosqa:cosqa:1.0.0').score(rows)), 1, 'a full id <name>:<short>:<version>');
  assert.equal(best(set.for('general').score(rows)), 0);
  assert.equal(best(set.for('my-own-domain').score(rows)), 0, 'a custom domain gets the default model');
  assert.equal(best(set.for().score(rows)), 0, 'no domain: general');
});

test('a weights file without its default family is refused at load, not at the first search', () => {
  assert.throws(() => rankerSet({ ...file, default: 'missing' }), /default family missing/);
});

test('a feature the model does not name weighs 0; scores are over standardised features', () => {
  const r = linearRanker({ features: ['bm25', 'no_such_feature'], weights: [2, 5] });
  const [a, b] = r.score(rows);
  assert.ok(Math.abs(a + b) < 1e-9, 'z-scores of two values are ±1: the scores are opposite');
  assert.ok(b > a);
});

test('the committed file loads, and every family it names for a domain has a model', () => {
  const set = committedRanker();
  for (const family of Object.values(set.file.domains)) assert.ok(set.file.models[family], family);
  for (const m of Object.values(set.file.models)) {
    assert.equal(m.features.length, m.weights.length);
    for (const f of m.features) assert.ok((FEATURE_NAMES as readonly string[]).includes(f), `known feature ${f}`);
  }
});
