import { z } from 'zod';
import { aclConfig, memoryMetadata, searchResponse } from '../memories/index.ts';

/** Reranking providers, the spec's names and the client's (providers.ts maps them). */
export const RERANKING_PROVIDERS = [
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
  reranking_enabled: z
    .boolean()
    .optional()
    .describe('false: the fused order (provider none); true without a provider asks for ranker_a (the spec default)'),
  reranking_provider: z
    .enum(RERANKING_PROVIDERS)
    .optional()
    .describe(
      'none: the fused order. ranker_a (cohere): a Cohere-compatible /v1/rerank endpoint (RERANK_URL); when it is ' +
        'only the default and not configured, svc_max is used and data.reranking says so. ranker_b (openai): an ' +
        'OpenAI-compatible chat model scoring the candidates (LLM_BASE_URL). svc_enhanced (papr_enhanced): the ' +
        'graph-transform score added to the fused one. svc_max (papr_max): the learned ranker over every feature ' +
        '(docs/retrieval.md). A provider named but not configured is a 422',
    ),
  reranking_model: z
    .string()
    .max(200)
    .optional()
    .describe('Informational: the hosted reranker runs the configured model (RERANK_MODEL, LLM_MODEL)'),
  domain_id: z
    .string()
    .max(200)
    .optional()
    .describe('Graph-transform domain of svc_enhanced and svc_max (default general)'),
  signal_thresholds: z
    .record(z.string(), z.number())
    .optional()
    .describe(
      'svc_enhanced / svc_max: band name (or frequency, e.g. "19") → minimum band score; candidates below any ' +
        'are dropped',
    ),
  signal_multipliers: z
    .record(z.string(), z.union([z.number(), z.string().max(40)]))
    .optional()
    .describe(
      'svc_enhanced / svc_max: band name (or frequency) → multiplier (≥ 0; a number or a numeric string) of the ' +
        'band’s weight in the score',
    ),
  return_features: z
    .boolean()
    .optional()
    .describe('Engram extension: svc_enhanced / svc_max add each memory’s ranking features as ranker_features'),
});

export const omoFilter = z.object({
  min_consent: z
    .string()
    .optional()
    .describe(
      'Lowest consent returned, in the order none < implicit < terms < explicit (memories default to implicit)',
    ),
  max_risk: z
    .string()
    .optional()
    .describe('Highest risk returned, in the order none < sensitive < flagged (memories default to none)'),
  exclude_consent: z.array(z.string()).optional().describe('Consent values left out'),
  exclude_risk: z.array(z.string()).optional().describe('Risk values left out'),
  require_consent: z.boolean().optional().describe('true: memories with consent none are left out'),
  exclude_flagged: z.boolean().optional().describe('true: memories with risk flagged are left out'),
});

const label = z.string().min(1).max(100);
/** A structured graph query run instead of the generated one (client `search_override`). */
export const searchOverride = z.object({
  pattern: z
    .object({
      source_label: label.describe('Node type at the source end'),
      relationship_type: label.describe('Relationship type'),
      target_label: label.describe('Node type at the target end'),
      direction: z
        .enum(['->', '<-', '-'])
        .default('->')
        .describe('-> source to target (default), <- target to source, - either'),
    })
    .describe('The relationship to match: source node type, relationship type, target node type'),
  filters: z
    .array(
      z.object({
        node_type: label.describe('The end of the pattern the condition applies to, by its node type'),
        property_name: z.string().min(1).max(100).describe("Property compared; name is the node's name"),
        operator: z
          .enum(['CONTAINS', 'EQUALS', 'STARTS_WITH', 'IN'])
          .describe('Comparison, case-insensitive; IN: equal to one of the values'),
        value: z
          .union([z.string().max(1000), z.array(z.string().max(1000)).max(100), z.number(), z.boolean()])
          .describe('Value compared (a list with IN)'),
      }),
    )
    .max(20)
    .optional()
    .describe('Conditions on the matched nodes (at most 20); every one must hold'),
  return_properties: z
    .array(z.string().min(1).max(100))
    .max(50)
    .optional()
    .describe('Node properties to return (default all)'),
});
export type SearchOverride = z.infer<typeof searchOverride>;

