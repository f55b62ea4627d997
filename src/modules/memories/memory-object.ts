import { z } from 'zod';
import { graphNode } from '../graph/index.ts';
import { iso } from '../../shared/time.ts';
import type { MemoryRow } from './memories.store.ts';
import type { Lineage } from './lineage.store.ts';

/** The stored memory as the client reads it (client-contract MemoryObject). */
export const memoryObject = z.looseObject({
  id: z.string().describe('Memory id'),
  content: z.string().describe('The remembered text'),
  type: z.string().describe('text, code_snippet or document'),
  user_id: z.string().describe("Internal id of the memory's owner"),
  acl: z.record(z.string(), z.record(z.string(), z.boolean())).describe('Parse-style: entity → {read, write}'),
  createdAt: z.string().optional().describe('ISO 8601 time the memory was stored'),
  updatedAt: z.string().optional().describe('ISO 8601 time of its latest change'),
  external_user_id: z.string().optional().describe("The owner's id in your application, if it has one"),
  namespace_id: z.string().optional().describe('Its namespace; absent when it is in none'),
  organization_id: z.string().optional().describe('Its organization'),
  metadata: z.record(z.string(), z.unknown()).optional().describe('The stored metadata'),
  customMetadata: z.record(z.string(), z.unknown()).optional().describe('metadata.customMetadata'),
  context: z
    .array(
      z.object({
        role: z.string().describe('user or assistant'),
        content: z.string().describe('What was said in this turn'),
      }),
    )
    .optional()
    .describe('The conversation the memory came from'),
  role: z.string().optional().describe('metadata.role'),
  category: z.string().optional().describe('metadata.category'),
  topics: z.array(z.string()).optional().describe('metadata.topics'),
  conversation_id: z.string().optional().describe('metadata.conversationId'),
  source_type: z.string().optional().describe('metadata.sourceType'),
  status: z.string().optional().describe('Processing status, as GET /v1/memory/status/{memory_id} reports it'),
  similarity_score: z
    .number()
    .optional()
    .describe(
      'Search results: cosine similarity of the query and the memory by the primary embedding (0 if not among its ' +
        'candidates)',
    ),
  relevance_score: z.number().optional().describe('Search results: the final score the results are ranked by'),
  recency_score: z.number().optional().describe('Not set by this server (kept for client compatibility)'),
  reranker_score: z.number().optional().describe("Search with a reranking provider: the provider's own score"),
  reranker_type: z.string().optional().describe('Search with a reranking provider: the provider that ranked it'),
  ranker_features: z
    .record(z.string(), z.number())
    .optional()
    .describe(
      'Search with reranking_config.return_features (svc_enhanced, svc_max): the ranking features (docs/transform.md)',
    ),
  memoryChunkIds: z.array(z.string()).optional().describe('Ids of its chunks (GET /v1/memory/{memory_id} only)'),
  superseded_by: z
    .string()
    .nullable()
    .optional()
    .describe('Engram extension: the newer memory that replaced this fact; null while it is current (docs/truth.md)'),
  valid_to: z
    .string()
    .nullable()
    .optional()
    .describe('Engram extension: when this fact stopped being true (the newer memory’s time); null while current'),
  supersedes: z.array(z.string()).optional().describe('Engram extension: the older memories this one replaced'),
  duplicate_of: z
    .string()
    .nullable()
    .optional()
    .describe('Engram extension: the older memory this one nearly repeats; search shows one of them'),
});
export type MemoryObject = z.infer<typeof memoryObject>;

/** ACL arrays → the Parse-style map and the per-prefix `*_read_access` / `*_write_access` lists. */
function aclFields(read: string[], write: string[]) {
  const acl: Record<string, { read: boolean; write: boolean }> = {};
  const lists: Record<string, string[]> = {};
  for (const [mode, entries] of [
    ['read', read],
    ['write', write],
  ] as const) {
    for (const entry of entries) {
      const i = entry.indexOf(':');
      const prefix = entry.slice(0, i);
      const id = entry.slice(i + 1);
      (acl[id] ??= { read: false, write: false })[mode] = true;
      (lists[`${prefix}_${mode}_access`] ??= []).push(id);
    }
  }
  return { acl, ...lists };
}

/** The wire fields of a memory's lineage (truth.store lineageOf). */
export function lineageFields(l: Lineage) {
  const first = l.successors[0];
  return {
    superseded_by: first?.id ?? null,
    valid_to: first ? iso(first.validTo)! : null,
    supersedes: l.supersedes,
    duplicate_of: l.duplicateOf,
  };
}

/** Shape a stored row for the wire; scores are added by search. */
export function toMemoryObject(row: MemoryRow, chunkIds?: string[], lineage?: Lineage): MemoryObject {
  const metadata = row.metadata ?? {};
  const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
  return {
    id: row.id,
    content: row.content,
    type: row.type,
    user_id: row.user_id,
    ...aclFields(row.acl_read, row.acl_write),
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
    external_user_id: row.external_user_id ?? undefined,
    namespace_id: row.namespace_id ?? undefined,
    organization_id: row.organization_id,
    metadata,
    customMetadata: (metadata.customMetadata as Record<string, unknown> | undefined) ?? undefined,
    context: row.context ?? undefined,
    role: str(metadata.role),
    category: str(metadata.category),
    topics: Array.isArray(metadata.topics) ? (metadata.topics as string[]) : undefined,
    conversation_id: str(metadata.conversationId),
    source_type: str(metadata.sourceType),
    status: row.status,
    memoryChunkIds: chunkIds,
    ...(lineage ? lineageFields(lineage) : {}),
  };
}

/** The search envelope (POST /v1/memory/search, and GET /v1/memory/{id}, which answers in it). */
export const searchResponse = z.object({
  code: z.number().int().describe('The HTTP status code'),
  status: z.string().describe('success (errors answer the error envelope)'),
  data: z
    .object({
      memories: z.array(memoryObject).describe('The memories found, best first'),
      nodes: z
        .array(graphNode)
        .describe('Graph nodes linked to the memories, most linked first (with search_override: the matched nodes)'),
      schemas_used: z.array(z.string()).optional().describe('User graph schemas of the nodes shown; absent when none'),
      reranking: z
        .object({
          requested: z.string().describe('The reranking provider the request asked for (after aliasing)'),
          used: z.string().describe('The provider that ranked these results'),
          note: z.string().optional().describe('Why used differs from requested (e.g. not configured, fell back)'),
        })
        .optional()
        .describe('Set when a reranking provider was asked for: which one ranked the results, and why if another'),
    })
    .nullable()
    .describe('The results'),
  error: z.string().nullable().optional().describe('null on success'),
  details: z.unknown().optional().describe('Not set on success'),
  search_id: z
    .string()
    .optional()
    .describe('Id of this search in the query log (not set by GET /v1/memory/{memory_id})'),
});
