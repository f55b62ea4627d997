import { z } from 'zod';
import { iso } from '../../shared/time.ts';
import type { MemoryRow } from './memories.store.ts';

/** The stored memory as the client reads it (client-contract MemoryObject). */
export const memoryObject = z.looseObject({
  id: z.string(),
  content: z.string(),
  type: z.string(),
  user_id: z.string(),
  acl: z.record(z.string(), z.record(z.string(), z.boolean())).describe('Parse-style: entity → {read, write}'),
  createdAt: z.string().optional(),
  updatedAt: z.string().optional(),
  external_user_id: z.string().optional(),
  namespace_id: z.string().optional(),
  organization_id: z.string().optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
  customMetadata: z.record(z.string(), z.unknown()).optional(),
  context: z.array(z.object({ role: z.string(), content: z.string() })).optional(),
  role: z.string().optional(),
  category: z.string().optional(),
  topics: z.array(z.string()).optional(),
  conversation_id: z.string().optional(),
  source_type: z.string().optional(),
  status: z.string().optional(),
  similarity_score: z.number().optional(),
  relevance_score: z.number().optional(),
  recency_score: z.number().optional(),
  memoryChunkIds: z.array(z.string()).optional(),
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

/** Shape a stored row for the wire; scores are added by search. */
export function toMemoryObject(row: MemoryRow, chunkIds?: string[]): MemoryObject {
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
  };
}
