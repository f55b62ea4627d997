import { toVector, type Db, type Queryable } from '../../platform/db/index.ts';
import type { Logger } from '../../platform/log.ts';
import type { Ranked, Retrieved } from './fusion.ts';
import { scopeWhere, type SearchScope } from './search.store.ts';

/** Which vector column of memory_chunks a signal lives in. */
export type VectorSlot = 'embedding' | 'embedding2';

/**
 * The nearest-chunks statement: (memory_id, d) for the `limit` chunks of the scope nearest to
 * `vector` by cosine distance, nearest first, its parameters pushed onto `params`. Through the
 * partial HNSW index of this model for a large scope, or exactly through a user's entries in
 * the scan index (the expressions and predicates match `vectorIndexes` and migration 0013; the
 * planner picks).
 */
export function nearestSql(
  scope: SearchScope,
  slot: VectorSlot,
  model: string,
  vector: number[],
  limit: number,
  params: unknown[],
): string {
  const dims = vector.length;
  params.push(toVector(vector), model, limit);
  const [v, m, l] = [params.length - 2, params.length - 1, params.length];
  const { join, where } = scopeWhere(scope, params);
  // The distance once per chunk: named in a subquery, not written again in the select list
  // (which would compute it a second time for every chunk the scan sorts).
  return `SELECT memory_id, d FROM (
       SELECT c.memory_id, (c.${slot}::vector(${dims})) <=> $${v}::vector(${dims}) AS d
       FROM memory_chunks c ${join}
       WHERE ${where} AND c.${slot}_model = $${m}
       ORDER BY d LIMIT $${l}) x`;
}

/** Chunk distances to memory similarities: best chunk per memory, most similar first. */
export function bestPerMemory(rows: { memory_id: string; d: number }[]): Ranked {
  const out: Ranked = new Map();
  for (const r of [...rows].sort((a, b) => a.d - b.d)) if (!out.has(r.memory_id)) out.set(r.memory_id, 1 - r.d);
  return out;
}

/**
 * Nearest memories by cosine similarity of their best chunk (see nearestSql); the list is
 * complete when fewer than `limit` chunks came back.
 */
export async function nearest(
  db: Queryable,
  scope: SearchScope,
  slot: VectorSlot,
  model: string,
  vector: number[],
  limit: number,
): Promise<Retrieved> {
  const params: unknown[] = [];
  const rows = await db.query<{ memory_id: string; d: number }>(
    nearestSql(scope, slot, model, vector, limit, params),
    params,
  );
  return { scores: bestPerMemory(rows), complete: rows.length < limit };
}

/**
 * The largest primary vector carried in the per-user scan index: a btree entry must stay
 * under ~2,700 bytes (a third of a page), and a vector takes 4 bytes a dimension.
 */
const SCAN_INDEX_MAX_DIMS = 600;

/** One index of a model's vectors: its name and the statement that creates it. */
interface VectorIndex {
  name: string;
  ddl: string;
}

/**
 * Indexes for one model's vectors, for its dimensions: the partial HNSW index (large scopes),
 * and for the primary slot a per-user scan index that carries the vector itself. A search
 * inside one user's memories (the planner's choice for a user's few thousand chunks) then reads
 * the vectors from contiguous index pages instead of one heap page per chunk: on the 100k bench
 * store 1.2 instead of 2.5 ms for a user's 1,000 chunks. It costs about the table's size again
 * (a 512-d vector is 2 KB); vectors too large for a btree entry (SCAN_INDEX_MAX_DIMS) are
 * scanned from the heap. Migration 0013 creates exactly these for the default local models
 * (USE lite, GloVe SIF); change both together.
 */
function vectorIndexes(slot: VectorSlot, model: string, dims: number): VectorIndex[] {
  // The secondary signal (GloVe SIF, 100-d, weight 0.15) is built sparser than pgvector's
  // default (m 16, ef_construction 64): its HNSW index serves only scopes too large for the
  // exact per-user scan, and every chunk written pays for its insert (PGlite ingest of 3,000
  // memories: 48.5–49.0/s with the default, 50.3–51.3/s so, 53.5/s with no such index).
  // A store that built it earlier keeps its index.
  const build = slot === 'embedding2' ? 'WITH (m = 8, ef_construction = 32)' : '';
  const suffix = `${model.replace(/[^a-z0-9]+/gi, '_').toLowerCase()}_${dims}`;
  const literal = model.replace(/'/g, "''");
  const hnsw = `memory_chunks_${slot}_${suffix}`.slice(0, 63);
  const indexes = [
    {
      name: hnsw,
      ddl: `CREATE INDEX IF NOT EXISTS ${hnsw} ON memory_chunks
       USING hnsw ((${slot}::vector(${dims})) vector_cosine_ops) ${build} WHERE ${slot}_model = '${literal}'`,
    },
  ];
  // The secondary slot's vectors (100-d) are carried by memory_chunks_user_scan_idx already.
  if (slot === 'embedding' && dims <= SCAN_INDEX_MAX_DIMS) {
    const scan = `memory_chunks_scan_${suffix}`.slice(0, 63);
    indexes.push({
      name: scan,
      ddl: `CREATE INDEX IF NOT EXISTS ${scan} ON memory_chunks (organization_id, user_id)
       INCLUDE (memory_id, embedding) WHERE embedding_model = '${literal}'`,
    });
  }
  return indexes;
}

/**
 * Create the indexes of one model's vectors that the store lacks, at start-up: the default
 * models' come with the migrations, so this builds only those of another configured model
 * (an OpenAI-compatible or ONNX one of other dimensions), once. Returns the names created.
 */
export async function ensureVectorIndex(
  db: Db,
  slot: VectorSlot,
  model: string,
  dims: number,
  log?: Pick<Logger, 'info'>,
): Promise<string[]> {
  const wanted = vectorIndexes(slot, model, dims);
  const present = new Set(
    (
      await db.query<{ name: string }>(
        `SELECT c.relname AS name FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
         WHERE i.indrelid = 'memory_chunks'::regclass AND c.relname = ANY($1::text[])`,
        [wanted.map((ix) => ix.name)],
      )
    ).map((r) => r.name),
  );
  const missing = wanted.filter((ix) => !present.has(ix.name));
  for (const ix of missing) await db.exec(ix.ddl);
  if (missing.length) {
    log?.info(
      { slot, model, dimensions: dims, indexes: missing.map((ix) => ix.name) },
      `Created the vector indexes of embedding model ${model}`,
    );
  }
  return missing.map((ix) => ix.name);
}
