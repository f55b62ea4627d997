import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cachedEmbedder } from './cache.ts';
import { normalize, type Embedder } from './embedder.ts';

/** A fake embedder that records every text it is asked for; `id` can be changed. */
function recorder(options: { fail?: () => boolean; delayMs?: number } = {}) {
  const calls: string[][] = [];
  const inner: Embedder & { id: string } = {
    id: 'fake-3',
    dimensions: 3,
    maxTokens: 100,
    async embed(texts) {
      calls.push([...texts]);
      if (options.delayMs) await new Promise((r) => setTimeout(r, options.delayMs));
      if (options.fail?.()) throw new Error('inner failed');
      return texts.map((t) => normalize([t.length, t.charCodeAt(0) || 1, inner.id.length]));
    },
  };
  return { inner, calls };
}

describe('cachedEmbedder', () => {
  it('serves repeated texts from the cache and counts hits and misses', async () => {
    const { inner, calls } = recorder();
    const cached = cachedEmbedder(inner, { maxEntries: 10 });
    const first = await cached.embed(['alpha', 'beta']);
    const second = await cached.embed(['beta', 'gamma', 'alpha']);
    assert.deepEqual(calls, [['alpha', 'beta'], ['gamma']]);
    assert.deepEqual(second[0], first[1]);
    assert.deepEqual(second[2], first[0]);
    assert.deepEqual(cached.stats, { hits: 2, misses: 3, size: 3 });
    assert.equal(cached.id, 'fake-3');
    assert.equal(cached.dimensions, 3);
  });

  it('evicts the least recently used text', async () => {
    const { inner, calls } = recorder();
    const cached = cachedEmbedder(inner, { maxEntries: 2 });
    await cached.embed(['a']);
    await cached.embed(['b']);
    await cached.embed(['a']); // a is now more recent than b
    await cached.embed(['c']); // evicts b
    calls.length = 0;
    await cached.embed(['a', 'c']);
    assert.deepEqual(calls, [], 'a and c are still cached');
    await cached.embed(['b']);
    assert.deepEqual(calls, [['b']], 'b was evicted');
    assert.equal(cached.stats.size, 2);
  });

  it('embeds duplicates within a call once', async () => {
    const { inner, calls } = recorder();
    const cached = cachedEmbedder(inner, { maxEntries: 10 });
    const out = await cached.embed(['x', 'y', 'x', 'x']);
    assert.deepEqual(calls, [['x', 'y']]);
    assert.equal(out.length, 4);
    assert.deepEqual(out[3], out[0]);
    assert.deepEqual(cached.stats, { hits: 2, misses: 2, size: 2 });
  });

  it('shares one inner request between concurrent calls for the same text', async () => {
    const { inner, calls } = recorder({ delayMs: 20 });
    const cached = cachedEmbedder(inner, { maxEntries: 10 });
    const [a, b] = await Promise.all([cached.embed(['same query']), cached.embed(['same query'])]);
    assert.deepEqual(calls, [['same query']]);
    assert.deepEqual(a, b);
    assert.deepEqual(cached.stats, { hits: 1, misses: 1, size: 1 });
  });

  it('returns copies, so callers cannot corrupt cached vectors', async () => {
    const { inner } = recorder();
    const cached = cachedEmbedder(inner, { maxEntries: 10 });
    const [v] = await cached.embed(['q']);
    const original = [...v];
    v.fill(0);
    assert.deepEqual((await cached.embed(['q']))[0], original);
  });

  it('answers calls with more distinct texts than it can hold', async () => {
    const { inner } = recorder();
    const cached = cachedEmbedder(inner, { maxEntries: 2 });
    const texts = ['one', 'two', 'three', 'four', 'five'];
    const out = await cached.embed(texts);
    assert.deepEqual(out, await inner.embed(texts));
    assert.equal(cached.stats.size, 2);
  });

  it('does not cache failures and keys entries by the inner model id', async () => {
    let failing = true;
    const { inner, calls } = recorder({ fail: () => failing });
    const cached = cachedEmbedder(inner, { maxEntries: 10 });
    await assert.rejects(cached.embed(['q']), /inner failed/);
    failing = false;
    await cached.embed(['q']);
    assert.equal(calls.length, 2, 'the failed text is requested again');
    inner.id = 'fake-3@refit';
    await cached.embed(['q']);
    assert.equal(calls.length, 3, 'a new model id does not reuse old vectors');
    assert.equal(cached.id, 'fake-3@refit');
  });
});
