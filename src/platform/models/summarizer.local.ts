/**
 * The default summarizer: extractive, no model download, no network, deterministic. Each
 * summary is a few of the session's own sentences, chosen for centrality and informativeness
 * with redundancy removed (summarizer.local.rank.ts), rewritten in the third person so it says
 * who (summarizer.local.voice.ts), and shown in chronological order.
 *
 * Budgets (sentences, and words as selected; a sentence that would overflow is skipped):
 *   short_term 3 / 60 words · medium_term 5 / 100 · long_term 8 / 130 · current_state 2 / 45.
 * long_term's 130 words sit just above the LoCoMo reference session summaries (112 words on
 * average): room for 6–8 chat sentences, short enough to read at a glance.
 *
 * long_term is hierarchical: its candidates are the previous long_term's sentences, each
 * standing for the share of the session it summarised (its mass in the centroid), plus the
 * new turns' sentences, which are guaranteed their share of the sentences; the session is never
 * re-read. The list fields merge the same way (summarizer.local.facets.ts). On the LoCoMo dev
 * sessions, refreshed every 15 turns, long_term scores ROUGE-1/2/L F1 36.8 / 8.5 / 21.9 against
 * the reference summaries, lead-N of the same length 29.6 / 6.2 / 17.7 (bench/summaries.ts).
 */
import type { Embedder } from './embedder.ts';
import {
  emptySummary,
  participantsOf,
  LOCAL_SUMMARIZER_ID,
  speakerOf,
  SummarizerError,
  type ConversationSummary,
  type SummarizeInput,
  type Summarizer,
  type SummaryTurn,
} from './summarizer.ts';
import { DECISION, filesMentioned, mergeItems, NEXT_STEP, TECHNICAL, topicsOf } from './summarizer.local.facets.ts';
import { selectSentences, similarity, type Budget, type SelectOptions } from './summarizer.local.rank.ts';
import { participantNames, summarySentences, turnSentences, type Sentence } from './summarizer.local.text.ts';
import { attribute, type Attribution } from './summarizer.local.voice.ts';

/** Options of {@link createLocalSummarizer}. */
export interface LocalSummarizerOptions {
  /**
   * Adds embedding similarity to lexical centrality (unit vectors). Optional: with USE lite it
   * measured level with lexical alone at about 3× the time (summarizer.local.rank.ts).
   */
  embedder?: Embedder;
  /** 'rewrite' (default: "Caroline went…") or 'prefix' ("Caroline: I went…"); see summarizer.local.voice.ts. */
  attribution?: Attribution;
}

/** Sentence and word budgets of each summary field. */
export const BUDGETS = {
  short: { sentences: 3, words: 60 },
  medium: { sentences: 5, words: 100 },
  long: { sentences: 8, words: 130 },
  state: { sentences: 2, words: 45 },
} satisfies Record<string, Budget>;

/** Build the local summarizer; its id names the embedder too, since the output depends on it. */
export function createLocalSummarizer(options: LocalSummarizerOptions = {}): Summarizer {
  return {
    id: options.embedder ? `${LOCAL_SUMMARIZER_ID}+${options.embedder.id}` : LOCAL_SUMMARIZER_ID,
    summarize: (input) => summarizeLocal(input, options),
  };
}

