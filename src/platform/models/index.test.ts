import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { dot, normalize, type Embedder } from './embedder.ts';
import { concatEmbedder } from './hybrid.ts';
import { createEmbedder, createLocalEmbedders, EMBEDDER_KINDS } from './index.ts';

/** A fixed-table embedder for exact arithmetic. */
const table = (id: string, vectors: Record<string, number[]>): Embedder => ({
  id,
  dimensions: Object.values(vectors)[0].length,
  maxTokens: 64,
  async embed(texts) {
    return texts.map((t) => normalize([...vectors[t]]));
  },
});

describe('createEmbedder', () => {
  it('builds every kind without loading any model', () => {
    const cacheDir = '/nonexistent/engram-models'; // nothing is read until first use
    assert.deepEqual([...EMBEDDER_KINDS], ['use-lite', 'glove-sif', 'hybrid', 'openai', 'onnx']);
    const use = createEmbedder({ kind: 'use-lite' });
    assert.deepEqual([use.id, use.dimensions], ['use-lite-512', 512]);
    const sif = createEmbedder({ kind: 'glove-sif', cacheDir });
    assert.deepEqual([sif.id, sif.dimensions], ['glove-sif-100', 100]);
    const hybrid = createEmbedder({ kind: 'hybrid', cacheDir });
    assert.deepEqual([hybrid.id, hybrid.dimensions], ['hybrid(use-lite-512*0.5+glove-sif-100*0.5)', 612]);
    const openai = createEmbedder({
      kind: 'openai',
      baseUrl: 'http://127.0.0.1:9',
      model: 'qwen3-embedding',
      dimensions: 1024,
    });
    assert.deepEqual([openai.id, openai.dimensions], ['openai:qwen3-embedding', 1024]);
    assert.throws(() => createEmbedder({ kind: 'nope' } as never), /Unknown embedder kind nope/);
  });

  it('createLocalEmbedders returns USE lite and GloVe SIF side by side', () => {
    const local = createLocalEmbedders('/nonexistent/engram-models');
    assert.deepEqual(
      local.all.map((e) => e.id),
      ['use-lite-512', 'glove-sif-100'],
    );
    assert.equal(local.useLite.dimensions + local.gloveSif.dimensions, 612);
  });
});

describe('concatEmbedder', () => {
  it("gives unit vectors whose cosine is the weighted sum of the parts' cosines", async () => {
    const a = table('a', { x: [1, 0], y: [0.6, 0.8] });
    const b = table('b', { x: [1, 2, 2], y: [2, 1, -2] });
    const fused = concatEmbedder([
      { embedder: a, weight: 3 },
      { embedder: b, weight: 1 },
    ]);
    assert.equal(fused.id, 'hybrid(a*0.75+b*0.25)');
    assert.equal(fused.dimensions, 5);
    const [x, y] = await fused.embed(['x', 'y']);
    assert.ok(Math.abs(dot(x, x) - 1) < 1e-12);
    const [ax, ay] = await a.embed(['x', 'y']);
    const [bx, by] = await b.embed(['x', 'y']);
    assert.ok(Math.abs(dot(x, y) - (0.75 * dot(ax, ay) + 0.25 * dot(bx, by))) < 1e-12);
  });

  it('rejects non-positive weights', () => {
    assert.throws(() => concatEmbedder([{ embedder: table('a', { x: [1] }), weight: 0 }]), /positive weight/);
  });
});
