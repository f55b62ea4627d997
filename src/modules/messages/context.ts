/**
 * `context_for_llm`: a ready-to-paste context of a session for an LLM prompt, within a token
 * budget (docs/messages.md): the long-term and medium-term summaries, then the most recent
 * turns that still fit, oldest of them first. Tokens are estimated as characters / 4.
 */
import type { MessageRow, SessionRow } from './messages.store.ts';

/** The context's budget in (estimated) tokens. */
export const CONTEXT_TOKENS = 2000;
const CHARS_PER_TOKEN = 4;

/** `recent`: the session's latest messages, newest first. */
export function contextForLlm(summaries: Record<string, unknown> | null, recent: MessageRow[]): string {
  let budget = CONTEXT_TOKENS * CHARS_PER_TOKEN;
  const parts: string[] = [];
  const add = (heading: string, text: unknown) => {
    if (typeof text !== 'string' || !text.trim() || budget <= 0) return;
    const section = `## ${heading}\n${text.trim().slice(0, Math.max(0, budget - heading.length - 4))}`;
    parts.push(section);
    budget -= section.length + 2;
  };
  add('Conversation so far', summaries?.long_term);
  add('Recent arc', summaries?.medium_term);
  const turns: string[] = [];
  for (const m of recent) {
    const line = `${m.role}: ${m.text.replace(/\s+/g, ' ').trim()}`;
    if (line.length + 1 > budget - 20) break;
    turns.unshift(line);
    budget -= line.length + 1;
  }
  if (turns.length) parts.push(`## Latest messages\n${turns.join('\n')}`);
  return parts.join('\n\n');
}

export function agentNote(s: SessionRow): string {
  return (
    `Summaries of session ${s.session_key} covering ${s.summarized_count} of ${s.message_count} messages. ` +
    'long_term holds the whole conversation, medium_term about the last 100 messages, short_term the last 15; ' +
    'topics, key_decisions and next_steps are extracted from them.'
  );
}
