/**
 * The update decider by any OpenAI-compatible `/v1/chat/completions` endpoint
 * (MEMORY_UPDATE_DECIDER=llm; docs/truth.md): one call per new memory, temperature 0, the reply
 * constrained by a JSON schema whose ids are the candidates' own (enums), checked with zod and
 * repaired once by the shared chat client (openai-chat.ts). No candidates, no call.
 *
 * Errors are `UpdaterError`s; the caller treats every one alike (offline detection only).
 */
import { z } from 'zod';
import { chatJsonClient, parseJsonReply, type ChatJsonOptions, type ChatMessage } from './openai-chat.ts';
import {
  MAX_UPDATE_CANDIDATES,
  UpdaterError,
  type UpdateAction,
  type UpdateDecider,
  type UpdateDecision,
  type UpdateQuestion,
} from './updater.ts';

/** How to reach the chat server; timeoutMs defaults to 30 s (a write waits for it). */
export type LlmUpdaterOptions = Omit<ChatJsonOptions, 'timeoutMs'> & { timeoutMs?: number };

const ACTIONS = ['update', 'delete', 'none'] as const;

const SYSTEM = [
  "You keep a user's memory store true. A new memory of the user was just written; you are shown it and",
  'some older memories of the same user. For each older memory decide:',
  '- "update": the new memory gives a newer value of the same fact and replaces it',
  '  (moved to another city, a new employer, a new favourite, a changed plan).',
  '- "delete": the new memory says the older one is no longer true, without a new value',
  '  ("I quit my job", "we broke up", "I no longer eat meat").',
  '- "none": both can be true together, or they are about different things or different people.',
  '  This is the answer whenever you are not sure.',
  'An older memory whose time is later than the new memory\'s is never "update" or "delete".',
  '"duplicate_of" is the id of an older memory the new one merely repeats (the same information,',
  'nothing changed), else null.',
  'Reply with only a JSON object: {"decisions": [{"id": "...", "action": "update" | "delete" | "none"}, ...],',
  '"duplicate_of": "..." | null}, one decision per older memory, ids exactly as given.',
].join('\n');

function messages(q: UpdateQuestion): ChatMessage[] {
  const memory = (content: string, at: Date) => ({ time: at.toISOString(), content });
  const user = {
    new_memory: memory(q.content, q.at),
    older_memories: q.candidates.map((c) => ({ id: c.id, ...memory(c.content, c.at) })),
  };
  return [
    { role: 'system', content: SYSTEM },
    { role: 'user', content: JSON.stringify(user, null, 1) },
  ];
}

/** The reply's JSON schema, ids enumerated; written for OpenAI's strict mode (all keys required, no extras). */
function replyJsonSchema(ids: string[]): object {
  return {
    type: 'object',
    additionalProperties: false,
    required: ['decisions', 'duplicate_of'],
    properties: {
      decisions: {
        type: 'array',
        items: {
          type: 'object',
          additionalProperties: false,
          required: ['id', 'action'],
          properties: { id: { type: 'string', enum: ids }, action: { type: 'string', enum: [...ACTIONS] } },
        },
      },
      duplicate_of: { anyOf: [{ type: 'string', enum: ids }, { type: 'null' }] },
    },
  };
}

/** The reply as the schema asks, or decisions as a plain {id: action} object (json_object replies often use one). */
function replySchema(ids: [string, ...string[]]) {
  const id = z.enum(ids);
  const action = z.enum(ACTIONS);
  return z.object({
    decisions: z.union([
      z.array(z.object({ id, action })),
      z.partialRecord(id, action).transform((r) => Object.entries(r).map(([k, a]) => ({ id: k, action: a! }))),
    ]),
    duplicate_of: id.nullish().transform((d) => d ?? null),
  });
}

/** Build a decider for an OpenAI-compatible chat endpoint (id 'llm:<model>'). */
export function createLlmUpdater(options: LlmUpdaterOptions): UpdateDecider {
  const chat = chatJsonClient(
    { ...options, timeoutMs: options.timeoutMs ?? 30_000, temperature: 0 },
    'memory_update',
    (code, message, retryable, extra) => new UpdaterError(code, message, retryable, extra),
  );
  return {
    id: chat.name,
    async decide(q: UpdateQuestion): Promise<UpdateDecision> {
      const candidates = q.candidates.slice(0, MAX_UPDATE_CANDIDATES);
      if (!candidates.length) return { actions: [], duplicateOf: null };
      const ids = candidates.map((c) => c.id) as [string, ...string[]];
      const reply = await chat.ask(
        messages({ ...q, candidates }),
        replyJsonSchema(ids),
        parseJsonReply(replySchema(ids)),
      );
      // The first decision about an id counts; a candidate left out stays as it is.
      const said = new Map<string, UpdateAction>();
      for (const d of reply.decisions) if (!said.has(d.id)) said.set(d.id, d.action);
      return {
        actions: ids.map((id) => ({ id, action: said.get(id) ?? 'none' })),
        duplicateOf: reply.duplicate_of,
      };
    },
  };
}
