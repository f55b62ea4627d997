/**
 * A chat agent's memory through the official client, `@papr/memory`, pointed at Engram: store
 * each turn of a conversation, let the server turn the turns into memories, compress the
 * session into summaries for the next prompt, and search what the user said.
 * README.md beside this file; `cli.ts` runs it.
 */
import Papr from '@papr/memory';

export interface ChatAgentOptions {
  baseURL: string;
  apiKey: string;
  /** Whose memories these are (`external_user_id`): your app's own user id. */
  user?: string;
  /** The conversation's id; a new one per run by default. */
  sessionId?: string;
  /** Where progress goes (default: console.log). */
  log?: (line: string) => void;
  /** How long to wait for the server to process the messages. */
  timeoutMs?: number;
}

export interface ChatAgentResult {
  sessionId: string;
  stored: number;
  /** The session's long-term summary, from compress. */
  summary: string;
  question: string;
  /** The best memory search found for the question. */
  answer: string | null;
}

const CONVERSATION: { role: 'user' | 'assistant'; content: string }[] = [
  { role: 'user', content: 'I just moved to Porto and started a new job at a design studio.' },
  { role: 'assistant', content: 'Congratulations on the move! How are you finding the new job?' },
  { role: 'user', content: 'I love it. I am learning Portuguese before the summer.' },
  { role: 'assistant', content: 'Good plan. I can quiz you on vocabulary whenever you like.' },
];

/** The part of the session status this example reads (the client types it as an open object). */
interface SessionStatus {
  message_count: number;
  processing: Record<string, number>;
}

async function until<T>(what: string, timeoutMs: number, poll: () => Promise<T | null>): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await poll();
    if (value !== null) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

export async function run(options: ChatAgentOptions): Promise<ChatAgentResult> {
  const { baseURL, apiKey, user = 'ana', log = console.log, timeoutMs = 120_000 } = options;
  const sessionId = options.sessionId ?? `chat-${Date.now()}`;
  const client = new Papr({ xAPIKey: apiKey, baseURL });

  // 1. Store each turn as the conversation goes. The user's turns become memories (the server
  //    queues them); the assistant's stay in the session's history and summaries only, so a
  //    later search finds what the user said rather than the assistant's replies to it.
  for (const turn of CONVERSATION) {
    const process_messages = turn.role === 'user';
    const stored = await client.messages.store({ ...turn, sessionId, external_user_id: user, process_messages });
    log(`stored ${turn.role} message ${stored.objectId}`);
  }
  const toProcess = CONVERSATION.filter((turn) => turn.role === 'user').length;

  // 2. Wait until the background worker has processed them (usually well under a minute).
  const status = await until('the messages to be processed', timeoutMs, async () => {
    const s = (await client.messages.sessions.retrieveStatus(sessionId)) as unknown as SessionStatus;
    const done = (s.processing.completed ?? 0) + (s.processing.failed ?? 0);
    return done >= toProcess ? s : null;
  });
  log(`processed ${status.processing.completed ?? 0} of ${status.message_count} messages into memories`);

  // 3. Compress the session: summaries to put in the next prompt instead of the whole history.
  const compressed = await client.messages.sessions.compress(sessionId);
  const summary = compressed.summaries?.long_term ?? '';
  log(`summary: ${summary}`);

  // 4. Later, maybe in another session: what do we know about the user?
  const question = 'Where does the user live now?';
  const found = await client.memory.search({ query: question, external_user_id: user, max_memories: 5 });
  const answer = found.data?.memories?.[0]?.content ?? null;
  log(`search "${question}": ${answer ?? '(nothing found)'}`);

  return { sessionId, stored: CONVERSATION.length, summary, question, answer };
}