/** One refresh. */
export async function summarizeLocal(input: SummarizeInput, options: LocalSummarizerOptions = {}) {
  checkInput(input);
  const now = input.now ?? new Date();
  const { previous, newTurns } = input;
  const all = [...input.medium, ...input.recent, ...newTurns];
  if (all.length === 0) return previous ? { ...previous, last_updated: now.toISOString() } : emptySummary(now);

  const priorParticipants = participantsOf(previous);
  const participants = [...new Set([...priorParticipants, ...all.map(speakerOf)])];
  const names = participantNames(all);
  const otherOf = (speaker: string) =>
    participants.length === 2 ? participants.find((p) => p !== speaker) : undefined;
  const render = (s: Sentence) => attribute(s.text, s.speaker, otherOf(s.speaker), options.attribution ?? 'rewrite');

  const recentS = turnSentences(input.recent, names);
  const mediumS = turnSentences(input.medium, names);
  const newS = turnSentences(newTurns, names);
  const priorCount = Number(previous?.project_context?.message_count) || 0;
  const priorS = previous?.long_term ? summarySentences(previous.long_term, 1) : [];
  // Each earlier summary sentence stands for its share of the sentences it summarised.
  const perTurn = newTurns.length ? newS.length / newTurns.length : 1.5;
  for (const s of priorS) s.mass = Math.max(1, (priorCount * perTurn) / priorS.length);
  const longS = [...priorS, ...newS];

  const vectors = await embedAll(options.embedder, [recentS, mediumS, longS]);
  const pick = (sentences: Sentence[], budget: Budget, options: SelectOptions = {}) => {
    const sims = similarity(sentences, vectors && sentences.map((s) => vectors.get(s.text)!));
    return { sims, chosen: selectSentences(sentences, sims, budget, options) };
  };
  const text = (sentences: Sentence[], chosen: number[]) => chosen.map((i) => render(sentences[i])).join(' ');

  const short = pick(recentS, BUDGETS.short);
  const lastTurns = input.recent.length - 4;
  const state = pick(recentS, BUDGETS.state, { eligible: (i) => recentS[i].order >= lastTurns });
  const medium = pick(mediumS, BUDGETS.medium);
  // The new turns get at least their share of long_term (by mass, rounded up): an earlier
  // summary's sentences each stand for many turns and would otherwise crowd out a new subject.
  const totalMass = longS.reduce((a, s) => a + s.mass, 0);
  const slots = Math.ceil((BUDGETS.long.sentences * newS.length) / Math.max(1, totalMass));
  const long = newS.length
    ? pick(longS, BUDGETS.long, { reserve: { group: (i) => !longS[i].summary, slots } })
    : undefined;
  const longTerm = long ? text(longS, long.chosen) : (previous?.long_term ?? '');

  // Cue-matched sentences of the new turns, the most central first, then in order.
  const cued = (re: RegExp, max: number, questions = false) => {
    if (!long) return [];
    const value = (i: number) => long.sims.central[i];
    return longS
      .map((s, i) => ({ s, i }))
      .filter(({ s }) => !s.summary && re.test(s.text) && (questions || !s.question))
      .sort((a, b) => value(b.i) - value(a.i) || a.i - b.i)
      .slice(0, max)
      .sort((a, b) => a.i - b.i)
      .map(({ s }) => render(s));
  };
  const decisions = cued(DECISION, 4);
  const nextSteps = cued(NEXT_STEP, 4).filter((s) => !decisions.includes(s));

  return {
    short_term: text(recentS, short.chosen),
    medium_term: text(mediumS, medium.chosen),
    long_term: longTerm,
    topics: topicsOf(input.medium.length ? input.medium : newTurns, names, previous?.topics ?? []),
    key_decisions: mergeItems(previous?.key_decisions ?? [], decisions, 10),
    next_steps: mergeItems(previous?.next_steps ?? [], nextSteps, 8),
    technical_details: mergeItems(previous?.technical_details ?? [], cued(TECHNICAL, 5, true), 12),
    // The opening request does not change: found once, at the first refresh, then carried over.
    session_intent:
      (previous ? previous.session_intent : intentOf(newTurns, names, render)) || input.title?.trim() || '',
    current_state: text(recentS, state.chosen),
    project_context: projectContext(previous, input, participants, priorCount),
    files_accessed: mergeCounts(previous?.files_accessed ?? {}, filesMentioned(newTurns)),
    last_updated: now.toISOString(),
  } satisfies ConversationSummary;
}

/**
 * The main sentence of the first user turn that says something (a greeting alone does not),
 * or of the first such turn when no turn has the role 'user'.
 */
function intentOf(turns: SummaryTurn[], names: ReadonlySet<string>, render: (s: Sentence) => string): string {
  const users = turns.some((t) => t.role === 'user') ? turns.filter((t) => t.role === 'user') : turns;
  const content = (s: Sentence) => new Set(s.terms).size + s.specifics;
  for (const turn of users) {
    const sentences = turnSentences([turn], names).filter((s) => content(s) > 0);
    if (sentences.length === 0) continue;
    // The sentence with the most content, the first of equals.
    return render(sentences.reduce((best, s) => (content(s) > content(best) ? s : best)));
  }
  return '';
}

function projectContext(
  previous: ConversationSummary | undefined,
  input: SummarizeInput,
  participants: string[],
  priorCount: number,
): Record<string, unknown> {
  const times = [...input.newTurns, ...input.recent].flatMap((t) => (t.createdAt ? [t.createdAt.getTime()] : []));
  const ctx: Record<string, unknown> = {
    ...previous?.project_context,
    participants,
    // Counted from the folded turns, so it stays right without re-reading the session.
    message_count: priorCount + input.newTurns.length,
  };
  if (input.title?.trim()) ctx.title = input.title.trim();
  if (times.length) {
    ctx.started_at ??= new Date(Math.min(...times)).toISOString();
    ctx.last_message_at = new Date(Math.max(...times)).toISOString();
  }
  return ctx;
}

function mergeCounts(previous: Record<string, unknown>, fresh: Map<string, number>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [k, v] of Object.entries(previous)) if (typeof v === 'number') out[k] = v;
  for (const [k, v] of fresh) out[k] = (out[k] ?? 0) + v;
  return out;
}

/** Embed every distinct sentence of the windows once (the windows overlap). */
async function embedAll(embedder: Embedder | undefined, windows: Sentence[][]) {
  if (!embedder) return undefined;
  const texts = [...new Set(windows.flat().map((s) => s.text))];
  let vectors: number[][];
  try {
    vectors = texts.length ? await embedder.embed(texts) : [];
  } catch (err) {
    const retryable = (err as { retryable?: unknown }).retryable === true;
    throw new SummarizerError('unavailable', `embedder ${embedder.id} failed: ${(err as Error).message}`, retryable, {
      cause: err,
    });
  }
  return new Map(texts.map((t, i) => [t, vectors[i]]));
}

function checkInput(input: SummarizeInput): void {
  for (const key of ['recent', 'medium', 'newTurns'] as const) {
    const turns: unknown = input[key];
    if (!Array.isArray(turns) || turns.some((t: { content?: unknown }) => typeof t?.content !== 'string'))
      throw new SummarizerError('invalid_input', `${key} must be a list of turns with string content`);
  }
}
