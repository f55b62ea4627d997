/**
 * The first stage of a search: BM25, the dense signals and (agentic) the graph, fused by
 * normalised score (fusion.ts), then session neighbours' context. Returns every candidate
 * with its fused score and each signal's normalised part, which the rerank stage reads.
 */
import type { Embedder } from '../../platform/models/embedder.ts';
import type { Extractor } from '../../platform/models/extractor.ts';
import type { Db } from '../../platform/db/index.ts';
import { queryTerms } from '../../platform/text-analyzer.ts';
import type { GraphReader } from '../graph/index.ts';
import { withNeighbourContext } from './context.ts';
import { nearest } from './dense.store.ts';
import { absentOf, fuse, type FusionWeights, type Retrieved } from './fusion.ts';
import { graphContribution } from './graph-signal.ts';
import type { SearchBody } from './search.schemas.ts';
import { sessionNeighbours } from './neighbours.store.ts';
import { askingMemories, askingOf, candidateFacts } from './candidates.store.ts';
import { askingWith, asksAboutAsking } from './asks-signal.ts';
import { namingMemories } from './names-signal.ts';
import { asksAboutPast, recounts } from './recounts-signal.ts';
import { asksForMany, mayNameSomeone, namedSpeakerMatches } from './speaker-signal.ts';
import { withBonus, type AbsenceHints } from './signal-tools.ts';
import { mentionMatches, timeMatches } from './time-match.ts';
import { asksWhen, queryTimes } from './time-signal.ts';
import type { Bm25Params, SearchScope } from './search.store.ts';
import { lexicalAndDense2 } from './signals.store.ts';

export interface FirstStageDeps {
  db: Db;
  /** Query embedders: the indexing embedders behind an LRU cache. */
  embedders: { primary: Embedder; secondary?: Embedder };
  weights: FusionWeights;
  bm25: Bm25Params;
  /** How many candidates each retriever hands to the fusion. */
  candidates: number;
  /** Share of a session neighbour's score a memory borrows (0 disables). */
  neighbourWeight: number;
  /** 2: the turn beyond a neighbour borrows too, the share squared (context.ts). */
  neighbourHops?: 1 | 2;
  /** Bonus of a candidate said by a speaker the query names, on the 0–1 fused scale (0 disables). */
  speakerWeight?: number;
  /**
   * The speaker bonus of a question that asks for a person's many things ("What books has Tim
   * read?", asksForMany): their answers are that person's own turns, spread over the conversation.
   * Unset: speakerWeight.
   */
  speakerManyWeight?: number;
  /**
   * Bonus of a candidate that names something (names-signal.ts) for a question asking for many
   * things, same scale (0 disables).
   */
  namesManyWeight?: number;
  /**
   * Bonus of a spoken candidate that recounts what its speaker did (recounts-signal.ts), for a
   * question about the past ("What did Melanie paint?"), same scale (0 disables).
   */
  recountsWeight?: number;
  /** Bonus of a candidate whose time falls in a time the query names, on the same scale (0 disables). */
  timeWeight?: number;
  /** What a memory that only asks loses, on the same scale (0 disables; asks-signal.ts). */
  asksWeight?: number;
  /** How many words of statement a memory that asks may have and still count as only asking. */
  asksStatedWords?: number;
  /** Recognises entities in queries for `enable_agentic_graph`. */
  extractor?: Extractor;
  graph: GraphReader;
}

export interface FirstStage {
  /** Candidate id → final first-stage score, best first. */
  ranked: [string, number][];
  /** Candidate id → normalised part of each signal (bm25, dense, dense2, graph). */
  parts: Map<string, number[]>;
  /** Cosine of the primary embedding, for similarity_score. */
  dense: Map<string, number>;
  /** Matched nodes of a search_override or agentic graph, when they replace data.nodes. */
  overrideNodes: Awaited<ReturnType<typeof graphContribution>>['nodes'];
}

