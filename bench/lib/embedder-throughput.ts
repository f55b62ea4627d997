/**
 * Throughput of the bare embedders, the baseline for ingest throughput: how fast could
 * memories go in if storing them cost nothing beyond embedding?
 */
import { createLocalEmbedders } from '../../src/platform/models/index.ts';

/**
 * Embed `texts` in batches of `batchSize`, one batch at a time, with the server's default
 * dense signals (EMBEDDER=local: USE lite and GloVe SIF, run side by side per batch as
 * src/modules/memories/indexing.ts does). Model loading and a warm-up call are excluded.
 * Adapt this function if the server's default embedders change.
 */
export async function embedderThroughput(texts: string[], batchSize: number, cacheDir: string): Promise<{ textsPerSec: number; ids: string[] }> {
  const local = createLocalEmbedders(cacheDir);
  await local.load();
  await Promise.all(local.all.map((e) => e.embed(['warm up'])));
  const t0 = performance.now();
  for (let i = 0; i < texts.length; i += batchSize) {
    const batch = texts.slice(i, i + batchSize);
    await Promise.all(local.all.map((e) => e.embed(batch)));
  }
  return { textsPerSec: texts.length / ((performance.now() - t0) / 1000), ids: local.all.map((e) => e.id) };
}
