/**
 * The session-summary port. Session compression depends on this interface only; adapters
 * live beside it: `summarizer.local.ts` (extractive, offline, the default) and
 * `summarizer.llm.ts` (any OpenAI-compatible chat-completions endpoint).
 *
 * A refresh runs every 15 messages and sees three windows of the session: the last ≤15 turns
 * (short_term), the last ≤100 (medium_term), and the turns not yet folded into the previous
 * long_term. long_term is hierarchical: built from the previous summary plus the new turns, so
 * a refresh costs the same at message 1,000 as at message 30.
 */

import { ModelError } from './model-error.ts';

/** One message of the session, as the summarizer sees it. */
export interface SummaryTurn {
  /** 'user' | 'assistant' | 'system' | …: used when `speaker` is absent. */
  role: string;
  content: string;
  /** Who wrote it (a name), when known: summaries attribute statements to it. */
  speaker?: string;
  createdAt?: Date;
}

/** The stored summary of a session (the spec's ConversationSummary, wire names). */
export interface ConversationSummary {
  /** The last ~15 messages. */
  short_term: string;
  /** About the last 100 messages. */
  medium_term: string;
  /** The whole session, built from earlier summaries. */
  long_term: string;
  topics: string[];
  key_decisions: string[];
  next_steps: string[];
  technical_details: string[];
  session_intent: string;
  current_state: string;
  project_context: Record<string, unknown>;
  files_accessed: Record<string, unknown>;
  /** ISO-8601 time of the refresh. */
  last_updated: string;
}

/** What one refresh reads. All turn lists are oldest first. */
export interface SummarizeInput {
  /** The last ≤15 turns (short_term). */
  recent: SummaryTurn[];
  /** The last ≤100 turns (medium_term). */
  medium: SummaryTurn[];
  /** Turns not yet folded into `previous.long_term` (all turns when previous is absent). */
  newTurns: SummaryTurn[];
  /** The summary stored before this refresh: long_term is built from it plus newTurns. */
  previous?: ConversationSummary;
  /** The session's title, if any. */
  title?: string;
  /** Time to stamp as last_updated (default now). */
  now?: Date;
}

/** Turns a session's windows (and its previous summary) into a new summary. */
export interface Summarizer {
  /** Stable id recorded with stored summaries, e.g. 'local-extractive-1' or 'llm:<model>'. */
  readonly id: string;
  summarize(input: SummarizeInput): Promise<ConversationSummary>;
}

/** Id of the local extractive summarizer; bump it when its output changes. */
export const LOCAL_SUMMARIZER_ID = 'local-extractive-1';

/** Why a summarizer failed; `retryable` tells the job runner whether to try again later. */
export type SummarizerErrorCode =
  | 'unavailable' // timeouts, connection errors, 429 and 5xx
  | 'http_error' // a non-retryable status (bad key, unknown model)
  | 'bad_response' // the model's output stayed unusable after a repair attempt
  | 'invalid_input';

/** The one error type summarizers throw, so callers can branch on `code` and `retryable`. */
export class SummarizerError extends ModelError<SummarizerErrorCode> {
  override readonly name = 'SummarizerError';
}

/** A summary with nothing in it yet, stamped `now`: what a session without messages has. */
export function emptySummary(now: Date = new Date()): ConversationSummary {
  return {
    short_term: '',
    medium_term: '',
    long_term: '',
    topics: [],
    key_decisions: [],
    next_steps: [],
    technical_details: [],
    session_intent: '',
    current_state: '',
    project_context: {},
    files_accessed: {},
    last_updated: now.toISOString(),
  };
}

/** The name a turn is attributed to: its speaker, else its role ('user', 'assistant'). */
export const speakerOf = (turn: SummaryTurn): string => turn.speaker?.trim() || turn.role;

/** The participants a stored summary lists (tolerates summaries stored by older code or other adapters). */
export function participantsOf(summary: ConversationSummary | undefined): string[] {
  const list: unknown = summary?.project_context?.participants;
  return Array.isArray(list) ? list.filter((p): p is string => typeof p === 'string') : [];
}
