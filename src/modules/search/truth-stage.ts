/**
 * The search step that puts current facts first (current-first.ts) with what it needs from the
 * store: the candidates' lineage, the lineage of their successors (to follow a chain of
 * updates to its end) and which successors the reader may read. One statement when no
 * candidate was ever superseded or repeated.
 */
import type { Queryable } from '../../platform/db/index.ts';
import type { Embedder } from '../../platform/models/index.ts';
import type { MemoryLineage, MemoryReader, SlotExamples } from '../memories/index.ts';
import { factAnswer, type FactAnswer, type Question } from './fact-answer.ts';
import { currentFirst, successorsOf, type Ranked } from './current-first.ts';
import type { SearchBody } from './search.schemas.ts';
import { visibleMemories, type SearchScope } from './search.store.ts';

/** `as_of` as a time: a date alone means the end of that day (UTC), what was true on it. */
export function asOfDate(asOf: string | undefined): Date | null {
  if (!asOf) return null;
  return /^\d{4}-\d{2}-\d{2}$/.test(asOf) ? new Date(`${asOf}T23:59:59.999Z`) : new Date(asOf);
}

/**
 * The current answer to a question about an attribute (fact-answer.ts), started as soon as the
 * scope is known so that its lookups run beside the first stage's (another connection on
 * PostgreSQL) instead of after them; null when fact answers are off.
 */
export function startFactAnswer(
  deps: {
    memories: MemoryReader;
    examples: () => Promise<SlotExamples>;
    secondary?: Embedder | null;
    /** Whether the current statement of what a question asks about goes first. */
    answers: boolean;
  },
  db: Queryable,
  scope: SearchScope,
  question: Omit<Question, 'vector'> & { vector: (() => Promise<number[][]>) | null },
): Promise<FactAnswer | null> {
  if (!deps.answers) return Promise.resolve(null);
  return (async () => {
    const vector = question.vector ? ((await question.vector().catch(() => null))?.[0] ?? null) : null;
    return factAnswer(deps, db, scope, { ...question, vector });
  })();
}

export async function truthOf(
  deps: { memories: MemoryReader },
  db: Queryable,
  scope: SearchScope,
  ranked: Ranked,
  body: Pick<SearchBody, 'include_superseded'>,
  /**
   * What startFactAnswer found: it goes first — a statement that names no value only when it is
   * one of the search's own candidates too (a chat turn read as "partner" by its meaning alone,
   * "Lucky you to have such an awesome family!", is no answer to "What is Caroline's identity?").
   * A newer loose statement goes before it when it is on the page already (the first `page` of
   * `ranked`): it reorders what the search shows, never brings in what it did not find.
   */
  found: FactAnswer | null,
  candidates: { has(id: string): boolean },
  page: number,
) {
  const answer = found?.id && (found.valued || candidates.has(found.id)) ? found.id : null;
  const shown = new Set(ranked.slice(0, page).map(([id]) => id));
  const newer = found?.newer.find((id) => shown.has(id)) ?? null;
  const first = [newer, answer].filter((id): id is string => !!id);
  if (first.length)
    ranked = [
      ...first.map((id): [string, number] => [id, ranked[0]?.[1] ?? 1]),
      ...ranked.filter(([id]) => !first.includes(id)),
    ];
  const asOf = scope.asOf ?? null;
  const ids = ranked.map(([id]) => id);
  const lineage: Map<string, MemoryLineage> = await deps.memories.lineage(db, scope.organizationId, ids);
  const extra = new Set<string>();
  let frontier = successorsOf(ids, lineage, asOf);
  for (let round = 0; frontier.length && round < 3; round++) {
    frontier.forEach((id) => extra.add(id));
    for (const [id, l] of await deps.memories.lineage(db, scope.organizationId, frontier))
      if (!lineage.has(id)) lineage.set(id, l);
    frontier = successorsOf(frontier, lineage, asOf).filter((id) => !extra.has(id) && !ids.includes(id));
  }
  const readable = extra.size ? await visibleMemories(db, scope, [...extra]) : new Set<string>();
  const opts = { asOf, includeSuperseded: body.include_superseded !== false, readable };
  return {
    ranked: lineage.size ? currentFirst(ranked, lineage, opts) : ranked,
    lineage,
    /** The same order applied to a reranked list (its scores are the reranker's). */
    reorder<T extends { id: string; score: number }>(order: T[]): T[] {
      if (!lineage.size) return order;
      const byId = new Map(order.map((t) => [t.id, t]));
      return currentFirst(
        order.map((t) => [t.id, t.score]),
        lineage,
        { ...opts, readable: new Set() },
      ).flatMap(([id, score]) => (byId.has(id) ? [{ ...byId.get(id)!, score }] : []));
    },
  };
}
