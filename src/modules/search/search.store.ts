import type { Queryable } from '../../platform/db/index.ts';
import type { Ranked } from './fusion.ts';
import { safetySql, type SafetyFilter } from '../memories/index.ts';

/** Where a search looks. Every field is a SQL predicate, never a post-filter. */
export interface SearchScope {
  organizationId: string;
  namespaceId: string | null;
  /** The user whose memories are searched (their own); null with `sharedIds` only: shared ones alone. */
  userId: string | null;
  /** Other users' memories whose ACL lets this reader read them (see sharedWith). */
  sharedIds?: string[] | null;
  /** JSON containment filter on memory metadata (`metadata @> filter`). */
  metadata: Record<string, unknown> | null;
  /** `search_acl.read`: every listed entity must have read access (`acl_read @> list`). */
  requireReaders?: string[] | null;
  /** The consent/risk safety filter (`omo_filter`). */
  safety?: SafetyFilter | null;
  /** Point-in-time search (`as_of`): only memories whose time (metadata.createdAt, else stored) is not later. */
  asOf?: Date | null;
}

/**
 * Memories of other users that `entities` (the reader as ACL entries) may read: listed on their
 * read ACL and not flagged (flagged memories are owner-only). Through the partial GIN index of
 * shared memories (migration 0008); capped, newest first.
 */
export async function sharedWith(
  db: Queryable,
  r: { organizationId: string; namespaceId: string | null; entities: string[]; ownerId: string | null },
  opts: { cap?: number } = {},
): Promise<string[]> {
  const params: unknown[] = [r.organizationId, r.entities, opts.cap ?? 10_000];
  const where = ['is_shared', 'organization_id = $1', 'acl_read && $2::text[]', "risk <> 'flagged'"];
  if (r.ownerId) {
    params.push(r.ownerId);
    where.push(`user_id <> $${params.length}`);
  }
  if (r.namespaceId) {
    params.push(r.namespaceId);
    where.push(`namespace_id = $${params.length}`);
  }
  const rows = await db.query<{ id: string }>(
    `SELECT id FROM memories WHERE ${where.join(' AND ')} ORDER BY created_at DESC LIMIT $3`,
    params,
  );
  return rows.map((r) => r.id);
}

/** WHERE clause over chunks `c`, joined to memories `m` only when a memory-level filter needs it. */
export function scopeWhere(scope: SearchScope, params: unknown[]): { join: string; where: string } {
  params.push(scope.organizationId);
  const where = [`c.organization_id = $${params.length}`];
  if (scope.namespaceId) {
    params.push(scope.namespaceId);
    where.push(`c.namespace_id = $${params.length}`);
  }
  const shared = scope.sharedIds?.length ? scope.sharedIds : null;
  if (shared) params.push(shared);
  const sharedSql = shared ? `c.memory_id = ANY($${params.length}::text[])` : null;
  if (scope.userId) {
    params.push(scope.userId);
    where.push(sharedSql ? `(c.user_id = $${params.length} OR ${sharedSql})` : `c.user_id = $${params.length}`);
  } else if (sharedSql) where.push(sharedSql);
  const memoryLevel: string[] = [];
  if (scope.metadata && Object.keys(scope.metadata).length) {
    params.push(JSON.stringify(scope.metadata));
    memoryLevel.push(`m.metadata @> $${params.length}::jsonb`);
  }
  if (scope.requireReaders?.length) {
    params.push(scope.requireReaders);
    memoryLevel.push(`m.acl_read @> $${params.length}::text[]`);
  }
  memoryLevel.push(...safetySql(scope.safety ?? undefined, params));
  if (scope.asOf) {
    params.push(scope.asOf.toISOString());
    memoryLevel.push(`coalesce(m.occurred_at, m.created_at) <= $${params.length}::timestamptz`);
  }
  return {
    join: memoryLevel.length ? 'JOIN memories m ON m.id = c.memory_id' : '',
    where: [...where, ...memoryLevel].join(' AND '),
  };
}