export const searchBody = z.object({
  query: z
    .string()
    .trim()
    .min(1, 'query must not be empty')
    .max(10000)
    .describe('What to search for, in natural language (at most 10000 characters)'),
  enable_agentic_graph: z
    .boolean()
    .optional()
    .describe(
      "true: add the knowledge-graph signal (the query's entities matched to graph nodes, one relationship " +
        'expanded). Default false',
    ),
  external_user_id: z
    .string()
    .max(512)
    .optional()
    .describe(
      "Whose memories to search: your application's user id; memories others shared with that user are included. " +
        "Default: the caller's own user",
    ),
  user_id: z
    .string()
    .max(512)
    .optional()
    .describe('Deprecated: internal user id; use external_user_id. Wins over external_user_id'),
  organization_id: z
    .string()
    .max(512)
    .optional()
    .describe('Deprecated: the organization is the credential’s; naming another one is a 403'),
  namespace_id: z
    .string()
    .max(512)
    .optional()
    .describe(
      'Only memories in this namespace. A namespace key always searches its own namespace; naming another is a 403',
    ),
  schema_id: z.string().max(512).optional().describe('Only graph nodes of this user graph schema in data.nodes'),
  metadata: memoryMetadata
    .optional()
    .describe('Filter: every given key must match (custom keys and customMetadata too)'),
  search_acl: aclConfig
    .optional()
    .describe('Only memories whose read list holds every entry of read (write is not used)'),
  search_override: searchOverride
    .optional()
    .describe(
      'A structured graph query run instead of the generated one: the memories behind its matches weigh as much as ' +
        'all other signals together, and the matched nodes are data.nodes',
    ),
  omo_filter: omoFilter.optional().describe('Consent and risk filter: memories outside it are left out'),
  reranking_config: rerankingConfig.optional().describe('Reranking of the fused candidates by a provider (spec 2.10)'),
  rank_results: z
    .boolean()
    .optional()
    .describe('Deprecated: use reranking_config. true asks for the default provider (ranker_a)'),
  holographic_config: z
    .unknown()
    .optional()
    .describe('Deprecated: its frequency_filters act as reranking_config.signal_thresholds'),
  policy: z
    .unknown()
    .optional()
    .describe(
      'Deprecated: policy.vector.mode fast, enhanced, max means provider none, svc_enhanced, svc_max; ' +
        'the rest is ignored',
    ),
  limit: z.number().int().min(1).max(200).optional().describe('Maximum memories (up to 200); same as max_memories'),
  include_superseded: z
    .boolean()
    .optional()
    .describe(
      'Engram extension: true (default): a superseded memory is shown right after the memory that replaced it (which ' +
        'takes its place); false: superseded memories are left out (docs/truth.md)',
    ),
  as_of: z
    .union([z.iso.datetime({ offset: true, local: true }), z.iso.date()])
    .optional()
    .describe(
      'Engram extension: point-in-time search (ISO 8601): only memories from then or before, with the facts ' +
        'that were ' +
        'current then ranked first (docs/truth.md)',
    ),
});
export type SearchBody = z.infer<typeof searchBody>;

export const searchQuery = z.object({
  max_memories: z.coerce
    .number()
    .int()
    .min(1)
    .max(200)
    .default(20)
    .describe('Most memories returned (1-200, default 20); limit in the body takes precedence'),
  max_nodes: z.coerce
    .number()
    .int()
    .min(0)
    .max(200)
    .default(15)
    .describe('Most graph nodes returned (0-200, default 15)'),
  response_format: z
    .enum(['json', 'toon'])
    .default('json')
    .describe('json (default), or toon: the same response as TOON text (text/plain), compact for model prompts'),
});

/** The search envelope: defined beside the memory object, since GET /v1/memory/{id} answers in it too. */
export { searchResponse };
