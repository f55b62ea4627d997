import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadConfig } from '../../config.ts';
import { createEmbedder, embeddersFromConfig } from './index.ts';

describe('createEmbedder', () => {
  it('builds every kind without loading any model', () => {
    const cacheDir = '/nonexistent/engram-models'; // nothing is read until first use
    const use = createEmbedder({ kind: 'use-lite' });
    assert.deepEqual([use.id, use.dimensions], ['use-lite-512', 512]);
    const sif = createEmbedder({ kind: 'glove-sif', cacheDir });
    assert.deepEqual([sif.id, sif.dimensions], ['glove-sif-100', 100]);
    const openai = createEmbedder({
      kind: 'openai',
      baseUrl: 'http://127.0.0.1:9',
      model: 'qwen3-embedding',
      dimensions: 1024,
    });
    assert.deepEqual([openai.id, openai.dimensions], ['openai:qwen3-embedding', 1024]);
    assert.throws(() => createEmbedder({ kind: 'nope' } as never), /Unknown embedder kind nope/);
  });
});

describe('embeddersFromConfig', () => {
  const testConfig = (env: Record<string, string> = {}) =>
    loadConfig({ DATA_DIR: '/tmp/engram-test-unused', EMBEDDER_THREADS: 'false', ...env });

  it('runs USE lite and GloVe SIF side by side by default, without loading either', async () => {
    const models = embeddersFromConfig(testConfig({ MODELS_CACHE_DIR: '/nonexistent/engram-models' }));
    assert.deepEqual(
      [models.index.primary.id, models.index.secondary?.id, models.query.primary.id, models.query.secondary?.id],
      ['use-lite-512', 'glove-sif-100', 'use-lite-512', 'glove-sif-100'],
    );
    await models.close();
  });

  it('takes the primary from EMBEDDER and adds GloVe SIF only when asked', async () => {
    const openai = {
      EMBEDDER: 'openai',
      EMBEDDINGS_URL: 'http://127.0.0.1:9',
      EMBEDDINGS_MODEL: 'qwen3-embedding',
      EMBEDDINGS_DIMENSIONS: '1024',
    };
    const plain = embeddersFromConfig(testConfig(openai));
    assert.deepEqual([plain.index.primary.id, plain.index.primary.dimensions], ['openai:qwen3-embedding', 1024]);
    assert.equal(plain.index.secondary, undefined);
    const both = embeddersFromConfig(testConfig({ ...openai, EMBEDDER_SECONDARY: 'glove-sif' }));
    assert.equal(both.index.secondary?.id, 'glove-sif-100');
    const threaded = embeddersFromConfig(testConfig({ EMBEDDER_THREADS: 'true', EMBEDDER_SECONDARY: 'none' }));
    assert.deepEqual([threaded.index.primary.id, threaded.index.secondary], ['use-lite-512', undefined]);
    await Promise.all([plain, both, threaded].map((m) => m.close()));
  });
});
