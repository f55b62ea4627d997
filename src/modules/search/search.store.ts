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
}

/**
 * Memories of other users that `entities` (the reader as ACL entries) may read: listed on their
 * read ACL and not flagged (flagged memories are owner-only). Through the partial GIN index of
 * shared memories (migration 0008); capped, newest first.
 */
export async function sharedWith(
  db: Queryable,
  r: { organizationId: string; namespaceId: string | null; entities: string[]; ownerId: string | null },
  cap = 10_000,
): Promise<string[]> {
  const params: unknown[] = [r.organizationId, r.entities, cap];
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
  return rows.map((x) => x.id);
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
 * Okapi BM25 over our analysed terms, with document statistics (N, average length) and
 * term statistics (document frequency) taken within the searched scope, computed in one
 * statement. Chunk scores are aggregated to memories by their best chunk.
 *
 * A scope of at most `scopeFirstMax` chunks is read first and its chunks' terms matched one
 * by one, instead of leaving the planner to intersect the terms index with the scope: for a
 * user's ~1,000 chunks in a 100k store 4.3 ms instead of 6.6, the planner's bitmap of every
 * chunk holding a common query term (13,600 for "own | project | …") costing more than the
 * scope's rows. For a scope holding much of the store the index wins. Both plans are in the
 * statement; the scope's N, counted first, lets exactly one of them run (a one-time filter).
 */
export async function bm25(
  db: Queryable,
  scope: SearchScope,
  terms: string[],
  limit: number,
  p: Bm25Params,
  scopeFirstMax = SCOPE_FIRST_MAX_DOCS,
): Promise<Ranked> {
  if (!terms.length) return new Map();
  const params: unknown[] = [terms, terms.map((t) => `'${t}'`).join(' | '), p.k1, p.b, limit];
  const { join, where } = scopeWhere(scope, params);
  params.push(scopeFirstMax);
  const small = `(SELECT n FROM stats) <= $${params.length}::float8`;
  // OFFSET 0 keeps the scope's rows a subquery of their own (the planner cannot push the
  // terms match into it, so it cannot reach for the terms index).
  const hits = `SELECT c.id, c.memory_id, c.doc_len, t.lexeme, coalesce(array_length(t.positions, 1), 1) AS tf
       FROM (SELECT c.id, c.memory_id, c.doc_len, c.terms
             FROM memory_chunks c ${join} WHERE ${where} OFFSET 0) c, unnest(c.terms) AS t
       WHERE ${small} AND c.terms @@ to_tsquery('simple', $2) AND t.lexeme = ANY($1::text[])
     UNION ALL
     SELECT c.id, c.memory_id, c.doc_len, t.lexeme, coalesce(array_length(t.positions, 1), 1) AS tf
       FROM memory_chunks c ${join}, unnest(c.terms) AS t
       WHERE NOT ${small} AND ${where} AND c.terms @@ to_tsquery('simple', $2) AND t.lexeme = ANY($1::text[])`;
  const rows = await db.query<{ memory_id: string; score: number }>(
    `WITH stats AS (
       SELECT count(*)::float8 AS n, greatest(avg(c.doc_len), 1)::float8 AS avgdl
       FROM memory_chunks c ${join} WHERE ${where}
     ), hits AS (${hits}
     ), df AS (
       SELECT lexeme, count(*)::float8 AS df FROM hits GROUP BY lexeme
     ), chunk_scores AS (
       SELECT h.id, h.memory_id,
              sum(ln(1 + (s.n - df.df + 0.5) / (df.df + 0.5)) * h.tf * ($3::float8 + 1)
                  / (h.tf + $3::float8 * (1 - $4::float8 + $4::float8 * h.doc_len / s.avgdl))) AS score
       FROM hits h JOIN df USING (lexeme) CROSS JOIN stats s
       GROUP BY h.id, h.memory_id
     )
     SELECT memory_id, max(score)::float8 AS score FROM chunk_scores
     GROUP BY memory_id ORDER BY score DESC LIMIT $5::int`,
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
    resultCount: number;
    latencyMs: number;
  },
): Promise<void> {
  await db.query(
    `INSERT INTO query_log (id, organization_id, namespace_id, user_id, api_key_id,
       query, params, result_count, latency_ms)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [
      row.id,
      row.organizationId,
      row.namespaceId,
      row.userId,
      row.apiKeyId,
      row.query,
      JSON.stringify(row.params),
      row.resultCount,
      row.latencyMs,
    ],
  );
}

/** A memory's previous and next memory in its session. */
export interface Neighbours {
  id: string;
  prev_id: string | null;
  next_id: string | null;
}

/**
 * Whether the user has any memory in a session (in any namespace: a hint that errs towards
 * looking). One probe of the partial session index; a search that knows the answer is no
 * skips the neighbour lookup after its fusion.
 */
export async function hasSessions(db: Queryable, organizationId: string, userId: string): Promise<boolean> {
  const rows = await db.query<{ yes: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM memories m WHERE m.organization_id = $1 AND m.user_id = $2
       AND m.metadata ? 'sessionId' AND m.occurred_at IS NOT NULL) AS yes`,
    [organizationId, userId],
  );
  return rows[0].yes;
}

/**
 * The previous and next memory of the same session (same user, same
 * `metadata.sessionId`, ordered by `occurred_at`) for each candidate, within the scope's
 * organization and namespace. Candidates without a session have no neighbours.
 */
export async function sessionNeighbours(db: Queryable, scope: SearchScope, ids: string[]): Promise<Neighbours[]> {
  // Only around the reader's own memories: a memory shared with them does not share its session.
  if (!ids.length || !scope.userId) return [];
  const params: unknown[] = [ids, scope.organizationId, scope.userId];
  let ns = '';
  if (scope.namespaceId) {
    params.push(scope.namespaceId);
    ns = `AND m.namespace_id = $${params.length}`;
  }
  const side = (cmp: '<' | '>', dir: 'DESC' | 'ASC') => `LEFT JOIN LATERAL (
      SELECT m.id FROM memories m
      WHERE m.organization_id = c.organization_id AND m.user_id = c.user_id ${ns}
        AND m.metadata ? 'sessionId' AND m.occurred_at IS NOT NULL
        AND m.metadata->>'sessionId' = c.metadata->>'sessionId'
        AND (m.occurred_at, m.id) ${cmp} (c.occurred_at, c.id)
      ORDER BY m.occurred_at ${dir}, m.id ${dir} LIMIT 1) ${cmp === '<' ? 'p' : 'n'} ON true`;
  return db.query(
    `SELECT c.id, p.id AS prev_id, n.id AS next_id FROM memories c
     ${side('<', 'DESC')} ${side('>', 'ASC')}
     WHERE c.id = ANY($1::text[]) AND c.organization_id = $2 AND c.user_id = $3
       AND c.metadata ? 'sessionId' AND c.occurred_at IS NOT NULL`,
    params,
  );
}
