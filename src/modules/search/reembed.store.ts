import { toVector, type Queryable } from '../../platform/db/index.ts';
import type { VectorSlot } from './dense.store.ts';

/**
 * Chunks whose vector in each slot is missing or from another model than `models` names
 * (a null secondary model counts nothing in that slot).
 */
export async function countChunksOfOtherModels(
  db: Queryable,
  models: { embedding: string; embedding2: string | null },
): Promise<Record<VectorSlot, number>> {
  const [row] = await db.query<{ a: number; b: number }>(
    `SELECT count(*) FILTER (WHERE embedding_model IS DISTINCT FROM $1)::int AS a,
            count(*) FILTER (WHERE $2::text IS NOT NULL AND embedding2_model IS DISTINCT FROM $2)::int AS b
     FROM memory_chunks`,
    [models.embedding, models.embedding2],
  );
  return { embedding: row.a, embedding2: row.b };
}

/** Up to `limit` chunks (by id) whose `slot` vector is missing or from another model than `model`. */
export function chunksOfOtherModel(
  db: Queryable,
  slot: VectorSlot,
  model: string,
  limit: number,
): Promise<{ id: string; text: string }[]> {
  return db.query<{ id: string; text: string }>(
    `SELECT id, text FROM memory_chunks WHERE ${slot}_model IS DISTINCT FROM $1 ORDER BY id LIMIT $2`,
    [model, limit],
  );
}

/** Store `vectors[i]` of `model` in the `slot` of chunk `ids[i]`, in one statement. */
export async function updateChunkVectors(
  db: Queryable,
  slot: VectorSlot,
  model: string,
  ids: string[],
  vectors: number[][],
): Promise<void> {
  await db.query(
    `UPDATE memory_chunks c SET ${slot} = v.vec::vector, ${slot}_model = $3
     FROM unnest($1::text[], $2::text[]) AS v(id, vec) WHERE c.id = v.id`,
    [ids, vectors.map(toVector), model],
  );
}
