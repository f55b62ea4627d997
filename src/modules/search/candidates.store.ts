/**
 * What the first stage's signals read about the fused candidates, in one statement
 * (docs/retrieval.md, "Speakers and times", "Questions state nothing"): who said each memory and
 * when it happened, the dates and words it holds, and whether it may only ask.
 */
import type { Queryable } from '../../platform/db/index.ts';
import { MAY_ONLY_ASK_SQL, onlyAsks } from './asks-signal.ts';

/**
 * A candidate's speaker (lowercased; null when unknown), its time (its `createdAt`, else when
 * stored), and the dates its content mentions: the ISO names of its graph's Date nodes ('2023',
 * '2023-06', '2023-W26', '2023-06-17'), resolved by the extractor against the memory's time.
 */
export interface CandidateFacts {
  speaker: string | null;
  at: Date;
  mentions: string[];
  /** Its content's first CONTENT_PREFIX characters, when asked for; else null. */
  content: string | null;
  /**
   * Its content when asked for (`asks`) and it ends with a question mark (MAY_ONLY_ASK_SQL), so
   * that asks-signal.ts's onlyAsks may read it; else null.
   */
  asks: string | null;
}

/**
 * How much of a candidate's content the names and recounting signals read (names-signal.ts,
 * recounts-signal.ts): a turn or a note, not a whole document.
 */
const CONTENT_PREFIX = 2000;

/**
 * SQL: a memory's speaker, lowercased: `metadata.speaker`, else `metadata.customMetadata.speaker`,
 * else a name opening the content as `Name said …` or `Name: …` (how transcripts and many imports
 * write a turn). Null when there is none.
 */
export const SPEAKER_SQL = `lower(coalesce(
  nullif(btrim(m.metadata->>'speaker'), ''),
  nullif(btrim(m.metadata->'customMetadata'->>'speaker'), ''),
  substring(m.content from '^\\s*([A-Z][[:alpha:].''-]*(?: [A-Z][[:alpha:].''-]*){0,2})(?: said\\M|:)')))`;

/** SQL: the names of a memory's Date nodes. */
const MENTIONS_SQL = `(SELECT array_agg(n.name) FROM memory_nodes mn JOIN graph_nodes n ON n.id = mn.node_id
  WHERE mn.memory_id = m.id AND n.type = 'Date')`;

/**
 * Facts of each of `ids` (ids of other organizations are not read). `mentions`: read the dates
 * the content mentions too (a join per candidate: only when the query names a time). `content`:
 * the content's beginning too (only for a question asking for many things or about the past).
 * `asks`: the content of those that may only ask (askingOf reads them) — in this statement rather
 * than one of its own over the same ids, which PGlite would run after this one.
 */
export async function candidateFacts(
  db: Queryable,
  organizationId: string,
  ids: string[],
  opts: { mentions: boolean; content?: boolean; asks?: boolean },
): Promise<Map<string, CandidateFacts>> {
  if (!ids.length) return new Map();
  const rows = await db.query<{
    id: string;
    speaker: string | null;
    at: Date;
    mentions: string[] | null;
    content: string | null;
    asks: string | null;
  }>(
    `SELECT m.id, ${SPEAKER_SQL} AS speaker, coalesce(m.occurred_at, m.created_at) AS at,
            ${opts.mentions ? MENTIONS_SQL : 'NULL::text[]'} AS mentions,
            ${opts.content ? `left(m.content, ${CONTENT_PREFIX})` : 'NULL::text'} AS content,
            ${opts.asks ? `CASE WHEN ${MAY_ONLY_ASK_SQL} THEN m.content END` : 'NULL::text'} AS asks
     FROM memories m WHERE m.organization_id = $1 AND m.id = ANY($2::text[])`,
    [organizationId, ids],
  );
  return new Map(
    rows.map((r) => [
      r.id,
      {
        speaker: r.speaker,
        at: new Date(r.at),
        mentions: r.mentions ?? [],
        content: r.content ?? null,
        asks: r.asks ?? null,
      },
    ]),
  );
}

/**
 * Which candidates only ask (asks-signal.ts), from facts read with `asks`: the few whose content
 * ends with a question mark, their sentences read by `onlyAsks`. `seen`: any ended with one (a
 * scope where none does skips the lookup for a while: signal-tools.ts absenceHints).
 */
export function askingOf(facts: Map<string, CandidateFacts>, stated = 0): { asking: Set<string>; seen: boolean } {
  const asking = new Set<string>();
  let seen = false;
  for (const [id, f] of facts) {
    if (f.asks === null) continue;
    seen = true;
    if (onlyAsks(f.asks, stated)) asking.add(id);
  }
  return { asking, seen };
}

/**
 * Which of `ids` only ask, when nothing else of them is read: the statement returns only the few
 * whose content ends with a question mark (a scope without speakers reads 250 rows' speakers and
 * times for nothing otherwise).
 */
export async function askingMemories(
  db: Queryable,
  organizationId: string,
  ids: string[],
  stated = 0,
): Promise<{ asking: Set<string>; seen: boolean }> {
  if (!ids.length) return { asking: new Set(), seen: false };
  const rows = await db.query<{ id: string; content: string }>(
    `SELECT m.id, m.content FROM memories m
     WHERE m.organization_id = $1 AND m.id = ANY($2::text[]) AND ${MAY_ONLY_ASK_SQL}`,
    [organizationId, ids],
  );
  return { asking: new Set(rows.filter((r) => onlyAsks(r.content, stated)).map((r) => r.id)), seen: rows.length > 0 };
}
