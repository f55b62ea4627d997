/**
 * What the GraphQL types read: the REST shapes of the other modules (snake_case, envelopes)
 * turned into the schema's camelCase objects, so the default field resolvers apply.
 */
import type { MemoryObject } from '../memories/index.ts';
import type { NodeRow, RelationshipRow } from '../graph/index.ts';

export type MemoryView = ReturnType<typeof memoryView>;
export type UserView = ReturnType<typeof userView>;

export function memoryView(m: MemoryObject) {
  return {
    id: m.id,
    content: m.content,
    type: m.type,
    userId: m.user_id,
    externalUserId: m.external_user_id,
    namespaceId: m.namespace_id,
    organizationId: m.organization_id,
    metadata: m.metadata,
    customMetadata: m.customMetadata,
    context: m.context,
    role: m.role,
    category: m.category,
    topics: m.topics,
    conversationId: m.conversation_id,
    sourceType: m.source_type,
    status: m.status,
    acl: m.acl,
    createdAt: m.createdAt,
    updatedAt: m.updatedAt,
    relevanceScore: m.relevance_score,
    similarityScore: m.similarity_score,
  };
}

/** A page of the memories module's reader. */
export function memoryPage(p: { memories: MemoryObject[]; nextCursor: string | null }) {
  return { items: p.memories.map(memoryView), nextCursor: p.nextCursor, hasMore: p.nextCursor !== null };
}

/** A node as search results show it: `{label, properties: {id, name, …}, schema_id}`. */
export function searchNodeView(n: { label: string; properties: Record<string, unknown>; schema_id?: string | null }) {
  const { id, name } = n.properties;
  return {
    id: String(id ?? ''),
    label: n.label,
    name: typeof name === 'string' ? name : null,
    properties: n.properties,
    schemaId: n.schema_id ?? null,
  };
}

/** A stored node (its properties shown with its id and name, as search shows them). */
export function nodeView(
  n: Pick<NodeRow, 'id' | 'type' | 'name' | 'schema_id'> & { properties?: NodeRow['properties'] },
) {
  return {
    id: n.id,
    label: n.type,
    name: n.name,
    properties: { id: n.id, name: n.name, ...(n.properties ?? {}) },
    schemaId: n.schema_id,
  };
}

export function relationshipView(r: RelationshipRow) {
  return {
    id: r.id,
    type: r.type,
    memoryId: r.memory_id,
    properties: r.properties ?? {},
    source: nodeView(r.source),
    target: nodeView(r.target),
  };
}

export function userView(u: {
  user_id?: string;
  external_id?: string | null;
  email?: string | null;
  type?: string;
  metadata?: Record<string, unknown>;
  created_at?: string;
  updated_at?: string;
}) {
  return {
    id: u.user_id ?? '',
    externalId: u.external_id ?? null,
    email: u.email ?? null,
    type: u.type ?? null,
    metadata: u.metadata ?? null,
    createdAt: u.created_at ?? null,
    updatedAt: u.updated_at ?? null,
  };
}

export function namespaceView(n: {
  objectId: string;
  name: string;
  environment_type: string;
  is_active: boolean;
  memoriesCount: number;
  storageCount: number;
  createdAt: string;
  updatedAt: string;
}) {
  return {
    id: n.objectId,
    name: n.name,
    environmentType: n.environment_type,
    isActive: n.is_active,
    memoriesCount: n.memoriesCount,
    storageCount: n.storageCount,
    createdAt: n.createdAt,
    updatedAt: n.updatedAt,
  };
}
