import { z } from 'zod';
import { deletionReceipt } from '../../platform/http/schemas.ts';
import { graphGenerationWire, linkToWire, relationshipsJsonWire, relationshipWire } from '../graph/index.ts';

import {
  aclConfig,
  dedupeMode,
  memoryAddPolicy,
  memoryPolicy,
  risk,
  supersedeMode,
  transformEmbeddingPolicy,
} from './write-policy.schemas.ts';

export { aclConfig, memoryAddPolicy, memoryPolicy, transformEmbeddingPolicy };

const str = (max = 512) => z.string().max(max);
const memoryType = z.enum(['text', 'code_snippet', 'document']);

export const contextItem = z.object({
  content: z.string().max(20000).describe('What was said in this turn (at most 20000 characters)'),
  role: z.enum(['user', 'assistant']).describe('Who said it: user or assistant'),
});

const customValue = z.union([z.string(), z.number(), z.boolean(), z.array(z.string())]);

/** Open metadata: defined keys are checked, any other key is kept and filterable. */
export const memoryMetadata = z.looseObject({
  role: z.enum(['user', 'assistant']).optional().describe('Speaker of the content: user or assistant'),
  category: z
    .string()
    .max(64)
    .optional()
    .describe(
      'preference, task, goal, fact, context, skills or learning; facts is an alias, stored and filtered as fact',
    ),
  createdAt: z
    .string()
    .max(64)
    .optional()
    .describe(
      'ISO 8601: when the remembered thing happened; with sessionId it places the memory in its session for search',
    ),
  topics: z.array(str()).optional().describe('Topic labels'),
  sessionId: str()
    .optional()
    .describe(
      'Conversation session; a memory with sessionId and createdAt lends part of its search score to the previous ' +
        'and next memory of its session',
    ),
  conversationId: str().optional().describe('Conversation the memory came from (read back as conversation_id)'),
  sourceType: str().optional().describe('Kind of source the memory came from (read back as source_type)'),
  customMetadata: z
    .record(z.string(), customValue)
    .optional()
    .describe('Your own keys; values are strings, numbers, booleans or string arrays (no nested objects)'),
});

/** The memory item (spec 2.2, client AddMemory), including deprecated fields mapped at the edge. */
export const addMemoryBody = z.object({
  content: z
    .string()
    .min(1, 'content must not be empty')
    .describe(
      'The text to remember, at most MAX_CONTENT_BYTES bytes (15000 by default; more is a 422); split into chunks ' +
        'on sentence boundaries',
    ),
  type: memoryType.default('text').describe('Kind of content: text (default), code_snippet or document'),
  context: z
    .array(contextItem)
    .max(200)
    .optional()
    .describe('The conversation the memory came from (at most 200 turns)'),
  metadata: memoryMetadata
    .optional()
    .describe(
      'Open metadata: the keys below are checked, any other key is kept and can be filtered on in search. ' +
        'Deprecated keys acl, consent, risk, external_user_id, namespace_id and user_id are read as the top-level ' +
        'fields',
    ),
  external_user_id: str()
    .min(1)
    .optional()
    .describe(
      "Your application's id of the user the memory belongs to; the user is created on first sight. Default: the " +
        "credential's own user",
    ),
  namespace_id: str()
    .optional()
    .describe(
      'Namespace to store the memory in (it must exist and be active). A namespace key always writes into its own ' +
        'namespace; naming another is a 403',
    ),
  policy: memoryAddPolicy.optional(),
  memory_policy: memoryPolicy.optional(),
  link_to: linkToWire.optional(),
  graph_generation: graphGenerationWire.optional(),
  relationships_json: relationshipsJsonWire.optional(),
  relationships: z.array(relationshipWire).max(200).optional().describe('Deprecated: memory_policy.relationships'),
  link_to_previous_memory: z
    .boolean()
    .optional()
    .describe('Deprecated: memory_policy.link_to_previous_memory (or link_to "$previous")'),
  link_to_related_memories: z
    .union([z.boolean(), z.number().int().min(0).max(20)])
    .optional()
    .describe('Deprecated: memory_policy.link_to_related_memories'),
  user_id: str()
    .optional()
    .describe(
      'Deprecated: internal user id; use external_user_id. Wins over external_user_id; naming two different users ' +
        'is a 422',
    ),
  organization_id: str()
    .optional()
    .describe('Deprecated: the organization is the credential’s; naming another one is a 422'),
  dedupe: dedupeMode.optional(),
  supersede: supersedeMode.optional(),
  supersedes: z
    .array(str())
    .max(50)
    .optional()
    .describe(
      'Engram extension: ids of older memories of the same user this one replaces; they keep their content and get ' +
        'valid_to and superseded_by (docs/truth.md). Another user’s memory is a 422',
    ),
});
export type AddMemoryBody = z.infer<typeof addMemoryBody>;

