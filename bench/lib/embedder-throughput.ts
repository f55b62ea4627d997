/**
 * The bare embedders as baselines: their throughput for ingest (how fast could memories go
 * in if storing them cost nothing beyond embedding?), and the query embedding's latency for
 * search (the part of a search no store can shorten; it differs between machines far more
 * than the SQL does).
 */
import { createGloveSifEmbedder, createUseLiteEmbedder } from '../../src/platform/models/index.ts';
import { median } from '../stats.ts';

/**
 * Embed `texts` in batches of `batchSize`, one batch at a time, with the server's default
 * dense signals (EMBEDDER=local: USE lite and GloVe SIF, run side by side per batch as
 * src/modules/memories/indexing.ts does). Model loading and a warm-up call are excluded.
 * Adapt this function if the server's default embedders change.
 */
export async function embedderThroughput(
  texts: string[],
  batchSize: number,
  cacheDir: string,
  queries: string[] = [],
): Promise<{ textsPerSec: number; ids: string[]; queryP50Ms?: number }> {
  const useLite = createUseLiteEmbedder();
  const gloveSif = createGloveSifEmbedder({ cacheDir });
  const all = [useLite, gloveSif];
  await Promise.all([useLite.load(), gloveSif.load()]);
  await Promise.all(all.map((e) => e.embed(['warm up'])));
  const t0 = performance.now();
  for (let i = 0; i < texts.length; i += batchSize) {
    const batch = texts.slice(i, i + batchSize);
    await Promise.all(all.map((e) => e.embed(batch)));
  }
  const textsPerSec = texts.length / ((performance.now() - t0) / 1000);
  // One query at a time through the primary embedder, as a search embeds it (the secondary,
  // GloVe SIF, takes microseconds).
  const times: number[] = [];
  for (const q of queries) {
    const t = performance.now();
    await useLite.embed([q]);
    times.push(performance.now() - t);
  }
  return { textsPerSec, ids: all.map((e) => e.id), ...(times.length ? { queryP50Ms: median(times) } : {}) };
}
