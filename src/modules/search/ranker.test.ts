import assert from 'node:assert/strict';
import { test } from 'node:test';
import { candidateFeatures, FEATURE_NAMES } from './features.ts';
import type { Actor } from '../../shared/actor.ts';
import {
  committedRanker,
  firstStageQuery,
  linearRanker,
  rankerSet,
  type RankerFile,
  type RankerPool,
} from './ranker.ts';
import { narrowPool, rerankStage, type GraphRerankPort } from './rerank-stage.ts';

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

test('the code models score candidates only when read: a model weighing them, or features reported', async () => {
  const col = (f: string) => FEATURE_NAMES.indexOf(f as (typeof FEATURE_NAMES)[number]);
  const code = (rows: number[][]) => rows.map((r) => [r[col('code_words')], r[col('code_translation')]]);
  const scored = code(candidateFeatures('alpha gamma', cands));
  assert.ok(
    scored.some(([w, t]) => w !== 0 && t !== 0),
    'scored by default',
  );
  assert.deepEqual(code(candidateFeatures('alpha gamma', cands, undefined, { code: false })), [
    [0, 0],
    [0, 0],
    [0, 0],
  ]);
  assert.equal(rankerSet(file).for('general').usesCode, false);
  const withCode = rankerSet({ ...file, models: { general: { features: ['code_translation'], weights: [1] } } });
  assert.equal(withCode.for('general').usesCode, true);
  // A model without code weights orders the same either way: its reported features still carry the scores.
  const { port } = recordingPort();
  const out = await rerankStage(
    { graph: port, ranker: rankerSet(file) },
    { provider: 'svc_max' },
    stageCtx({ withFeatures: true }),
  );
  assert.deepEqual(
    out.order.map((o) => o.features?.code_translation !== 0),
    [true, true, true],
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

// A wider pool (RankerPool): what the code models find deep in the first stage is reranked.

test('svc_max with a pool narrows the first stage by its features to `keep`, in first-stage order', async () => {
  const filler = (i: number) => ({ ...cands[2], id: `f${i}`, content: `def helper_${i}(x):\n    return x + ${i}` });
  const deep = {
    ...cands[2],
    id: 'clip',
    content: 'def paste():\n    return subprocess.check_output(["xclip", "-selection", "clipboard", "-o"])',
  };
  const pooled = [...Array.from({ length: 8 }, (_, i) => filler(i)), deep].map((c, i) => ({
    ...c,
    firstStage: 1 - i / 10,
  }));
  const pool: RankerPool = { depth: 9, keep: 3, by: ['code_words', 'code_translation'] };
  const kept = narrowPool('python get clipboard contents', pooled, pool);
  assert.equal(kept.length, 3);
  assert.ok(
    kept.some((c) => c.id === 'clip'),
    'the last of the first stage, the one about the clipboard, is kept',
  );
  assert.deepEqual(
    kept.map((c) => c.firstStage),
    [...kept.map((c) => c.firstStage)].sort((a, b) => b - a),
    'first-stage order',
  );
  const ranker = rankerSet({
    ...file,
    models: { ...file.models, code: { features: ['code_translation'], weights: [1], pool } },
  });
  assert.equal(ranker.for('cosqa').pool, pool);
  const out = await rerankStage(
    { graph: recordingPort().port, ranker },
    { provider: 'svc_max' },
    stageCtx({ candidates: pooled, domainId: 'cosqa', query: 'python get clipboard contents' }),
  );
  assert.equal(out.order.length, 3, 'the model reranks the narrowed pool only');
  assert.equal(out.order[0].id, 'clip');
  const none = await rerankStage(
    { graph: recordingPort().port, ranker },
    { provider: 'none' },
    stageCtx({ candidates: pooled, domainId: 'cosqa' }),
  );
  assert.equal(none.order.length, 9, 'without svc_max the pool is not narrowed');
  assert.throws(
    () =>
      rankerSet({
        ...file,
        models: { general: { features: [], weights: [], pool: { ...pool, by: ['nope'] as never } } },
      }),
    /pool by unknown nope/,
  );
});

test("a pool's ignored words are left out of the first stage's query, whole words in any case, never all of it", () => {
  const pool: RankerPool = { depth: 300, keep: 100, by: ['code_words'], ignore: ['python', 'py'] };
  assert.equal(firstStageQuery('Python check if a variable is iterable', pool), 'check if a variable is iterable');
  assert.equal(firstStageQuery('read a file in python?', pool), 'read a file in');
  assert.equal(firstStageQuery('pythonic way to copy a py file', pool), 'pythonic way to copy a file');
  assert.equal(firstStageQuery('python', pool), 'python', 'nothing else left: the query itself');
  assert.equal(firstStageQuery('python sort', undefined), 'python sort');
  assert.deepEqual(committedRanker().for('cosqa').pool?.ignore, ['python', 'py'], 'the committed code family');
});
