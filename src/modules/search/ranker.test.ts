import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FEATURE_NAMES } from './features.ts';
import type { Actor } from '../../shared/actor.ts';
import { committedRanker, linearRanker, rankerSet, type RankerFile } from './ranker.ts';
import { rerankStage, type GraphRerankPort } from './rerank-stage.ts';

const file: RankerFile = {
  models: {
    general: { features: ['first_stage'], weights: [1] },
    code: { features: ['bm25'], weights: [1] },
  },
  domains: { cosqa: 'code' },
  default: 'general',
};
// Two candidates: the first leads on the first stage, the second on BM25.
const row = (first: number, bm25: number) =>
  FEATURE_NAMES.map((f) => (f === 'first_stage' ? first : f === 'bm25' ? bm25 : 0));
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

// The rerank stage with a text-only model: the transform port records what it was asked.

function recordingPort() {
  const calls: string[] = [];
  const port: GraphRerankPort = {
    async checkDomain(_actor, domainId) {
      calls.push(`check:${domainId}`);
      if (domainId === 'nope') throw Object.assign(new Error('Domain nope not found'), { statusCode: 404 });
    },
    async scoreMemories(_actor, _query, candidates) {
      calls.push('score');
      return new Map(candidates.map((c) => [c.id, { base: 0.5, enhanced: 0.5, bands: new Array(14).fill(0.5) }]));
    },
  };
  return { port, calls };
}
const cands = ['alpha beta gamma', 'beta only here', 'nothing relevant'].map((content, i) => ({
  id: `m${i}`,
  content,
  createdAt: new Date(0),
  metadata: {},
  firstStage: 1 - i / 10,
  parts: [0, 0, 0, 0],
}));
const stageCtx = (over: Record<string, unknown> = {}) => ({
  actor: {} as Actor,
  query: 'alpha gamma',
  candidates: cands,
  domainId: 'general',
  withFeatures: false,
  ...over,
});

test('svc_max with a text-only model transforms no candidate, but still checks the domain', async () => {
  const { port, calls } = recordingPort();
  const ranker = rankerSet(file);
  assert.equal(ranker.for('general').usesArtifacts, false);
  const out = await rerankStage({ graph: port, ranker }, { provider: 'svc_max' }, stageCtx());
  assert.deepEqual(calls, ['check:general']);
  assert.equal(out.order.length, 3);
  await assert.rejects(
    rerankStage({ graph: port, ranker }, { provider: 'svc_max' }, stageCtx({ domainId: 'nope' })),
    /nope not found/,
  );
});

test('the transform runs when read: features asked, thresholds, svc_enhanced, a model with band weights', async () => {
  const withBands = rankerSet({ ...file, models: { general: { features: ['band_3'], weights: [1] } } });
  assert.equal(withBands.for('general').usesArtifacts, true);
  const cases: [Parameters<typeof rerankStage>[1], Record<string, unknown>, ReturnType<typeof rankerSet>][] = [
    [{ provider: 'svc_max' }, { withFeatures: true }, rankerSet(file)],
    [{ provider: 'svc_max' }, { signalThresholds: { topic: 0.1 } }, rankerSet(file)],
    [{ provider: 'svc_enhanced' }, {}, rankerSet(file)],
    [{ provider: 'svc_max' }, {}, withBands],
  ];
  for (const [choice, over, ranker] of cases) {
    const { port, calls } = recordingPort();
    const out = await rerankStage({ graph: port, ranker }, choice, stageCtx(over));
    assert.deepEqual(calls, ['score'], JSON.stringify(over));
    assert.equal(out.order.length, 3);
  }
});
