import type { Db } from '../../platform/db/index.ts';
import { toVector } from '../../platform/db/index.ts';
import type { Embedders } from '../memories/indexing.ts';
import type { VectorSlot } from './dense.store.ts';

/** Chunks whose stored vector is missing or from another model than the configured one. */
export async function countStaleVectors(db: Db, embedders: Embedders): Promise<Record<VectorSlot, number>> {
  const [row] = await db.query<{ a: number; b: number }>(
    `SELECT count(*) FILTER (WHERE embedding_model IS DISTINCT FROM $1)::int AS a,
            count(*) FILTER (WHERE $2::text IS NOT NULL AND embedding2_model IS DISTINCT FROM $2)::int AS b
     FROM memory_chunks`,
    [embedders.primary.id, embedders.secondary?.id ?? null],
  );
  return { embedding: row.a, embedding2: row.b };
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
      const rows = await db.query<{ id: string; text: string }>(
        `SELECT id, text FROM memory_chunks WHERE ${slot}_model IS DISTINCT FROM $1 ORDER BY id LIMIT $2`,
        [e.id, batch],
      );
      if (!rows.length) break;
      const vectors = await e.embed(rows.map((r) => r.text));
      await db.query(
        `UPDATE memory_chunks c SET ${slot} = v.vec::vector, ${slot}_model = $3
         FROM unnest($1::text[], $2::text[]) AS v(id, vec) WHERE c.id = v.id`,
        [rows.map((r) => r.id), vectors.map(toVector), e.id],
      );
      done += rows.length;
      onProgress?.(done);
    }
  }
  return done;
}
