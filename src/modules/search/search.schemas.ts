import { z } from 'zod';
import { aclConfig, memoryMetadata } from '../memories/memories.schemas.ts';
import { memoryObject } from '../memories/memory-object.ts';

const PROVIDERS = [
  'none',
  'ranker_a',
  'ranker_b',
  'svc_enhanced',
  'svc_max',
  'cohere',
  'openai',
  'papr_enhanced',
  'papr_max',
] as const;

export const rerankingConfig = z.looseObject({
  reranking_enabled: z.boolean().optional(),
  reranking_provider: z.enum(PROVIDERS).optional(),
  reranking_model: z.string().max(200).optional(),
  domain_id: z.string().max(200).optional(),
  signal_thresholds: z.record(z.string(), z.number()).optional(),
});

export const omoFilter = z.object({
  min_consent: z.string().optional(),
  max_risk: z.string().optional(),
  exclude_consent: z.array(z.string()).optional(),
  exclude_risk: z.array(z.string()).optional(),
  require_consent: z.boolean().optional(),
  exclude_flagged: z.boolean().optional(),
});

const label = z.string().min(1).max(100);
/** A structured graph query run instead of the generated one (client `search_override`). */
export const searchOverride = z.object({
  pattern: z.object({
    source_label: label,
    relationship_type: label,
    target_label: label,
    direction: z.enum(['->', '<-', '-']).default('->').describe('-> source to target, <- target to source, - either'),
  }),
  filters: z
    .array(
      z.object({
        node_type: label,
        property_name: z.string().min(1).max(100),
        operator: z.enum(['CONTAINS', 'EQUALS', 'STARTS_WITH', 'IN']),
        value: z.union([z.string().max(1000), z.array(z.string().max(1000)).max(100), z.number(), z.boolean()]),
      }),
    )
    .max(20)
    .optional(),
  return_properties: z
    .array(z.string().min(1).max(100))
    .max(50)
    .optional()
    .describe('Node properties to return (default all)'),
});
export type SearchOverride = z.infer<typeof searchOverride>;

export const searchBody = z.object({
  query: z.string().trim().min(1, 'query must not be empty').max(10000),
  enable_agentic_graph: z.boolean().optional(),
  external_user_id: z.string().max(512).optional(),
  user_id: z.string().max(512).optional().describe('Deprecated: use external_user_id'),
  organization_id: z.string().max(512).optional(),
  namespace_id: z.string().max(512).optional(),
  schema_id: z.string().max(512).optional(),
  metadata: memoryMetadata
    .optional()
    .describe('Filter: every given key must match (custom keys and customMetadata too)'),
  search_acl: aclConfig.optional(),
  search_override: searchOverride.optional(),
  omo_filter: omoFilter.optional(),
  reranking_config: rerankingConfig.optional(),
  rank_results: z.boolean().optional().describe('Deprecated: use reranking_config'),
  holographic_config: z.unknown().optional(),
  policy: z.unknown().optional(),
  limit: z.number().int().min(1).max(200).optional().describe('Maximum memories (up to 200); same as max_memories'),
});
export type SearchBody = z.infer<typeof searchBody>;

export const searchQuery = z.object({
  max_memories: z.coerce.number().int().min(1).max(200).default(20),
  max_nodes: z.coerce.number().int().min(0).max(200).default(15),
  response_format: z.enum(['json', 'toon']).default('json'),
});

export const graphNode = z.object({
  label: z.string(),
  properties: z.record(z.string(), z.unknown()),
  schema_id: z.string().nullable().optional(),
});

export const searchResponse = z.object({
  code: z.number().int(),
  status: z.string(),
  data: z
    .object({
      memories: z.array(memoryObject),
      nodes: z.array(graphNode),
      schemas_used: z.array(z.string()).optional(),
    })
    .nullable(),
  error: z.string().nullable().optional(),
  details: z.unknown().optional(),
  search_id: z.string().optional(),
});