/** Which of `ids` the scope can read (every filter of the search applies). */
export async function visibleMemories(db: Queryable, scope: SearchScope, ids: string[]): Promise<Set<string>> {
  if (!ids.length) return new Set();
  const params: unknown[] = [ids];
  const { join, where } = scopeWhere(scope, params);
  const rows = await db.query<{ memory_id: string }>(
    `SELECT DISTINCT c.memory_id FROM memory_chunks c ${join} WHERE c.memory_id = ANY($1::text[]) AND ${where}`,
    params,
  );
  return new Set(rows.map((r) => r.memory_id));
}

export interface Bm25Params {
  k1: number;
  b: number;
}

/** Up to this many chunks in scope, BM25 reads the scope's rows before matching terms. */
export const SCOPE_FIRST_MAX_DOCS = 20_000;

/**
 * Whether BM25 can read the scope's postings and statistics (migration 0016): one user's own
 * chunks, optionally in one namespace, with no memory-level filter. Anything else (memories
 * shared by other users, metadata, `search_acl` or safety filters) has no precomputed
 * statistics, and is scored over the chunk rows themselves with the same formula.
 */
export function postingsScope(scope: SearchScope): boolean {
  return (
    !!scope.userId &&
    !scope.sharedIds?.length &&
    !(scope.metadata && Object.keys(scope.metadata).length) &&
    !scope.requireReaders?.length &&
    !scope.asOf &&
    safetySql(scope.safety ?? undefined, []).length === 0
  );
}

/**
 * The BM25 statement for `scope`, its parameters pushed onto `params`; it yields
 * (memory_id, score), best chunk per memory, at most `limit` rows, best first.
 *
 * Okapi BM25 over our analysed terms, with document statistics (N, average length) and term
 * statistics (document frequency) taken within the searched scope.
 *
 * For a user's own memories (postingsScope) N and the total length are the scope's rows of
 * memory_term_stats and the matches are the user's postings of the query terms (one
 * index-only range per term of memory_chunk_terms); the document frequencies are their
 * counts. Triggers keep both in step with memory_chunks in the writer's transaction, so the
 * scores equal those of the chunk-row statement below in every snapshot (tested). Its cost
 * follows the query terms' postings in the scope instead of the scope's size: for a user's ~1,000
 * chunks at 100k memories 40 buffers and 1.2 ms instead of 1,161 and 8.5 ms (docs/retrieval.md).
 *
 * Otherwise a scope of at most `scopeFirstMax` chunks is read first and its chunks' terms
 * matched one by one, instead of leaving the planner to intersect the terms index with the
 * scope (the planner's bitmap of every chunk holding a common query term costs more than a
 * small scope's rows); for a scope holding much of the store the index wins. Both plans are in
 * the statement; the scope's N, counted first, lets exactly one of them run (a one-time filter).
 */