const webhookUrl = z
  .string()
  .max(2048)
  .optional()
  .describe(
    'Called once when background processing of the memory (of a batch: of every memory in it) has finished; http or ' +
      'https, public addresses only (docs/webhooks.md)',
  );
const webhookSecret = z
  .string()
  .max(512)
  .optional()
  .describe('Key of the X-Webhook-Signature HMAC-SHA256 of each delivery; also sent as X-Webhook-Secret');
const enableHolographic = z
  .stringbool()
  .optional()
  .describe('Deprecated: policy.transform_embedding.mode (true means auto, false none)');
const frequencySchemaId = str().optional().describe('Deprecated: policy.transform_embedding.domain_id');

export const addMemoryQuery = z.object({
  format: z
    .enum(['json', 'omo'])
    .optional()
    .describe(
      'omo: the body is one Open Memory Object (OMO v1), mapped as POST /v1/omo/import maps an object (docs/omo.md); ' +
        'json (default): the body is the memory item below',
    ),
  skip_background_processing: z
    .stringbool()
    .optional()
    .describe('true: stored as completed at once, without the background processing job. Default false'),
  webhook_url: webhookUrl,
  webhook_secret: webhookSecret,
  enable_holographic: enableHolographic,
  frequency_schema_id: frequencySchemaId,
});

export const addMemoryItem = z.object({
  memoryId: z.string().describe('Id of the stored memory'),
  objectId: z.string().describe('The same id (client alias of memoryId)'),
  createdAt: z.string().describe('ISO 8601 time the memory was stored'),
  memoryChunkIds: z.array(z.string()).describe('Ids of the chunks the content was split into'),
  duplicate: z
    .boolean()
    .optional()
    .describe('Engram extension: true when nothing was stored because the memory already was; memoryId is its id'),
  duplicate_of: z
    .string()
    .optional()
    .describe('Engram extension: the older memory this one nearly repeats (search shows one of them)'),
  supersedes: z.array(z.string()).optional().describe('Engram extension: older memories this one superseded'),
});

/** Fields of the common response envelope (client contract). */
const code = z.number().int().describe('The HTTP status code');
const message = z.string().describe('What was done, in words');

export const addMemoryResponse = z.object({
  code,
  status: z.string().describe('success (errors answer the error envelope)'),
  data: z.array(addMemoryItem).nullable().describe('The stored memory (one item)'),
  error: z.string().nullable().optional().describe('null on success'),
  details: z.unknown().optional().describe('Not set on success'),
});

/** Batch body: items are validated one by one, so one bad item does not sink the batch. */
export const batchBody = z.object({
  memories: z
    .array(z.unknown())
    .min(1)
    .max(1000)
    .describe(
      'AddMemory items (see POST /v1/memory), 1 to 1000; each is validated on its own and an invalid one is ' +
        'reported in errors',
    ),
  batch_size: z
    .number()
    .int()
    .min(1)
    .max(100)
    .optional()
    .describe('How many items are embedded and committed together (1-100, default 10)'),
  external_user_id: str().min(1).optional().describe('Default external_user_id of the items that do not set their own'),
  namespace_id: str().optional().describe('Default namespace_id of the items that do not set their own'),
  policy: memoryAddPolicy.optional(),
  memory_policy: memoryPolicy.optional(),
  link_to: linkToWire.optional().describe('Default link_to of the items that set none'),
  graph_generation: graphGenerationWire.optional().describe('Deprecated: default graph_generation of the items'),
  user_id: str().optional().describe('Deprecated: default user_id (internal user id) of the items that set none'),
  organization_id: str()
    .optional()
    .describe('Deprecated: the organization is the credential’s; naming another one is a 422'),
  webhook_url: webhookUrl.describe(
    'Called once when every memory of the batch has finished processing (the query parameter is accepted too); http ' +
      'or https, public addresses only',
  ),
  webhook_secret: webhookSecret,
  dedupe: dedupeMode.optional().describe('Default dedupe of the items that set none (docs/truth.md)'),
  supersede: supersedeMode.optional().describe('Default supersede of the items that set none (docs/truth.md)'),
});

