import { z } from 'zod';
import { memoryObject } from '../memories/index.ts';

const id = (what: string) => z.string().max(512).optional().describe(what);
const selectors = {
  user_id: id('Deprecated: the user by internal id; wins over external_user_id'),
  external_user_id: id("Sync this user's memories (their own and those shared with them), as search finds them"),
  namespace_id: id('Only this namespace (a namespace key always syncs its own)'),
  workspace_id: id('Accepted for client compatibility; Engram has no workspaces (docs/sync.md)'),
};

const embedding = {
  embedding: z.array(z.number()).optional().describe('float32: the primary embedding, unit length'),
  embedding_int8: z.array(z.number().int()).optional().describe('int8: the primary embedding quantised to -127…127'),
  embedding_scale: z.number().optional().describe('int8: multiply embedding_int8 by this to get the unit vector back'),
  embedding_model: z.string().optional().describe('The model the embedding is of'),
};

/** A memory as sync hands it out: the memory object, and its embedding when asked for. */
const syncedMemory = memoryObject.extend(embedding);

export const deltaQuery = z.object({
  cursor: z
    .string()
    .max(512)
    .optional()
    .describe('next_cursor of the previous page (or of POST /v1/sync/tiers); absent: from the start'),
  limit: z.coerce.number().int().min(1).max(1000).default(100).describe('Most changes per page (1–1000, default 100)'),
  include_embeddings: z.stringbool().optional().describe('true: each upsert carries its primary embedding'),
  embedding_format: z
    .enum(['float32', 'int8'])
    .default('float32')
    .describe('float32 (default): embedding; int8: embedding_int8 and embedding_scale'),
  ...selectors,
});

export const deltaResponse = z.object({
  code: z.number().int().describe('The HTTP status code'),
  status: z.string().describe('success'),
  error: z.null().describe('null'),
  upserts: z
    .array(syncedMemory)
    .describe('Memories created or changed since the cursor (their current state), in feed order'),
  deletes: z
    .array(
      z.object({
        id: z.string().describe('The memory'),
        deleted: z.literal(true).describe('true'),
        deleted_at: z.string().describe('ISO 8601 time it was deleted (or left this scope)'),
      }),
    )
    .describe('Memories deleted, or no longer in this scope, since the cursor; never one of this page’s upserts'),
  next_cursor: z.string().describe('Where the next page starts (also when has_more is false: poll with it later)'),
  has_more: z.boolean().describe('More changes are ready now: ask again with next_cursor'),
});

const tiersFields = z
  .object({
    max_tier0: z.number().int().min(0).max(1000).default(20).describe('Most tier 0 memories (0–1000, default 20)'),
    max_tier1: z.number().int().min(0).max(5000).default(200).describe('Most tier 1 memories (0–5000, default 200)'),
    embed_limit: z
      .number()
      .int()
      .min(0)
      .max(5000)
      .default(200)
      .describe('With include_embeddings: most memories per tier that carry one (default 200)'),
    include_embeddings: z.boolean().default(false).describe('Include each memory’s primary embedding'),
    embedding_format: z
      .enum(['int8', 'float32'])
      .default('int8')
      .describe('Tier 1: int8 (default; embedding_int8 + embedding_scale) or float32. Tier 0 is always float32'),
    embed_model: z
      .string()
      .max(200)
      .optional()
      .describe('Accepted as a hint; the embedding is the stored one, named by embedding_model'),
    organization_id: id('Deprecated: the organization is the credential’s; naming another one is a 422'),
    ...selectors,
  })
  .describe('Which tiers, how large, with or without embeddings, for whom');

/** A request without a body (null or absent) takes every default. */
export const tiersBody = z.preprocess((v) => v ?? {}, tiersFields);

const tieredMemory = syncedMemory.extend({
  recency_score: z.number().optional().describe('exp(-0.05 · days since its last update)'),
  popularity_score: z.number().optional().describe('How often searches returned it in 30 days, 0–1 (log-damped)'),
  relevance_score: z.number().optional().describe('The tier score it was ranked by (docs/sync.md)'),
});

export const tiersResponse = z.object({
  code: z.number().int().describe('The HTTP status code'),
  status: z.string().describe('success'),
  error: z.null().describe('null'),
  details: z.null().describe('null'),
  tier0: z.array(tieredMemory).describe('The memories most likely needed, best first'),
  tier1: z.array(tieredMemory).describe('The next ones'),
  transitions: z
    .array(z.record(z.string(), z.unknown()))
    .describe('Always empty: no per-client tier history is kept (compare two snapshots; docs/sync.md)'),
  next_cursor: z.string().describe('The delta cursor as of this snapshot: GET /v1/sync/delta follows on from it'),
  has_more: z.boolean().describe('More memories scored than the two tiers hold'),
});
