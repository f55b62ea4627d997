/**
 * Refreshing a session's hierarchical summaries (spec §3: every 15 messages). The long-term
 * summary is built from the previous one plus the messages since, never by re-reading the
 * whole session: a refresh reads at most the last MEDIUM_WINDOW messages and the new ones.
 */
import type { Db } from '../../platform/db/index.ts';
import type { Publish } from '../../platform/events/index.ts';
import type { ConversationSummary, Summarizer, SummaryTurn } from '../../platform/models/summarizer.ts';
import { SESSION_SUMMARIZED } from './session-events.ts';
import { messageRange, saveSummaries, saveSummaryError, sessionById, type MessageRow } from './messages.store.ts';

/** The short-term summary covers the last 15 messages, the medium-term about the last 100. */
export const SHORT_WINDOW = 15;
export const MEDIUM_WINDOW = 100;
/**
 * New messages folded into the long-term summary per refresh (a backlog is folded over
 * several): bounds a refresh's time (~0.4 s locally for 400) and an LLM prompt's size.
 */
const MAX_NEW = 200;

const turn = (m: MessageRow): SummaryTurn => ({
  role: m.role,
  content: m.text,
  speaker: typeof m.metadata.speaker === 'string' ? m.metadata.speaker : undefined,
  createdAt: m.created_at,
});

/**
 * Summarise session `sessionId` up to its current last message and store the result; the
 * session as stored afterwards (null if it is gone). A summarizer failure is recorded on the
 * session (status shows it) and rethrown, so a job retries it. Either is recorded with an event
 * (the session's status streams).
 */
export async function refreshSummaries(db: Db, summarizer: Summarizer, publish: Publish, sessionId: string) {
  const s = await sessionById(db, sessionId);
  if (!s || s.message_count === 0) return s;
  const event = { kind: SESSION_SUMMARIZED, organizationId: s.organization_id, sessionId: s.id };
  const previous = (s.summaries as ConversationSummary | null) ?? undefined;
  const upTo = Math.min(s.message_count, s.summarized_count + MAX_NEW);
  if (previous && upTo <= s.summarized_count) return s;
  const from = Math.min(s.summarized_count, Math.max(0, upTo - MEDIUM_WINDOW));
  const rows = await messageRange(db, s.id, from, upTo);
  const turns = rows.map(turn);
  const medium = turns.slice(-MEDIUM_WINDOW);
  try {
    const summary = await summarizer.summarize({
      recent: medium.slice(-SHORT_WINDOW),
      medium,
      newTurns: rows.filter((m) => m.seq > s.summarized_count).map(turn),
      previous,
      title: s.title ?? undefined,
    });
    await db.transaction(async (tx) => {
      if (await saveSummaries(tx, s.id, summary, upTo)) await publish(tx, event);
    });
  } catch (err) {
    await db.transaction(async (tx) => {
      await saveSummaryError(tx, s.id, err instanceof Error ? err.message : String(err));
      await publish(tx, event);
    });
    throw err;
  }
  return sessionById(db, s.id);
}
