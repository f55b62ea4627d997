import { z } from 'zod';

const str = (max = 512) => z.string().max(max);

export const contextItem = z.object({ content: z.string().max(20000), role: z.enum(['user', 'assistant']) });

/** Read and write lists of prefixed entities (`external_user:`, `user:`, `namespace:`, `organization:`, `workspace:`, `role:`). */
export const aclConfig = z.object({
  read: z.array(str()).max(200).optional(),
  write: z.array(str()).max(200).optional(),
});

const customValue = z.union([z.string(), z.number(), z.boolean(), z.array(z.string())]);

/** Open metadata: defined keys are checked, any other key is kept and filterable. */
export const memoryMetadata = z.looseObject({
  role: z.enum(['user', 'assistant']).optional(),
  category: z
    .string()
    .max(64)
    .optional()
    .describe('preference, task, goal, fact (or facts), context, skills, learning'),
  createdAt: z.string().max(64).optional().describe('ISO 8601: when the remembered thing happened'),
  topics: z.array(str()).optional(),
  sessionId: str().optional(),
  conversationId: str().optional(),
  sourceType: str().optional(),
  customMetadata: z.record(z.string(), customValue).optional(),
});

export const transformEmbeddingPolicy = z.looseObject({
  mode: z.enum(['none', 'auto', 'manual']).optional(),
  domain_id: str().optional(),
  signals: z.record(z.string(), z.string()).optional(),
});

const consent = z.enum(['explicit', 'implicit', 'terms', 'none']);
const risk = z.enum(['none', 'sensitive', 'flagged']);

/** `policy` (current unified form). Graph details are kept as given for the graph module. */
export const memoryAddPolicy = z.looseObject({
  transform_embedding: transformEmbeddingPolicy.optional(),
  graph: z.looseObject({ mode: z.enum(['none', 'auto', 'manual']).optional() }).optional(),
  consent: consent.optional(),
  risk: risk.optional(),
  acl: aclConfig.optional(),
});

/** `memory_policy` (replaces graph_generation). */
export const memoryPolicy = z.looseObject({
  mode: z.enum(['auto', 'manual', 'structured']).optional(),
  schema_id: str().optional(),
  acl: aclConfig.optional(),
  consent: consent.optional(),
  risk: risk.optional(),
});

/** The memory item (spec 2.2, client AddMemory), including deprecated fields mapped at the edge. */
export const addMemoryBody = z.object({
  content: z.string().min(1, 'content must not be empty'),
  type: z.enum(['text', 'code_snippet', 'document']).default('text'),
  context: z.array(contextItem).max(200).optional(),
  metadata: memoryMetadata.optional(),
  external_user_id: str().min(1).optional(),
  namespace_id: str().optional(),
  policy: memoryAddPolicy.optional(),
  memory_policy: memoryPolicy.optional(),
  link_to: z.union([z.string(), z.array(z.string()), z.record(z.string(), z.unknown())]).optional(),
  graph_generation: z.looseObject({ mode: z.enum(['auto', 'manual']).optional() }).optional(),
  relationships_json: z.array(z.record(z.string(), z.unknown())).optional(),
  relationships: z
    .array(z.record(z.string(), z.unknown()))
    .max(200)
    .optional()
    .describe('Deprecated: memory_policy.relationships'),
  link_to_previous_memory: z
    .boolean()
    .optional()
    .describe('Deprecated: memory_policy.link_to_previous_memory (or link_to "$previous")'),
  link_to_related_memories: z
    .union([z.boolean(), z.number().int().min(0).max(20)])
    .optional()
    .describe('Deprecated: memory_policy.link_to_related_memories'),
  user_id: str().optional().describe('Deprecated: internal user id; use external_user_id'),
  organization_id: str().optional().describe('Deprecated and internal: taken from the API key'),
});
export type AddMemoryBody = z.infer<typeof addMemoryBody>;

export const addMemoryQuery = z.object({
  skip_background_processing: z.stringbool().optional(),
  webhook_url: z.string().max(2048).optional(),
  webhook_secret: z.string().max(512).optional(),
  enable_holographic: z.stringbool().optional().describe('Deprecated: policy.transform_embedding.mode'),
  frequency_schema_id: str().optional().describe('Deprecated: policy.transform_embedding.domain_id'),
});

export const addMemoryItem = z.object({
  memoryId: z.string(),
  objectId: z.string(),
  createdAt: z.string(),
  memoryChunkIds: z.array(z.string()),
});

export const addMemoryResponse = z.object({
  code: z.number().int(),
  status: z.string(),
  data: z.array(addMemoryItem).nullable(),
  error: z.string().nullable().optional(),
  details: z.unknown().optional(),
});

/** Batch body: items are validated one by one, so one bad item does not sink the batch. */
export const batchBody = z.object({
  memories: z.array(z.unknown()).min(1).max(1000).describe('AddMemory items (see POST /v1/memory)'),
  batch_size: z.number().int().min(1).max(100).optional(),
  external_user_id: str().min(1).optional(),
  namespace_id: str().optional(),
  policy: memoryAddPolicy.optional(),
  memory_policy: memoryPolicy.optional(),
  link_to: z.unknown().optional(),
  graph_generation: z.unknown().optional(),
  user_id: str().optional(),
  organization_id: str().optional(),
  webhook_url: z.string().max(2048).optional(),
  webhook_secret: z.string().max(512).optional(),
});

export const batchResponse = z.object({
  code: z.number().int(),
  status: z.enum(['success', 'partial', 'error']),
  message: z.string(),
  error: z.string().nullable(),
  details: z.unknown().nullable(),
  batch_id: z.string().nullable(),
  successful: z.array(addMemoryResponse),
  errors: z.array(
    z.object({
      index: z.number().int(),
      error: z.string(),
      code: z.number().int().optional(),
      status: z.string().optional(),
      details: z.unknown().optional(),
    }),
  ),
  total_processed: z.number().int(),
  total_successful: z.number().int(),
  total_failed: z.number().int(),
  total_content_size: z.number().int(),
  total_storage_size: z.number().int(),
});

export const memoryIdParams = z.object({ memory_id: z.string().min(1).max(200) });

export const updateMemoryBody = addMemoryBody.partial().omit({ user_id: true, external_user_id: true });

export const deleteAllQuery = z.object({
  user_id: str().optional(),
  external_user_id: str().optional(),
  namespace_id: str().optional(),
  skip_parse: z.stringbool().optional(),
});

/** Safety filter on GET /v1/memory/{id}: a memory it excludes is not found (404). */
export const getMemoryQuery = z.object({
  exclude_flagged: z.stringbool().optional(),
  max_risk: risk.optional(),
  require_consent: z.stringbool().optional(),
});

export const updateMemoryResponse = z.looseObject({
  code: z.number(),
  status: z.string(),
  message: z.string(),
  memory_items: z.array(z.looseObject({ memoryId: z.string(), objectId: z.string(), updatedAt: z.string() })),
});

export const deleteMemoryResponse = z.looseObject({
  code: z.number(),
  status: z.string(),
  memoryId: z.string(),
  objectId: z.string(),
  message: z.string(),
});

/** Deprecated query parameters still sent by the client on update; mapped like on add. */
export const legacyTransformQuery = z.object({
  enable_holographic: z.stringbool().optional(),
  frequency_schema_id: z.string().optional(),
});
export const deleteMemoryQuery = z.object({ skip_parse: z.stringbool().optional() });
