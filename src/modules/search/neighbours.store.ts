/**
 * Threads of search's conversation context (docs/retrieval.md, "Conversation context"): which
 * memory comes before and after a candidate in its session or its user's timeline.
 */
import type { Queryable } from '../../platform/db/index.ts';
import { MAY_ONLY_ASK_SQL } from './asks-signal.ts';
import type { SearchScope } from './search.store.ts';

/** A memory's previous and next memory in its thread (session, or the user's timeline). */
export interface Neighbours {
  id: string;
  prev_id: string | null;
  next_id: string | null;
  /**
   * The neighbour's content when it may only ask (asks-signal.ts), else null: read here, in the
   * row the thread lookup has already found, rather than by a statement of its own after this one.
   */
  prev_asks?: string | null;
  next_asks?: string | null;
  /** The memory beyond each neighbour (two turns away), and its content when it may only ask. */
  prev2_id?: string | null;
  next2_id?: string | null;
  prev2_asks?: string | null;
  next2_asks?: string | null;
}

/**
 * Memories of the user's timeline written within this of each other are neighbours: a
 * conversation's turns come seconds or minutes apart, two conversations hours apart. 30 minutes
 * is the inactivity that ends a session in common usage (web analytics), not a tuned constant.
 */
export const TIMELINE_GAP = '30 minutes';

/** SQL: memory `x` is in a session (its thread is the session's). */
const inSession = (x: string) => `(${x}.metadata ? 'sessionId' AND ${x}.occurred_at IS NOT NULL)`;
/** SQL: memory `x` is a chunk of an uploaded document (it has no thread: see sessionNeighbours). */
const docChunk = (x: string) => `(${x}.batch_id IS NOT NULL AND ${x}.metadata->>'chunk_index' ~ '^[0-9]{1,9}$')`;
/**
 * SQL: memory `x` is on its user's timeline: no session, and written on its own (POST /v1/memory)
 * or carrying its own time. A batch of undated items is an import of independent things (a
 * corpus, a notes dump), not a conversation: its items are nobody's neighbours.
 */
const onTimeline = (x: string) =>
  `(NOT ${inSession(x)} AND NOT ${docChunk(x)} AND (${x}.batch_id IS NULL OR ${x}.occurred_at IS NOT NULL))`;

/**
 * The previous and next memory of each candidate's thread, within the scope's organization and
 * namespace and the candidate's own user (docs/retrieval.md, "Conversation context"):
 * - a memory with `metadata.sessionId` and a time: its session's, ordered by `occurred_at`;
 * - a document's chunk: none. The chunker already keeps a section's text together, and a loan
 *   from a chunk lifts its sibling into the results beside it, a second hit on the same source
 *   in place of another source (SciFact abstracts uploaded as documents, bench:documents:
 *   nDCG@10 0.016–0.040 below the same abstracts as memories with chunk threads, whole
 *   document or per section; 0.003 below without);
 * - a memory on the user's timeline (see onTimeline): the timeline's, ordered by its time
 *   (`metadata.createdAt`, else when stored) and id, at most TIMELINE_GAP apart — memories added
 *   one by one as a conversation happens are a thread without the client naming a session.
 */
export async function sessionNeighbours(db: Queryable, scope: SearchScope, ids: string[]): Promise<Neighbours[]> {
  // Only around the reader's own memories: a memory shared with them does not share its thread.
  if (!ids.length || !scope.userId) return [];
  const params: unknown[] = [ids, scope.organizationId, scope.userId, TIMELINE_GAP];
  let ns = '';
  if (scope.namespaceId) {
    params.push(scope.namespaceId);
    ns = `AND m.namespace_id = $${params.length}`;
  }
  const alias = (cmp: '<' | '>') => (cmp === '<' ? 'p' : 'n');
  // The two nearest memories on each side, nearest first: the neighbour and the one beyond it.
  const nearestTwo = (inner: string, order: string, cmp: '<' | '>') => `LEFT JOIN LATERAL (
      SELECT (array_agg(x.id ORDER BY ${order}))[1] AS id, (array_agg(x.id ORDER BY ${order}))[2] AS id2,
             (array_agg(x.asks ORDER BY ${order}))[1] AS asks, (array_agg(x.asks ORDER BY ${order}))[2] AS asks2
      FROM (${inner}) x) ${alias(cmp)} ON true`;
  const row = `m.id, CASE WHEN ${MAY_ONLY_ASK_SQL} THEN m.content END AS asks`;
  const session = (cmp: '<' | '>', dir: 'DESC' | 'ASC') =>
    nearestTwo(
      `SELECT ${row}, m.occurred_at AS t FROM memories m
      WHERE m.organization_id = c.organization_id AND m.user_id = c.user_id ${ns} AND ${inSession('m')}
        AND m.metadata->>'sessionId' = c.metadata->>'sessionId'
        AND (m.occurred_at, m.id) ${cmp} (c.occurred_at, c.id)
      ORDER BY m.occurred_at ${dir}, m.id ${dir} LIMIT 2`,
      `x.t ${dir}, x.id ${dir}`,
      cmp,
    );
  const t = (x: string) => `coalesce(${x}.occurred_at, ${x}.created_at)`;
  const timeline = (cmp: '<' | '>', dir: 'DESC' | 'ASC') =>
    nearestTwo(
      `SELECT ${row}, ${t('m')} AS t FROM memories m
      WHERE m.organization_id = c.organization_id AND m.user_id = c.user_id AND ${onTimeline('m')}
        AND m.namespace_id IS NOT DISTINCT FROM c.namespace_id
        AND (${t('m')}, m.id) ${cmp} (${t('c')}, c.id)
        AND ${t('m')} ${cmp === '<' ? '>=' : '<='} ${t('c')} ${cmp === '<' ? '-' : '+'} $4::interval
      ORDER BY ${t('m')} ${dir}, m.id ${dir} LIMIT 2`,
      `x.t ${dir}, x.id ${dir}`,
      cmp,
    );
  const branch = (joins: string, kind: string) =>
    `SELECT c.id, p.id AS prev_id, n.id AS next_id, p.id2 AS prev2_id, n.id2 AS next2_id,
            p.asks AS prev_asks, n.asks AS next_asks, p.asks2 AS prev2_asks, n.asks2 AS next2_asks
     FROM memories c ${joins}
     WHERE c.id = ANY($1::text[]) AND c.organization_id = $2 AND c.user_id = $3 AND ${kind}`;
  return db.query(
    [
      branch(`${session('<', 'DESC')} ${session('>', 'ASC')}`, inSession('c')),
      branch(`${timeline('<', 'DESC')} ${timeline('>', 'ASC')}`, onTimeline('c')),
    ].join(' UNION ALL '),
    params,
    // Planning the four laterals cost more than running them (50 anchors: 5.9 → 2.6 ms prepared).
    { prepared: true },
  );
}
