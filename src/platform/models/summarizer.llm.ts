/**
 * Session summaries by any OpenAI-compatible `/v1/chat/completions` endpoint (OpenAI, vLLM,
 * Ollama, llama.cpp server…). The reply is asked for as JSON constrained by a JSON schema
 * (`response_format: json_schema`, or `json_object` for servers without structured output),
 * validated with zod. Hierarchical like the local adapter: the prompt carries the previous
 * summary and the turns since, never the whole session (summarizer.llm.prompt.ts).
 *
 * What the model cannot count is counted here: message_count and participants in
 * project_context, file mentions added to the previous counts, last_updated.
 *
 * Errors: transport failures, timeouts, 429 and 5xx throw a retryable `SummarizerError`
 * (the job runner retries with backoff; this adapter does not retry on its own). Output that
 * is still unusable after one repair request throws a non-retryable 'bad_response'.
 */
import { z } from 'zod';
import { chatJsonClient, parseJsonReply, type ChatJsonOptions } from './openai-chat.ts';
import {
  emptySummary,
  participantsOf,
  speakerOf,
  SummarizerError,
  type ConversationSummary,
  type SummarizeInput,
  type Summarizer,
} from './summarizer.ts';
import { buildMessages, summaryJsonSchema } from './summarizer.llm.prompt.ts';

/** How to reach the chat server; timeoutMs defaults to 120 s (a summary is a long generation). */
export type LlmSummarizerOptions = Omit<ChatJsonOptions, 'timeoutMs'> & { timeoutMs?: number };

const text = z
  .string()
  .nullish()
  .transform((s) => s?.trim() ?? '');
const list = (max: number) =>
  z
    .array(z.string())
    .nullish()
    .transform((items) =>
      (items ?? [])
        .map((s) => s.trim())
        .filter(Boolean)
        .slice(0, max),
    );
const scalar = z.union([z.string(), z.number(), z.boolean()]);
/** Pairs as the strict schema asks ([{key, value}]) or a plain object, which json_object replies often use. */
const pairs = z
  .union([z.array(z.object({ key: z.string(), value: scalar.nullable() })), z.record(z.string(), z.unknown())])
  .nullish()
  .transform((p) => (Array.isArray(p) ? Object.fromEntries(p.map((e) => [e.key, e.value])) : (p ?? {})));
const files = z
  .union([z.array(z.object({ path: z.string(), count: z.number() })), z.record(z.string(), z.number())])
  .nullish()
  .transform((f) => (Array.isArray(f) ? f.map((e) => [e.path, e.count] as const) : Object.entries(f ?? {})));
const replySchema = z.object({
  short_term: text,
  medium_term: text,
  long_term: z.string().trim().min(1, 'long_term must not be empty'),
  topics: list(12),
  key_decisions: list(12),
  next_steps: list(12),
  technical_details: list(16),
  session_intent: text,
  current_state: text,
  project_context: pairs,
  files_mentioned: files,
});
type Reply = z.infer<typeof replySchema>;

/** Build a summarizer for an OpenAI-compatible chat endpoint (id 'llm:<model>'). */
export function createLlmSummarizer(options: LlmSummarizerOptions): Summarizer {
  const chat = chatJsonClient(
    { ...options, timeoutMs: options.timeoutMs ?? 120_000 },
    'session_summary',
    (code, message, retryable, extra) => new SummarizerError(code, message, retryable, extra),
  );
  const name = chat.name;

  return {
    id: name,
    async summarize(input: SummarizeInput): Promise<ConversationSummary> {
      const now = input.now ?? new Date();
      if (!Array.isArray(input.recent) || !Array.isArray(input.medium) || !Array.isArray(input.newTurns))
        throw new SummarizerError('invalid_input', `${name}: recent, medium and newTurns must be lists of turns`);
      if (input.newTurns.length + input.medium.length + input.recent.length === 0)
        return input.previous ? { ...input.previous, last_updated: now.toISOString() } : emptySummary(now);
      const reply = await chat.ask(buildMessages(input), summaryJsonSchema, parseJsonReply(replySchema));
      return toSummary(reply, input, now);
    },
  };
}

/** The reply plus what is counted rather than generated. */
function toSummary(reply: Reply, input: SummarizeInput, now: Date): ConversationSummary {
  const { previous, newTurns } = input;
  const priorCount = Number(previous?.project_context?.message_count) || 0;
  const priorParticipants = participantsOf(previous);
  const turns = [...input.medium, ...newTurns];
  const filesAccessed: Record<string, number> = {};
  for (const [k, v] of Object.entries(previous?.files_accessed ?? {})) if (typeof v === 'number') filesAccessed[k] = v;
  for (const [path, count] of reply.files_mentioned)
    if (path.trim() && count > 0) filesAccessed[path.trim()] = (filesAccessed[path.trim()] ?? 0) + Math.round(count);
  return {
    short_term: reply.short_term,
    medium_term: reply.medium_term,
    long_term: reply.long_term,
    topics: reply.topics,
    key_decisions: reply.key_decisions,
    next_steps: reply.next_steps,
    technical_details: reply.technical_details,
    session_intent: reply.session_intent || previous?.session_intent || input.title?.trim() || '',
    current_state: reply.current_state,
    project_context: {
      ...previous?.project_context,
      ...reply.project_context,
      participants: [...new Set([...priorParticipants, ...turns.map(speakerOf)])],
      message_count: priorCount + newTurns.length,
      ...(input.title?.trim() ? { title: input.title.trim() } : {}),
    },
    files_accessed: filesAccessed,
    last_updated: now.toISOString(),
  };
}
