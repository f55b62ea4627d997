/**
 * The current answer to a question about a single-valued attribute ("Where does Maya live?",
 * "What do I drive these days?"): the attribute the question asks about (the attribute words it
 * uses, else its embedding's nearest attribute examples: facts.questions.ts) and whom it asks
 * about; then the newest memory of that user stating it, not superseded at `as_of` (or now) and
 * readable in the search's scope. Search puts it first. A question about an earlier time without
 * `as_of` gets none (it is not about now), nor does one asking for many things (asksForMany).
 */
import type { Queryable } from '../../platform/db/index.ts';
import type { Embedder } from '../../platform/models/index.ts';
import {
  ASKS_PAST,
  questionSlot,
  questionSubject,
  selfNamesOf,
  type MemoryReader,
  type SlotExamples,
} from '../memories/index.ts';
import { currentOf } from './current-first.ts';
import { asksForMany } from './speaker-signal.ts';
import { visibleMemories, type SearchScope } from './search.store.ts';

export interface Question {
  query: string;
  /** The query's primary embedding and its model. */
  vector: number[] | null;
  model: string;
  externalUserId?: string;
}

/**
 * The answer, and whether its statement names a value ("I drive a Golf") or only speaks of the
 * attribute by meaning ("Parked in the usual spot again"): search trusts the second kind only
 * when it is one of the question's own candidates too (truth-stage.ts). `newer`: loose
 * statements (facts.claims.ts looseClaimsOf) newer than it, newest first, each an answer only if
 * the search put it on its page; `id` is null when only those were found.
 */
export interface FactAnswer {
  id: string | null;
  valued: boolean;
  newer: string[];
}

export async function factAnswer(
  deps: { memories: MemoryReader; examples: () => Promise<SlotExamples>; secondary?: Embedder | null },
  db: Queryable,
  scope: SearchScope,
  q: Question,
): Promise<FactAnswer | null> {
  const asOf = scope.asOf ?? null;
  if (!q.vector || !scope.userId || (!asOf && ASKS_PAST.test(q.query))) return null;
  // A question for several things or a count of them ("What events has Caroline been to?") asks
  // about no single-valued attribute, however near an attribute's examples its words are.
  if (asksForMany(q.query)) return null;
  const [examples, second] = await Promise.all([
    deps.examples().catch(() => null),
    // Embedded here, beside the first stage's own (the query embedders' cache serves a repeat).
    deps.secondary
      ? deps.secondary.embed([q.query]).then(
          ([v]) => v,
          () => null,
        )
      : null,
  ]);
  const vectors = {
    primary: { model: q.model, vector: q.vector },
    secondary: second && deps.secondary ? { model: deps.secondary.id, vector: second } : null,
  };
  const slot = examples ? questionSlot(q.query, vectors, examples) : null;
  const subject = slot ? questionSubject(q.query, selfNamesOf(q.externalUserId)) : null;
  if (!slot || !subject) return null;
  const stated = await deps.memories.statements(db, {
    organizationId: scope.organizationId,
    userId: scope.userId,
    subject,
    slot,
    asOf,
  });
  if (!stated.length) return null;
  const ids = stated.map((s) => s.memoryId);
  const [lineage, readable] = await Promise.all([
    deps.memories.lineage(db, scope.organizationId, ids),
    visibleMemories(db, scope, ids),
  ]);
  // Newest first: the first that was not replaced by then is the answer.
  const standing = stated.filter((s) => readable.has(s.memoryId) && !currentOf(s.memoryId, lineage, asOf));
  const found = standing.find((s) => !s.loose);
  const newer = standing.filter((s) => s.loose && (!found || s.at > found.at)).map((s) => s.memoryId);
  return found || newer.length ? { id: found?.memoryId ?? null, valued: !!found?.valued, newer } : null;
}
