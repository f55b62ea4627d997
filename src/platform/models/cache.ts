/**
 * An LRU cache in front of an embedder, for query embeddings: agents repeat queries, and
 * a USE lite call costs ~25 ms of blocked CPU while a hit costs microseconds.
 */
import type { Embedder } from './embedder.ts';

/** Counters for monitoring the hit rate. */
export interface EmbeddingCacheStats {
  hits: number;
  misses: number;
  size: number;
}

/** An {@link Embedder} with an LRU cache; `id`, `dimensions` and `maxTokens` are the inner one's. */
export interface CachedEmbedder extends Embedder {
  readonly stats: EmbeddingCacheStats;
  clear(): void;
}

/** Options for {@link cachedEmbedder}. */
export interface EmbeddingCacheOptions {
  /** Most texts kept (≥ 1). 512-d vectors as number[] cost ~4 KB each. */
  maxEntries: number;
}

/**
 * Wrap `inner` with an LRU cache keyed by text. Misses of one call go to the inner embedder
 * in one batch (duplicates once), and concurrent calls for the same text share one request.
 */
export function cachedEmbedder(inner: Embedder, options: EmbeddingCacheOptions): CachedEmbedder {
  const maxEntries = Math.max(1, Math.floor(options.maxEntries));
  // A Map iterates in insertion order, so re-inserting on access makes the first key the LRU one.
  const entries = new Map<string, number[]>();
  const inflight = new Map<string, Promise<number[]>>();
  const stats = { hits: 0, misses: 0 };

  // The inner id is part of the key: an embedder whose id changes (a GloVe SIF re-fit)
  // must not serve vectors from its previous space.
  const keyOf = (text: string) => `${inner.id}\u0000${text}`;

  function remember(key: string, vector: number[]): void {
    entries.delete(key);
    entries.set(key, vector);
    if (entries.size > maxEntries) entries.delete(entries.keys().next().value as string);
  }

  function fetchMisses(keys: string[], texts: string[]): Promise<number[][]> {
    const pending = inner.embed(texts).then((vectors) => {
      keys.forEach((key, i) => remember(key, vectors[i]));
      return vectors;
    });
    for (const [i, key] of keys.entries()) {
      const one = pending.then((vectors) => vectors[i]);
      one.catch(() => undefined); // awaited by concurrent callers only; never an unhandled rejection
      inflight.set(key, one);
    }
    const clear = () => keys.forEach((key) => inflight.delete(key));
    pending.then(clear, clear);
    return pending;
  }

  return {
    get id() {
      return inner.id;
    },
    get dimensions() {
      return inner.dimensions;
    },
    get maxTokens() {
      return inner.maxTokens;
    },
    get stats() {
      return { ...stats, size: entries.size };
    },
    clear() {
      entries.clear();
    },
    async embed(texts) {
      const keys = texts.map(keyOf);
      // Resolved locally rather than re-read from the cache: a call with more distinct
      // texts than maxEntries would otherwise evict its own early results.
      const resolved = new Map<string, number[]>();
      const seen = new Set<string>();
      const waits: Promise<void>[] = [];
      const missKeys: string[] = [];
      const missTexts: string[] = [];
      keys.forEach((key, i) => {
        const hit = entries.get(key);
        if (seen.has(key)) {
          stats.hits++; // a duplicate within this call: embedded once
        } else if (hit) {
          stats.hits++;
          remember(key, hit); // refresh recency
          resolved.set(key, hit);
        } else if (inflight.has(key)) {
          stats.hits++; // a concurrent call is already embedding this text
          waits.push(inflight.get(key)!.then((v) => void resolved.set(key, v)));
        } else {
          stats.misses++;
          missKeys.push(key);
          missTexts.push(texts[i]);
        }
        seen.add(key);
      });
      if (missKeys.length > 0) {
        waits.push(fetchMisses(missKeys, missTexts).then((vs) => vs.forEach((v, j) => resolved.set(missKeys[j], v))));
      }
      await Promise.all(waits);
      // Copies, so a caller mutating its result cannot corrupt the cache.
      return keys.map((key) => resolved.get(key)!.slice());
    },
  };
}
