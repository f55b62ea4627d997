import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createLocalBandExtractor } from '../../platform/models/bands.local.ts';
import { extractLocal } from '../../platform/models/extractor.local.ts';
import { createUseLiteEmbedder } from '../../platform/models/use-lite.ts';
import { fromWire, toWire } from './artifact.ts';
import { FREQUENCIES } from './bands.ts';
import { builtinFor } from './domains.builtin.ts';
import { rankArtifacts } from './rerank.ts';
import { createTransformer, sbertFrom, SBERT_DIMENSIONS } from './transformer.ts';

const base = createUseLiteEmbedder();
const sbert = sbertFrom(base);
const transformer = createTransformer({
  base,
  signals: { sbert },
  bands: createLocalBandExtractor({
    embed: sbert.embed,
    entities: async (content, createdAt) => extractLocal({ content, createdAt }),
  }),
});
const scifact = builtinFor('scifact')!;
const cosqa = builtinFor('cosqa')!;

const ABSTRACT =
  'Vitamin D supplementation and fracture risk\n\nWe conducted a randomized controlled trial in 2,686 older adults. ' +
  'Supplementation with 100,000 IU of vitamin D3 every four months reduced fractures by 22% (p = 0.04). ' +
  'We conclude that vitamin D supplementation prevents fractures because it increases bone density.';
const CODE =
  'def read_json_file(path):\n    """Load a JSON file and return its content as a dict."""\n' +
  '    with open(path) as f:\n        return json.load(f)';

describe('graph transform', () => {
  it('makes 14 bands at 384 dimensions, the base at the embedder width, and a phase per band', async () => {
    const [a] = await transformer.transform(scifact, [{ text: ABSTRACT }]);
    assert.equal(a.bands.length, FREQUENCIES.length);
    assert.ok(a.bands.every((b) => b.q.length === SBERT_DIMENSIONS));
    assert.equal(a.base.q.length, base.dimensions);
    assert.equal(a.phases.length, 14);
    assert.deepEqual(
      Object.keys(a.signals),
      scifact.signals.map((s) => s.name),
    );
    assert.match(a.signals.claim, /Vitamin D supplementation/);
    assert.equal(a.signals.study_design, 'randomized_controlled_trial'); // named in the text
    assert.match(a.signals.quantitative_results, /22%/);
    assert.match(a.signals.mechanism, /because/);
    for (const s of scifact.signals.filter((x) => x.type === 'enum'))
      assert.ok(s.allowed_values!.includes(a.signals[s.name]), s.name);
  });

  it('reads code as code: the function, its docstring, its calls', async () => {
    const [a] = await transformer.transform(cosqa, [{ text: CODE }]);
    const all = Object.values(a.signals).join(' | ');
    assert.match(all, /read json file/);
    assert.match(all, /Load a JSON file/);
    assert.match(all, /json load/);
  });

  it('scores a stored (wire) artifact exactly like the fresh one, and ranks the relevant text first', async () => {
    const docs = [ABSTRACT, CODE, 'The weather in Paris was mild this spring, with little rain.'];
    const made = await transformer.transform(
      scifact,
      docs.map((text) => ({ text })),
    );
    const [q] = await transformer.transform(scifact, [{ text: 'vitamin D prevents bone fractures in the elderly' }], {
      mode: 'query',
    });
    const widths = { base: base.dimensions, band: SBERT_DIMENSIONS, signalEmbedder: 'sbert' };
    const back = made.map((a, i) =>
      fromWire(JSON.parse(JSON.stringify(toWire(a, scifact, { id: `d${i}`, meta: {} }))), scifact, widths, 'd'),
    );
    // Six significant digits on the wire: ~60 KB of JSON for 14 bands of 384 and a 512-wide base.
    const size = JSON.stringify(toWire(made[0], scifact, { id: 'd0', meta: {} })).length;
    assert.ok(size < 70_000, `an artifact is ${size} bytes of JSON`);
    const fresh = rankArtifacts(scifact, q, made, {});
    const stored = rankArtifacts(scifact, q, back, {});
    assert.deepEqual(
      stored.results.map((r) => [r.index, r.relevance]),
      fresh.results.map((r) => [r.index, r.relevance]),
    );
    assert.equal(fresh.results[0].index, 0);
    const fast = rankArtifacts(scifact, q, made, { method: 'fast' });
    assert.equal(fast.results[0].index, 0);
  });

  it('refuses a caller embedding of the wrong width and an unknown signal embedder (422)', async () => {
    await assert.rejects(
      transformer.transform(scifact, [{ text: 'x', embedding: [1, 2, 3] }]),
      (e: { code?: number }) => e.code === 422,
    );
    assert.throws(
      () => transformer.signalEmbedder('qwen'),
      (e: { code?: number; message: string }) => e.code === 422 && /EMBEDDINGS_URL/.test(e.message),
    );
    assert.throws(
      () => transformer.signalEmbedder('word2vec'),
      (e: { code?: number }) => e.code === 422,
    );
  });
});