export function bm25Sql(
  scope: SearchScope,
  terms: string[],
  limit: number,
  p: Bm25Params,
  params: unknown[],
  opts: { scopeFirstMax?: number; postings?: boolean } = {},
): string {
  const $ = (v: unknown) => {
    params.push(v);
    return `$${params.length}`;
  };
  const termsParam = $(terms);
  const k1 = `${$(p.k1)}::float8`;
  const b = `${$(p.b)}::float8`;
  const score = `SELECT memory_id, max(score)::float8 AS score FROM (
       SELECT h.id, h.memory_id,
              sum(ln(1 + (s.n - df.df + 0.5) / (df.df + 0.5)) * h.tf * (${k1} + 1)
                  / (h.tf + ${k1} * (1 - ${b} + ${b} * h.doc_len / s.avgdl))) AS score
       FROM hits h JOIN df USING (lexeme) CROSS JOIN stats s
       GROUP BY h.id, h.memory_id) chunk_scores
     GROUP BY memory_id ORDER BY score DESC LIMIT ${$(limit)}::int`;
  const df = `df AS (SELECT lexeme, count(*)::float8 AS df FROM hits GROUP BY lexeme)`;
  if ((opts.postings ?? true) && postingsScope(scope)) {
    const org = $(scope.organizationId);
    const user = $(scope.userId);
    const ns = scope.namespaceId ? $(scope.namespaceId) : null;
    return `WITH stats AS (
       SELECT coalesce(sum(chunks), 0)::float8 AS n,
              greatest(coalesce(sum(total_len), 0)::float8 / greatest(sum(chunks), 1), 1)::float8 AS avgdl
       FROM memory_term_stats WHERE organization_id = ${org} AND user_id = ${user}
         ${ns ? `AND namespace_key = ${ns}` : ''}
     ), hits AS (
       SELECT p.chunk_id AS id, p.memory_id, p.doc_len, p.lexeme, p.tf FROM memory_chunk_terms p
       WHERE p.organization_id = ${org} AND p.user_id = ${user} AND p.lexeme = ANY(${termsParam}::text[])
         ${ns ? `AND p.namespace_id = ${ns}` : ''}
     ), ${df}
     ${score}`;
  }
  const query = $(terms.map((t) => `'${t}'`).join(' | '));
  const { join, where } = scopeWhere(scope, params);
  const small = `(SELECT n FROM stats) <= ${$(opts.scopeFirstMax ?? SCOPE_FIRST_MAX_DOCS)}::float8`;
  // OFFSET 0 keeps the scope's rows a subquery of their own (the planner cannot push the
  // terms match into it, so it cannot reach for the terms index).
  return `WITH stats AS (
       SELECT count(*)::float8 AS n, greatest(avg(c.doc_len), 1)::float8 AS avgdl
       FROM memory_chunks c ${join} WHERE ${where}
     ), hits AS (
     SELECT c.id, c.memory_id, c.doc_len, t.lexeme, coalesce(array_length(t.positions, 1), 1) AS tf
       FROM (SELECT c.id, c.memory_id, c.doc_len, c.terms
             FROM memory_chunks c ${join} WHERE ${where} OFFSET 0) c, unnest(c.terms) AS t
       WHERE ${small} AND c.terms @@ to_tsquery('simple', ${query}) AND t.lexeme = ANY(${termsParam}::text[])
     UNION ALL
     SELECT c.id, c.memory_id, c.doc_len, t.lexeme, coalesce(array_length(t.positions, 1), 1) AS tf
       FROM memory_chunks c ${join}, unnest(c.terms) AS t
       WHERE NOT ${small} AND ${where} AND c.terms @@ to_tsquery('simple', ${query})
         AND t.lexeme = ANY(${termsParam}::text[])
     ), ${df}
     ${score}`;
}

/** BM25 scores of the scope's memories for `terms` (see bm25Sql), best first. */
export async function bm25(
  db: Queryable,
  scope: SearchScope,
  terms: string[],
  limit: number,
  p: Bm25Params,
  opts: { scopeFirstMax?: number; postings?: boolean } = {},
): Promise<Ranked> {
  if (!terms.length) return new Map();
  const params: unknown[] = [];
  const rows = await db.query<{ memory_id: string; score: number }>(
    bm25Sql(scope, terms, limit, p, params, opts),
    params,
  );
  return new Map(rows.map((r) => [r.memory_id, r.score]));
}

export async function logQuery(
  db: Queryable,
  row: {
    id: string;
    organizationId: string;
    namespaceId: string | null;
    userId: string | null;
    apiKeyId: string | null;
    query: string;
    params: unknown;
    resultIds: string[];
    latencyMs: number;
  },
): Promise<void> {
  await db.query(
    `INSERT INTO query_log (id, organization_id, namespace_id, user_id, api_key_id,
       query, params, result_count, latency_ms, result_ids)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
    [
      row.id,
      row.organizationId,
      row.namespaceId,
      row.userId,
      row.apiKeyId,
      row.query,
      JSON.stringify(row.params),
      row.resultIds.length,
      row.latencyMs,
      row.resultIds,
    ],
  );
}

/** A logged search as feedback and sync read it; null when the id is not this organization's. */
export interface LoggedSearch {
  id: string;
  namespaceId: string | null;
  userId: string | null;
  query: string;
  resultIds: string[];
  createdAt: Date;
}

export async function findLoggedSearch(
  db: Queryable,
  organizationId: string,
  searchId: string,
): Promise<LoggedSearch | null> {
  const rows = await db.query<LoggedSearch>(
    `SELECT id, namespace_id AS "namespaceId", user_id AS "userId", query, result_ids AS "resultIds",
            created_at AS "createdAt"
       FROM query_log WHERE organization_id = $1 AND id = $2`,
    [organizationId, searchId],
  );
  return rows[0] ?? null;
}