export const batchResponse = z.object({
  code: z.number().int().describe('The HTTP status code: 200 all stored, 207 some, 422 none'),
  status: z.enum(['success', 'partial', 'error']).describe('success (all stored), partial or error (none stored)'),
  message,
  error: z.string().nullable().describe('How many memories failed; null when all succeeded'),
  details: z
    .unknown()
    .nullable()
    .describe(
      'null on writes (the failures are in errors); on DELETE /v1/memory/all: {sessions_deleted, messages_deleted}',
    ),
  batch_id: z
    .string()
    .nullable()
    .describe('For GET /v1/memory/batch/status/{batch_id}; null when nothing was stored (and on deletes)'),
  successful: z.array(addMemoryResponse).describe('One result per stored (or deleted) memory, in item order'),
  errors: z
    .array(
      z.object({
        index: z.number().int().describe('Position of the item in memories (0-based)'),
        error: z.string().describe('Why the item failed'),
        code: z.number().int().optional().describe('HTTP status the item alone would have had'),
        status: z.string().optional().describe('error'),
        details: z.unknown().optional().describe('Validation issues or other details of the failure'),
      }),
    )
    .describe('One entry per failed item, in item order'),
  total_processed: z.number().int().describe('Items received (memories deleted, on deletes)'),
  total_successful: z.number().int().describe('Items stored (memories deleted, on deletes)'),
  total_failed: z.number().int().describe('Items that failed'),
  total_content_size: z.number().int().describe('Bytes of content stored (deleted, on deletes)'),
  total_storage_size: z
    .number()
    .int()
    .describe('Bytes stored: content, JSON fields, chunk text and vectors (0 on deletes)'),
});

export const memoryIdParams = z.object({ memory_id: z.string().min(1).max(200).describe('Memory id (memoryId)') });

export const updateMemoryBody = addMemoryBody
  .partial()
  .omit({ user_id: true, external_user_id: true })
  // Without its default: an update that does not name the type keeps the stored one.
  .extend({ type: memoryType.optional().describe('New kind of content; absent keeps the stored one') })
  .describe(
    'Fields to change; absent fields stay. Changed content is re-chunked and re-embedded, metadata is merged into ' +
      'the stored metadata',
  );

const skipParse = z.stringbool().optional().describe('Accepted for client compatibility; no effect');

export const deleteAllQuery = z.object({
  user_id: str().optional().describe('Internal id of the user whose memories to delete; wins over external_user_id'),
  external_user_id: str()
    .optional()
    .describe("Your application's id of the user whose memories to delete. Default: the caller's own user"),
  namespace_id: str().optional().describe('Only the memories in this namespace'),
  skip_parse: skipParse,
});

/** Safety filter on GET /v1/memory/{id}: a memory it excludes is not found (404). */
export const getMemoryQuery = z.object({
  exclude_flagged: z.stringbool().optional().describe('true: a memory with risk flagged is not found'),
  max_risk: risk
    .optional()
    .describe('Highest risk returned (none < sensitive < flagged); a riskier memory is not found'),
  require_consent: z.stringbool().optional().describe('true: a memory with consent none is not found'),
});

export const updateMemoryResponse = z.looseObject({
  code: z.number().describe('The HTTP status code'),
  status: z.string().describe('success'),
  message,
  memory_items: z
    .array(
      z.looseObject({
        memoryId: z.string().describe('Id of the updated memory'),
        objectId: z.string().describe('The same id (client alias of memoryId)'),
        updatedAt: z.string().describe('ISO 8601 time of the update'),
      }),
    )
    .describe('The updated memory (one item), with its content, memoryChunkIds and metadata'),
});

export const deleteMemoryResponse = z.looseObject({
  code: z.number().describe('The HTTP status code'),
  status: z.string().describe('success'),
  memoryId: z.string().describe('Id of the deleted memory'),
  objectId: z.string().describe('The same id (client alias of memoryId)'),
  message,
  deleted: deletionReceipt,
});

/** DELETE /v1/memory/all: the client's BatchMemoryResponse, with the deletion receipt. */
export const deleteAllResponse = batchResponse.extend({ deleted: deletionReceipt });

/** Deprecated query parameters still sent by the client on update; mapped like on add. */
export const legacyTransformQuery = z.object({
  enable_holographic: enableHolographic,
  frequency_schema_id: z.string().optional().describe('Deprecated: policy.transform_embedding.domain_id'),
});
export const deleteMemoryQuery = z.object({ skip_parse: skipParse });