/**
 * The agentic walk's weight for a query: none for a question asking for a person's many things
 * (asksForMany). Its answers are that person's own turns, which the speaker bonus lifts, while a
 * walk from the person reaches every memory that mentions them, of both speakers. On LoCoMo dev the
 * walk cost multi-hop 49.7 | 50.1 against 51.0 | 51.3 off, and 50.7 | 51.0 without it on those
 * questions (docs/graph.md).
 */
export const graphWeightOf = (query: string, weight: number) => (asksForMany(query) ? 0 : weight);

function rescaleToUnit(fused: { id: string; score: number }[]): Map<string, number> {
  const lo = fused.at(-1)?.score ?? 0;
  const span = (fused[0]?.score ?? 0) - lo;
  return new Map(fused.map((f) => [f.id, span > 0 ? (f.score - lo) / span : 1]));
}

export async function firstStage(
  deps: FirstStageDeps,
  scope: SearchScope,
  body: SearchBody,
  opts: {
    n: number;
    keep: number;
    neighbours: boolean;
    vector: (() => Promise<number[][]>) | null;
    /** Scopes known to have no speakers right now (speaker-signal.ts). */
    speakerHints?: AbsenceHints;
    /** Scopes known to have no memory ending with a question mark among their candidates (asks-signal.ts). */
    questionHints?: AbsenceHints;
  },
): Promise<FirstStage> {
  const { db } = deps;
  const { primary, secondary } = deps.embedders;
  const none = Promise.resolve<Retrieved>({ scores: new Map(), complete: true });
  // While the query embedding runs (its own thread), the lexical and secondary signals run
  // in one statement on one connection: side by side they would take the core the
  // embedding needs (2 cores here), and apart they cost a round trip more.
  const others = (async () => {
    const terms = deps.weights.bm25 > 0 ? queryTerms(body.query) : [];
    const v2 = secondary && deps.weights.dense2 > 0 ? (await secondary.embed([body.query]))[0] : null;
    return lexicalAndDense2(db, scope, {
      limit: opts.n,
      bm25: { terms, params: deps.bm25 },
      dense2: secondary && v2 ? { model: secondary.id, vector: v2 } : null,
    });
  })();
  const [{ lexical, dense2 }, dense] = await Promise.all([
    others,
    opts.vector ? opts.vector().then(([v]) => nearest(db, scope, 'embedding', primary.id, v, opts.n)) : none,
  ]);
  // After the others, not beside them: PGlite runs one statement at a time anyway, and the
  // graph signal is the optional, slower one.
  const graph = await graphContribution(
    deps.graph,
    db,
    deps.extractor,
    scope,
    body,
    opts.n,
    graphWeightOf(body.query, deps.weights.graph ?? 0),
  );
  const fused = fuse([
    { scores: lexical.scores, weight: deps.weights.bm25, absent: absentOf(lexical) },
    { scores: dense.scores, weight: deps.weights.dense, absent: absentOf(dense) },
    { scores: dense2.scores, weight: deps.weights.dense2, absent: absentOf(dense2) },
    { scores: graph.scores, weight: graph.weight, absent: 'zero' },
  ]);
  // Fused scores rescaled to 0–1 over the candidates (the order is unchanged): max-normalised
  // lists leave every candidate some score, and a neighbour's loan is a share of how far its
  // anchor stands above the weakest candidate, not of a baseline every candidate has.
  let scores = rescaleToUnit(fused);
  const hintKey = `${scope.organizationId}:${scope.userId ?? ''}:${scope.namespaceId ?? ''}`;
  // A question for a person's many things has its own weight (speakerManyWeight).
  const many = asksForMany(body.query);
  const speakerBonus = many ? (deps.speakerManyWeight ?? deps.speakerWeight ?? 0) : (deps.speakerWeight ?? 0);
  const namesWeight = many ? (deps.namesManyWeight ?? 0) : 0;
  const speakersMaybe = !opts.speakerHints?.skip(hintKey);
  const speakerWeight = speakerBonus > 0 && mayNameSomeone(body.query) && speakersMaybe ? speakerBonus : 0;
  // Only turns recount (a speaker telling what they did): a scope without speakers reads nothing for it.
  const recountsWeight =
    (deps.recountsWeight ?? 0) > 0 && speakersMaybe && asksAboutPast(body.query) ? deps.recountsWeight! : 0;
  const readContent = namesWeight > 0 || recountsWeight > 0;
  const times = (deps.timeWeight ?? 0) > 0 ? queryTimes(body.query, new Date()) : [];
  const when = (deps.timeWeight ?? 0) > 0 && asksWhen(body.query);
  const anchors = fused.slice(0, Math.max(opts.keep, 50)).map((f) => f.id);
  // Every fused candidate is looked up (speaker, time, content): a bonus may lift any of them into
  // the page. Only the fused top 100 were until 2026-11-30 (docs/retrieval.md, "Every candidate").
  const fusedIds = fused.map((f) => f.id);
  const demoteQuestions =
    (deps.asksWeight ?? 0) > 0 && !asksAboutAsking(body.query) && !opts.questionHints?.skip(hintKey);
  // Which candidates only ask is read with their facts when those are read anyway (one statement
  // less, which PGlite would run after the other), else by a statement returning only those.
  const readFacts = speakerWeight > 0 || times.length > 0 || when || readContent;
  const [neighbours, facts, askingAlone] = await Promise.all([
    opts.neighbours && scope.userId ? sessionNeighbours(db, scope, anchors) : null,
    readFacts
      ? candidateFacts(db, scope.organizationId, fusedIds, {
          mentions: times.length > 0 || when,
          content: readContent,
          asks: demoteQuestions,
        })
      : null,
    demoteQuestions && !readFacts ? askingMemories(db, scope.organizationId, fusedIds, deps.asksStatedWords) : null,
  ]);
  const askingTop = askingAlone ?? (demoteQuestions && facts ? askingOf(facts, deps.asksStatedWords) : null);
  // Loans come from the fused scores and the bonuses are added after them: a turn of the named
  // speaker, or of the named time, does not pass its bonus on to the turns beside it.
  if (neighbours) scores = withNeighbourContext(scores, neighbours, deps.neighbourWeight, deps.neighbourHops ?? 1);
  if (facts) {
    if (speakerWeight > 0 || recountsWeight > 0)
      opts.speakerHints?.saw(
        hintKey,
        [...facts.values()].some((f) => f.speaker),
      );
    const speakers = new Map([...facts].flatMap(([id, f]) => (f.speaker ? [[id, f.speaker] as const] : [])));
    scores = withBonus(scores, namedSpeakerMatches(body.query, speakers), speakerWeight);
    if (namesWeight > 0) {
      const contents = new Map([...facts].flatMap(([id, f]) => (f.content ? [[id, f.content] as const] : [])));
      scores = withBonus(scores, namingMemories(contents, speakers.values()), namesWeight);
    }
    if (recountsWeight > 0)
      scores = withBonus(
        scores,
        new Set([...facts].filter(([, f]) => f.speaker && f.content && recounts(f.content)).map(([id]) => id)),
        recountsWeight,
      );
    const inTime = new Set(
      [...facts]
        .filter(([, f]) => timeMatches(f.at, times) || f.mentions.some((name) => mentionMatches(name, times)))
        .map(([id]) => id),
    );
    scores = withBonus(scores, inTime, deps.timeWeight ?? 0);
    // Asked when: the memories that state a time (once: one in the named time has its bonus already).
    if (when) {
      const dated = [...facts].filter(([id, f]) => f.mentions.length > 0 && !inTime.has(id)).map(([id]) => id);
      scores = withBonus(scores, new Set(dated), deps.timeWeight ?? 0);
    }
  }
  // Which candidates only ask: every fused one, and the neighbours a loan may have lifted beside them.
  if (askingTop) {
    opts.questionHints?.saw(hintKey, askingTop.seen);
    scores = withBonus(
      scores,
      askingWith(askingTop.asking, neighbours ?? [], deps.asksStatedWords),
      -(deps.asksWeight ?? 0),
    );
  }
  const ranked = [...scores.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, opts.keep);
  return {
    ranked,
    parts: new Map(fused.map((f) => [f.id, f.parts])),
    dense: dense.scores,
    overrideNodes: graph.nodes,
  };
}
