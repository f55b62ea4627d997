import type { Queryable } from '../../platform/db/index.ts';
import type { Ranked, Retrieved } from './fusion.ts';
import { bestPerMemory, nearestSql } from './dense.store.ts';
import { bm25Sql, type Bm25Params, type SearchScope } from './search.store.ts';

/**
 * BM25 and the secondary vector signal in one statement (one round trip instead of two; the
 * server ran them one after the other on one connection anyway, beside the primary query
 * embedding, docs/retrieval.md). Either may be absent (weight 0, no query terms, no secondary
 * model): an absent signal is an empty, complete list.
 */
export async function lexicalAndDense2(
  db: Queryable,
  scope: SearchScope,
  opts: {
    limit: number;
    bm25?: { terms: string[]; params: Bm25Params } | null;
    dense2?: { model: string; vector: number[] } | null;
  },
): Promise<{ lexical: Retrieved; dense2: Retrieved }> {
  const params: unknown[] = [];
  const parts: string[] = [];
  const lexical = opts.bm25?.terms.length ? opts.bm25 : null;
  if (lexical) {
    const sql = bm25Sql(scope, lexical.terms, opts.limit, lexical.params, params);
    parts.push(`SELECT 1 AS signal, memory_id, score FROM (${sql}) b`);
  }
  if (opts.dense2) {
    const { model, vector } = opts.dense2;
    const sql = nearestSql(scope, 'embedding2', model, vector, opts.limit, params);
    parts.push(`SELECT 2 AS signal, memory_id, d AS score FROM (${sql}) v`);
  }
  const none = { scores: new Map(), complete: true };
  if (!parts.length) return { lexical: none, dense2: none };
  const rows = await db.query<{ signal: number; memory_id: string; score: number }>(parts.join(' UNION ALL '), params);
  const bm: Ranked = new Map();
  const chunks: { memory_id: string; d: number }[] = [];
  // BM25 rows are one per memory already; sorted here because a UNION does not promise its inputs' order.
  for (const r of rows) {
    if (r.signal === 1) bm.set(r.memory_id, r.score);
    else chunks.push({ memory_id: r.memory_id, d: r.score });
  }
  return {
    lexical: { scores: new Map([...bm.entries()].sort((a, b) => b[1] - a[1])), complete: bm.size < opts.limit },
    dense2: { scores: bestPerMemory(chunks), complete: chunks.length < opts.limit },
  };
}
