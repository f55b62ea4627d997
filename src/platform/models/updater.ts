/**
 * The update decider port (MEMORY_UPDATE_DECIDER=llm; docs/truth.md): given a new memory and a
 * few older memories of the same user, which of them the new one replaces (`update`), declares
 * no longer true (`delete`) or leaves alone (`none`), and which one it merely repeats. An
 * option beside the offline detection, never instead of it: the memories module adds what a
 * decider says to what it finds itself, and carries on without it when it fails.
 */
import { ModelError } from './model-error.ts';

/** At most this many older memories are shown to a decider: the prompt stays short and cheap. */
export const MAX_UPDATE_CANDIDATES = 5;

/** An older memory of the same user, with the time its facts became true. */
export interface UpdateCandidate {
  id: string;
  content: string;
  at: Date;
}

export interface UpdateQuestion {
  /** The new memory and its time. */
  content: string;
  at: Date;
  /** Its nearest older memories (at most MAX_UPDATE_CANDIDATES). */
  candidates: UpdateCandidate[];
}

/** update: the new memory replaces it; delete: the new one says it is no longer true; none: both stand. */
export type UpdateAction = 'update' | 'delete' | 'none';

export interface UpdateDecision {
  /** One per candidate, in the candidates' order (a candidate the decider left out is `none`). */
  actions: { id: string; action: UpdateAction }[];
  /** The candidate the new memory merely repeats, if any. */
  duplicateOf: string | null;
}

export interface UpdateDecider {
  /** e.g. 'llm:<model>'. */
  readonly id: string;
  decide(question: UpdateQuestion): Promise<UpdateDecision>;
}

export type UpdaterErrorCode = 'unavailable' | 'http_error' | 'bad_response';

/** The one error type deciders throw (the caller logs it and goes on offline). */
export class UpdaterError extends ModelError<UpdaterErrorCode> {
  override readonly name = 'UpdaterError';
}
