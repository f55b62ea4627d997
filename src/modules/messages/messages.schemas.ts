import { z } from 'zod';
import { addMemoryBody } from '../memories/index.ts';

/** A message part as the client sends it: `{type: 'text', text}`; other types keep their `text` if any. */
const contentPart = z
  .object({ type: z.string().min(1).max(64), text: z.string().max(100_000).optional() })
  .passthrough();
const content = z
  .union([z.string(), z.array(contentPart).min(1).max(200)])
  .describe('The message: a string, or a list of parts `{type, text}` (their texts are joined)');
const sessionKey = z.string().min(1).max(256);
const role = z.enum(['user', 'assistant']).describe('Who wrote it: user or assistant');

/**
 * POST /v1/messages. The memory fields (metadata, context, policies, the user and namespace)
 * are the memory write's own, checked the same way; `sessionId` (the client's name) and
 * `session_id` (the spec's) are both accepted.
 */
export const storeMessageBody = addMemoryBody
  .pick({
    context: true,
    metadata: true,
    external_user_id: true,
    user_id: true,
    namespace_id: true,
    organization_id: true,
    policy: true,
    memory_policy: true,
    graph_generation: true,
    relationships_json: true,
  })
  .extend({
    content,
    role,
    sessionId: sessionKey.optional().describe('The session: created by its first message (client name)'),
    session_id: sessionKey.optional().describe('The session (the spec’s name for sessionId)'),
    title: z.string().max(500).optional().describe('The session’s title (set or changed by any message)'),
    process_messages: z
      .boolean()
      .optional()
      .describe('true (default): the message becomes a memory in the background; false: stored only'),
  });
export type StoreMessageBody = z.infer<typeof storeMessageBody>;

export const sessionParams = z.object({ session_id: sessionKey });

export const historyQuery = z.object({
  limit: z.coerce.number().int().min(1).max(1000).default(50).describe('Messages per page (newest first)'),
  skip: z.coerce.number().int().min(0).max(1_000_000).default(0),
});

export const updateSessionBody = z
  .object({
    title: z.string().max(500).optional(),
    metadata: z.record(z.string(), z.unknown()).optional().describe('Merged into the session’s metadata'),
  })
  .strict();

export const processingStatus = z
  .enum(['unprocessed', 'queued', 'analyzing', 'completed', 'failed'])
  .describe(
    'unprocessed: stored with process_messages false; queued: its memory is being made; analyzing: the memory ' +
      'exists and is searchable, its graph is being built; completed; failed',
  );

export const messageResponse = z.object({
  objectId: z.string(),
  sessionId: z.string(),
  role,
  content,
  createdAt: z.string(),
  processing_status: processingStatus,
  memoryId: z.string().nullable().optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
});

export const conversationSummary = z.object({
  short_term: z.string(),
  medium_term: z.string(),
  long_term: z.string(),
  topics: z.array(z.string()),
  key_decisions: z.array(z.string()),
  next_steps: z.array(z.string()),
  technical_details: z.array(z.string()),
  session_intent: z.string(),
  current_state: z.string(),
  project_context: z.record(z.string(), z.unknown()),
  files_accessed: z.record(z.string(), z.unknown()),
  last_updated: z.string(),
});

export const historyResponse = z.object({
  sessionId: z.string(),
  title: z.string().nullable(),
  messages: z.array(messageResponse),
  total_count: z.number().int(),
  summaries: conversationSummary.nullable(),
  context_for_llm: z.string(),
});

export const compressResponse = z.object({
  session_id: z.string(),
  summaries: conversationSummary,
  from_cache: z.boolean(),
  ai_agent_note: z.string(),
  message_count: z.number().int(),
});

export const statusResponse = z.object({
  session_id: z.string(),
  title: z.string().nullable(),
  message_count: z.number().int(),
  processing: z.record(processingStatus, z.number().int()),
  errors: z.array(z.object({ objectId: z.string(), error: z.string() })),
  summarized_count: z.number().int(),
  last_summary_at: z.string().nullable(),
  summary_error: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});

export const processResponse = z.object({
  session_id: z.string(),
  queued: z.number().int().describe('Messages queued now to become memories'),
  message_ids: z.array(z.string()),
});

export const updateSessionResponse = z.object({
  session_id: z.string(),
  title: z.string().nullable(),
  metadata: z.record(z.string(), z.unknown()),
  updated_at: z.string(),
});
