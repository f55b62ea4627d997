/**
 * What the LLM summarizer sends: rules for each field, the previous summary, and the turns.
 * The three windows (last 15, last ~100, new since the previous summary) all end at the latest
 * message, so they are usually sent as one numbered transcript with the windows given as
 * ranges, which costs each message once instead of up to three times.
 */
import type { ChatMessage } from './openai-chat.ts';
import { speakerOf, type SummarizeInput, type SummaryTurn } from './summarizer.ts';

/** Longer messages are cut (with '…') so one pasted log cannot fill the context window. */
export const MAX_MESSAGE_CHARS = 2000;

const object = (props: Record<string, object>) => ({
  type: 'object',
  additionalProperties: false,
  required: Object.keys(props),
  properties: props,
});
const strings = { type: 'array', items: { type: 'string' } };

/** The JSON schema of the reply, written for OpenAI's strict mode (all keys required, no extras). */
export const summaryJsonSchema = object({
  short_term: { type: 'string' },
  medium_term: { type: 'string' },
  long_term: { type: 'string' },
  topics: strings,
  key_decisions: strings,
  next_steps: strings,
  technical_details: strings,
  session_intent: { type: 'string' },
  current_state: { type: 'string' },
  project_context: {
    type: 'array',
    items: object({ key: { type: 'string' }, value: { type: ['string', 'number', 'boolean'] } }),
  },
  files_mentioned: { type: 'array', items: object({ path: { type: 'string' }, count: { type: 'integer' } }) },
});

const SYSTEM = [
  'You maintain the running summary of a conversation session for a memory service.',
  'Reply with only a JSON object with these fields:',
  '- short_term: 2-3 sentences on the short-term window (the last messages).',
  '- medium_term: 4-5 sentences on the medium-term window.',
  '- long_term: 6-8 sentences on the whole session. Build it from the previous long_term plus the new ' +
    'messages: keep earlier key facts (who, what, names, dates, numbers, decisions) unless the new messages ' +
    'change them, and add what is new. Never just describe the new messages alone.',
  '- topics: up to 10 short noun phrases for what the session is about (earlier topics included).',
  '- key_decisions: decisions made in the session, one sentence each; keep earlier ones unless reversed.',
  '- next_steps: open action items and plans, one sentence each; drop those the messages show as done.',
  '- technical_details: code, files, commands, versions, settings, errors that matter, one item each.',
  '- session_intent: one sentence on what the user wants from this session.',
  '- current_state: 1-2 sentences on where things stand at the last message.',
  '- project_context: a list of {key, value} facts about the project or setting (repository, language, ' +
    'framework, environment, people and their roles); empty if none.',
  '- files_mentioned: the file paths mentioned in the NEW messages only, each with how many times.',
  'Write in the third person and name people by the speaker names given ("Caroline went…", "The user ' +
    'asked…"), plain text without Markdown. Use only what the messages and the previous summary say.',
].join('\n');

const clip = (s: string) => (s.length > MAX_MESSAGE_CHARS ? `${s.slice(0, MAX_MESSAGE_CHARS)}…` : s);

function line(turn: SummaryTurn, n: number): string {
  const who = turn.speaker?.trim() ? `${turn.speaker.trim()} (${turn.role})` : turn.role;
  const when = turn.createdAt ? ` [${turn.createdAt.toISOString().slice(0, 16).replace('T', ' ')}]` : '';
  return `${n}.${when} ${who}: ${clip(turn.content)}`;
}

/** Whether `part` is the tail of `whole` (same speakers and contents). */
function isSuffix(part: SummaryTurn[], whole: SummaryTurn[]): boolean {
  if (part.length > whole.length) return false;
  const offset = whole.length - part.length;
  return part.every((t, i) => t.content === whole[offset + i].content && speakerOf(t) === speakerOf(whole[offset + i]));
}

/** The transcript section(s) of the prompt. */
function transcript(input: SummarizeInput): string {
  const { recent, medium, newTurns } = input;
  const all = newTurns.length > medium.length ? newTurns : medium;
  if (isSuffix(recent, all) && isSuffix(medium, all) && isSuffix(newTurns, all)) {
    const n = all.length;
    const range = (k: number) => (k ? `messages ${n - k + 1}-${n}` : 'none');
    return [
      `Messages (oldest first):\n${all.map((t, i) => line(t, i + 1)).join('\n')}`,
      `Short-term window: ${range(recent.length)}. Medium-term window: ${range(medium.length)}. ` +
        `New since the previous summary (fold these into long_term): ${range(newTurns.length)}.`,
    ].join('\n\n');
  }
  const section = (title: string, turns: SummaryTurn[]) =>
    `${title}:\n${turns.map((t, i) => line(t, i + 1)).join('\n') || '(none)'}`;
  return [
    section('New messages since the previous summary (fold these into long_term)', newTurns),
    section('Medium-term window (the last messages, oldest first)', medium),
    section('Short-term window (the last messages, oldest first)', recent),
  ].join('\n\n');
}

/** System rules, then the title, the previous summary and the transcript. */
export function buildMessages(input: SummarizeInput): ChatMessage[] {
  const p = input.previous;
  const bullets = (title: string, items: string[] | undefined) =>
    items?.length ? `${title}:\n${items.map((i) => `- ${i}`).join('\n')}` : '';
  const previous = p
    ? [
        'Previous summary (covers the session before the new messages):',
        `long_term: ${p.long_term || '(empty)'}`,
        p.session_intent ? `session_intent: ${p.session_intent}` : '',
        bullets('topics', p.topics),
        bullets('key_decisions', p.key_decisions),
        bullets('next_steps', p.next_steps),
        bullets('technical_details', p.technical_details),
      ]
        .filter(Boolean)
        .join('\n')
    : 'There is no previous summary: the messages below are the whole session so far.';
  const user = [input.title?.trim() ? `Session title: ${input.title.trim()}` : '', previous, transcript(input)];
  return [
    { role: 'system', content: SYSTEM },
    { role: 'user', content: user.filter(Boolean).join('\n\n') },
  ];
}
