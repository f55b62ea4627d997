import { z } from 'zod';
import { PROVIDERS } from './providers.ts';

export const MEMORY_MODES = ['off', 'search', 'store', 'both'] as const;
const memoryMode = z
  .enum(MEMORY_MODES)
  .describe(
    'off: a plain proxy call; search: the user’s relevant memories are added as context; store: the last user ' +
      'message and the reply are stored as messages of session_id; both. Default: search, and store too when ' +
      'session_id is given',
  );
const userId = z
  .string()
  .min(1)
  .max(512)
  .describe('Whose memories: your application’s user id (an end user’s own token may name only itself)');
const namespaceId = z.string().min(1).max(512).describe('The namespace searched and stored into');
const sessionId = z.string().min(1).max(256).describe('The chat session the exchange is stored in (created if new)');
const maxMemories = z.number().int().min(1).max(20).describe('Most memories added (default AI_MEMORY_MAX, 5)');

/** The body field `engram`: removed before the body is forwarded. */
export const engramOptions = z
  .strictObject({
    external_user_id: userId.optional(),
    namespace_id: namespaceId.optional(),
    session_id: sessionId.optional(),
    sessionId: sessionId.optional().describe('The same as session_id (the messages API’s name)'),
    memory: memoryMode.optional(),
    max_memories: maxMemories.optional(),
  })
  .describe('Engram’s memory for this call (docs/ai-proxy.md); never forwarded. Wins over the X-Engram-* headers');
export type EngramOptions = z.infer<typeof engramOptions>;

/** The same options as headers, for callers that cannot change the body. */
export const engramHeaders = z.looseObject({
  'x-engram-user': userId.optional(),
  'x-engram-namespace': namespaceId.optional(),
  'x-engram-session': sessionId.optional(),
  'x-engram-memory': memoryMode.optional(),
  'x-engram-max-memories': z.coerce.number().int().min(1).max(20).optional().describe('Most memories added'),
});
/** Anthropic's route also passes on the API version and beta headers the caller chose. */
export const anthropicHeaders = engramHeaders.extend({
  'anthropic-version': z.string().max(64).optional().describe('Passed on (default AI_ANTHROPIC_VERSION)'),
  'anthropic-beta': z.string().max(1000).optional().describe('Passed on'),
});
export type EngramHeaders = z.infer<typeof anthropicHeaders>;

const model = z.string().min(1).max(256);
const stream = z.boolean().describe('true: the answer streams back as server-sent events, as it arrives');
const passThrough = 'Every other field is the provider’s own and is forwarded as sent (JSON nulls are dropped)';

export const chatBody = z
  .looseObject({
    model: model.optional().describe('The model'),
    stream: stream.optional(),
    engram: engramOptions.optional(),
  })
  .describe(`An OpenAI Chat Completions request (messages, …). ${passThrough}`);
export const responsesBody = z
  .looseObject({
    model: model.optional().describe('The model'),
    stream: stream.optional(),
    engram: engramOptions.optional(),
  })
  .describe(`An OpenAI Responses request (input, instructions, …). ${passThrough}`);
export const anthropicBody = z
  .looseObject({
    model: model.optional().describe('The model'),
    stream: stream.optional(),
    engram: engramOptions.optional(),
  })
  .describe(`An Anthropic Messages request (messages, system, max_tokens, …). ${passThrough}`);
export const googleBody = z
  .looseObject({ engram: engramOptions.optional() })
  .describe(`A Gemini generateContent request (contents, systemInstruction, generationConfig, …). ${passThrough}`);
export type ProxyBody = z.infer<typeof chatBody>;

export const googleParams = z.object({
  model_id: z
    .string()
    .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/, 'a model id: letters, digits, ".", "_" and "-"')
    .describe('The Gemini model, e.g. gemini-2.0-flash'),
});
export const googleQuery = z.object({
  alt: z
    .enum(['sse', 'json'])
    .optional()
    .describe('sse: stream as server-sent events (streamGenerateContent); otherwise Google’s streamed JSON array'),
});

export const providerAnswer = z
  .looseObject({})
  .describe(
    'The provider’s answer as it sent it, with its status (an upstream error too: marked by x-engram-upstream). ' +
      'A streamed answer is text/event-stream',
  );

const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}(T.*)?$/, 'a date, YYYY-MM-DD (or an ISO date-time: its UTC day)')
  .max(40);
export const usageQuery = z.object({
  start: day.optional().describe('First day, UTC (default: 29 days before end)'),
  end: day.optional().describe('Last day, UTC, included (default: today)'),
  provider: z.enum(PROVIDERS).optional().describe('Only this provider'),
  model: model.optional().describe('Only this model (as the caller named it)'),
});
export type UsageQuery = z.infer<typeof usageQuery>;

const counts = {
  requests: z.number().int().describe('Calls forwarded (or tried: an unreachable upstream counts)'),
  errors: z.number().int().describe('Calls answered with an error status, unreachable, or broken off mid-stream'),
  input_tokens: z.number().int().describe('Input (prompt) tokens the upstream reported'),
  output_tokens: z.number().int().describe('Output (completion) tokens the upstream reported'),
};

export const usageResponse = z.object({
  start: z.string().describe('First day reported (UTC)'),
  end: z.string().describe('Last day reported (UTC)'),
  providers: z
    .record(z.enum(PROVIDERS), z.object({ configured: z.boolean() }))
    .describe('Which providers this server proxies'),
  totals: z.object(counts).describe('Sums over the rows'),
  days: z
    .array(z.object({ day: z.string(), provider: z.enum(PROVIDERS), model: z.string(), ...counts }))
    .describe('Per day, provider and model, oldest first'),
  by_api_key: z
    .array(z.object({ api_key_id: z.string().nullable().describe('null: an end user’s own token'), ...counts }))
    .describe('Per API key over the period'),
});
