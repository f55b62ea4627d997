import type { Db } from '../../platform/db/index.ts';
import type { Embedders } from '../../platform/models/index.ts';
import { embeddingText } from '../../platform/text-code.ts';
import type { VectorSlot } from './dense.store.ts';
import { chunksOfOtherModel, countChunksOfOtherModels, updateChunkVectors } from './reembed.store.ts';

/** Chunks whose stored vector is missing or from another model than the configured one. */
export function countStaleVectors(db: Db, embedders: Embedders): Promise<Record<VectorSlot, number>> {
  return countChunksOfOtherModels(db, {
    embedding: embedders.primary.id,
    embedding2: embedders.secondary?.id ?? null,
  });
}

/**
 * Re-embed every chunk whose vector came from another model, in batches, so a model
 * change never mixes vector spaces: until a chunk is re-embedded, search (which filters
 * on the model id) simply does not see it in that signal. Idempotent and resumable.
 */
export async function reembedStale(
  db: Db,
  embedders: Embedders,
  batch = 64,
  onProgress?: (done: number) => void,
): Promise<number> {
  let done = 0;
  for (const [slot, e] of [
    ['embedding', embedders.primary],
    ['embedding2', embedders.secondary],
  ] as const) {
    if (!e) continue;
    for (;;) {
      const rows = await chunksOfOtherModel(db, slot, e.id, batch);
      if (!rows.length) break;
      // As a write embeds it: code by its words (text-code.ts).
      const vectors = await e.embed(rows.map((r) => embeddingText(r.text)));
      await updateChunkVectors(
        db,
        slot,
        e.id,
        rows.map((r) => r.id),
        vectors,
      );
      done += rows.length;
      onProgress?.(done);
    }
  }
  return done;
}
