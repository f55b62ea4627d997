import { inOrderOf, toVector, type Queryable } from '../../platform/db/index.ts';
import type { ReceiptPart } from '../../shared/receipt.ts';
import { purgeMemories, type PurgedMemory } from './purge.store.ts';
import type { GraphPlan } from '../graph/index.ts';
import type { Reader } from './reader.ts';
import { safetySql, type SafetyFilter } from './safety.ts';

export interface MemoryRow {
  id: string;
  organization_id: string;
  namespace_id: string | null;
  user_id: string;
  external_user_id: string | null;
  content: string;
  type: string;
  metadata: Record<string, unknown>;
  context: { role: string; content: string }[] | null;
  policy: Record<string, unknown>;
  acl_read: string[];
  acl_write: string[];
  consent: string;
  risk: string;
  status: string;
  batch_id: string | null;
  content_bytes: number;
  occurred_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

/** A memory as it is inserted: its row and the graph plan resolved at write time. */
export type NewMemory = Omit<MemoryRow, 'created_at' | 'updated_at'> & { graph_plan: GraphPlan | null };

export interface ChunkData {
  id: string;
  index: number;
  text: string;
  /** Analysed terms joined by spaces (becomes the tsvector). */
  terms: string;
  docLen: number;
  embedding: number[] | null;
  embeddingModel: string | null;
  embedding2: number[] | null;
  embedding2Model: string | null;
}

export const MEMORY_COLUMNS = `id, organization_id, namespace_id, user_id, external_user_id, content, type,
  metadata, context, policy, acl_read, acl_write, consent, risk, status, batch_id, content_bytes, occurred_at,
  created_at, updated_at`;

/** Rows visible to a scope: always the organization, and the namespace for namespace keys. */
export interface Scope {
  organizationId: string;
  namespaceId: string | null;
}

/** Insert memories in one statement (a batch group's), returned in the order given. */
export async function insertMemories(tx: Queryable, ms: NewMemory[]): Promise<MemoryRow[]> {
  if (!ms.length) return [];
  const col = <T>(f: (m: NewMemory) => T) => ms.map(f);
  // Parallel arrays rather than one JSON document: JSON cannot carry every string a text
  // parameter can (a lone surrogate is an error in jsonb, replaced in text).
  const rows = await tx.query<MemoryRow>(
    `INSERT INTO memories (id, organization_id, namespace_id, user_id, external_user_id, content, type,
       metadata, context, policy, acl_read, acl_write, consent, risk, status, batch_id, content_bytes,
       occurred_at, completed_at, graph_plan)
     SELECT m.id, m.org, m.ns, m.usr, m.ext, m.content, m.type, m.metadata::jsonb, m.context::jsonb,
            m.policy::jsonb, ARRAY(SELECT jsonb_array_elements_text(m.acl_read::jsonb)),
            ARRAY(SELECT jsonb_array_elements_text(m.acl_write::jsonb)),
            m.consent, m.risk, m.status, m.batch_id, m.bytes, m.occurred_at,
            CASE WHEN m.status = 'completed' THEN now() END, m.graph_plan::jsonb
     FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[],
                 $9::text[], $10::text[], $11::text[], $12::text[], $13::text[], $14::text[], $15::text[],
                 $16::text[], $17::int[], $18::timestamptz[], $19::text[])
          WITH ORDINALITY AS m(id, org, ns, usr, ext, content, type, metadata, context, policy, acl_read, acl_write,
                               consent, risk, status, batch_id, bytes, occurred_at, graph_plan, n)
     ORDER BY m.n
     RETURNING ${MEMORY_COLUMNS}`,
    [
      col((m) => m.id),
      col((m) => m.organization_id),
      col((m) => m.namespace_id),
      col((m) => m.user_id),
      col((m) => m.external_user_id),
      col((m) => m.content),
      col((m) => m.type),
      col((m) => JSON.stringify(m.metadata)),
      col((m) => (m.context ? JSON.stringify(m.context) : null)),
      col((m) => JSON.stringify(m.policy)),
      col((m) => JSON.stringify(m.acl_read)),
      col((m) => JSON.stringify(m.acl_write)),
      col((m) => m.consent),
      col((m) => m.risk),
      col((m) => m.status),
      col((m) => m.batch_id),
      col((m) => m.content_bytes),
      col((m) => (m.occurred_at ? new Date(m.occurred_at).toISOString() : null)),
      col((m) => (m.graph_plan ? JSON.stringify(m.graph_plan) : null)),
    ],
  );
  return inOrderOf(
    rows,
    ms.map((m) => m.id),
  );
}

/** The owner columns a chunk copies from its memory. */
type ChunkOwner = Pick<MemoryRow, 'id' | 'organization_id' | 'namespace_id' | 'user_id'>;

/** The chunks of many memories in one statement (arrays unnested server-side). */
export async function insertChunks(tx: Queryable, items: { memory: ChunkOwner; chunks: ChunkData[] }[]): Promise<void> {
  const rows = items.flatMap(({ memory, chunks }) => chunks.map((c) => ({ m: memory, c })));
  if (!rows.length) return;
  const col = <T>(f: (r: (typeof rows)[number]) => T) => rows.map(f);
  await tx.query(
    `INSERT INTO memory_chunks (id, memory_id, organization_id, namespace_id, user_id, chunk_index,
       text, terms, doc_len, embedding, embedding_model, embedding2, embedding2_model)
     SELECT c.id, c.memory_id, c.org, c.ns, c.usr, c.idx, c.text, to_tsvector('simple', c.terms), c.doc_len,
            c.e1::vector, c.m1, c.e2::vector, c.m2
     FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::int[], $7::text[], $8::text[],
                 $9::int[], $10::text[], $11::text[], $12::text[], $13::text[])
          AS c(id, memory_id, org, ns, usr, idx, text, terms, doc_len, e1, m1, e2, m2)`,
    [
      col((r) => r.c.id),
      col((r) => r.m.id),
      col((r) => r.m.organization_id),
      col((r) => r.m.namespace_id),
      col((r) => r.m.user_id),
      col((r) => r.c.index),
      col((r) => r.c.text),
      col((r) => r.c.terms),
      col((r) => r.c.docLen),
      col((r) => (r.c.embedding ? toVector(r.c.embedding) : null)),
      col((r) => r.c.embeddingModel),
      col((r) => (r.c.embedding2 ? toVector(r.c.embedding2) : null)),
      col((r) => r.c.embedding2Model),
    ],
  );
}

/** `organization_id = … [AND namespace_id = …]` for a scope; pushes its parameters. */
export function scopeSql(scope: Scope, params: unknown[]): string {
  params.push(scope.organizationId);
  let sql = `organization_id = $${params.length}`;
  if (scope.namespaceId) {
    params.push(scope.namespaceId);
    sql += ` AND namespace_id = $${params.length}`;
  }
  return sql;
}

/**
 * What an end user may read (reader.ts): their own memories, and others' whose read ACL names
 * them, flagged ones excepted (owner-only). Pushes its parameters.
 */
export function readerSql(reader: Reader, params: unknown[]): string {
  params.push(reader.userId, reader.entities);
  return `(user_id = $${params.length - 1} OR (acl_read && $${params.length}::text[] AND risk <> 'flagged'))`;
}

/**
 * One memory in the scope; `safety` (consent/risk filter) and `reader` (an end user who
 * must own it or be on its read list) narrow it further, so a filtered-out memory is not found.
 */
export async function getMemory(
  db: Queryable,
  scope: Scope,
  id: string,
  opts: { safety?: SafetyFilter; reader?: Reader } = {},
): Promise<MemoryRow | undefined> {
  const params: unknown[] = [id];
  const where = [`id = $1`, scopeSql(scope, params), ...safetySql(opts.safety, params, '')];
  if (opts.reader) where.push(readerSql(opts.reader, params));
  const rows = await db.query<MemoryRow>(`SELECT ${MEMORY_COLUMNS} FROM memories WHERE ${where.join(' AND ')}`, params);
  return rows[0];
}

/** Rows by id, in the order of `ids`, skipping ids not visible in the scope. */
export async function getMemories(db: Queryable, scope: Scope, ids: string[]): Promise<MemoryRow[]> {
  if (!ids.length) return [];
  const params: unknown[] = [ids];
  const rows = await db.query<MemoryRow>(
    `SELECT ${MEMORY_COLUMNS} FROM memories WHERE id = ANY($1::text[]) AND ${scopeSql(scope, params)}`,
    params,
  );
  return inOrderOf(rows, ids);
}

export async function chunkIdsOf(db: Queryable, memoryId: string): Promise<string[]> {
  const rows = await db.query<{ id: string }>(
    'SELECT id FROM memory_chunks WHERE memory_id = $1 ORDER BY chunk_index',
    [memoryId],
  );
  return rows.map((r) => r.id);
}

export interface MemoryPatch {
  content?: string;
  content_bytes?: number;
  type?: string;
  metadata?: Record<string, unknown>;
  context?: unknown;
  policy?: Record<string, unknown>;
  namespace_id?: string | null;
  occurred_at?: Date | null;
  acl_read?: string[];
  acl_write?: string[];
  consent?: string;
  risk?: string;
  graph_plan?: GraphPlan;
}

const JSON_COLUMNS = new Set(['metadata', 'context', 'policy', 'graph_plan']);

export async function updateMemory(
  tx: Queryable,
  scope: Scope,
  id: string,
  patch: MemoryPatch,
): Promise<MemoryRow | undefined> {
  const params: unknown[] = [id];
  const sets = Object.entries(patch)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => {
      params.push(JSON_COLUMNS.has(k) ? JSON.stringify(v) : v);
      return `${k} = $${params.length}`;
    });
  sets.push('updated_at = now()');
  const rows = await tx.query<MemoryRow>(
    `UPDATE memories SET ${sets.join(', ')} WHERE id = $1 AND ${scopeSql(scope, params)} RETURNING ${MEMORY_COLUMNS}`,
    params,
  );
  if (rows[0] && patch.namespace_id !== undefined) {
    await tx.query('UPDATE memory_chunks SET namespace_id = $2 WHERE memory_id = $1', [id, patch.namespace_id]);
  }
  return rows[0];
}

export async function deleteChunks(tx: Queryable, memoryId: string): Promise<void> {
  await tx.query('DELETE FROM memory_chunks WHERE memory_id = $1', [memoryId]);
}

/** Delete one memory in scope with what hangs off it (purge.store.ts); undefined when not found. */
export async function deleteMemory(tx: Queryable, scope: Scope, id: string): Promise<ReceiptPart | undefined> {
  const params: unknown[] = [id];
  const r = await purgeMemories(tx, scope.organizationId, `id = $1 AND ${scopeSql(scope, params)}`, params);
  return r.rows.length ? r.receipt : undefined;
}

/** Delete every memory of one user (optionally in one namespace); what went, and the receipt. */
export async function deleteUserMemories(
  tx: Queryable,
  scope: Scope,
  userId: string,
  namespaceId: string | null,
): Promise<{ rows: PurgedMemory[]; receipt: ReceiptPart }> {
  const params: unknown[] = [userId];
  let where = `user_id = $1 AND ${scopeSql(scope, params)}`;
  if (namespaceId) {
    params.push(namespaceId);
    where += ` AND namespace_id = $${params.length}`;
  }
  return purgeMemories(tx, scope.organizationId, where, params);
}

/** Delete a batch's memories (a document's) with what hangs off them; the receipt. */
export async function deleteBatchMemories(tx: Queryable, organizationId: string, batchId: string) {
  return (await purgeMemories(tx, organizationId, 'organization_id = $1 AND batch_id = $2', [organizationId, batchId]))
    .receipt;
}

/** Delete the namespace's memories with what hangs off them; the receipt. */
export async function deleteNamespaceMemories(tx: Queryable, organizationId: string, id: string) {
  return (await purgeMemories(tx, organizationId, 'organization_id = $1 AND namespace_id = $2', [organizationId, id]))
    .receipt;
}

/** Keep the namespace's memories but move them out of it (memory and chunk rows alike). */
export async function detachNamespaceMemories(tx: Queryable, organizationId: string, id: string): Promise<number> {
  const rows = await tx.query(
    'UPDATE memories SET namespace_id = NULL, updated_at = now() ' +
      'WHERE organization_id = $1 AND namespace_id = $2 RETURNING id',
    [organizationId, id],
  );
  await tx.query('UPDATE memory_chunks SET namespace_id = NULL WHERE organization_id = $1 AND namespace_id = $2', [
    organizationId,
    id,
  ]);
  return rows.length;
}

/** Remove one ACL entry from every memory of the organization; counts per list changed. */
export async function removeAclEntry(
  tx: Queryable,
  organizationId: string,
  entry: string,
): Promise<{ read: number; write: number }> {
  const read = await tx.query(
    `UPDATE memories SET acl_read = array_remove(acl_read, $2), updated_at = now()
     WHERE organization_id = $1 AND acl_read @> ARRAY[$2]::text[] RETURNING id`,
    [organizationId, entry],
  );
  const write = await tx.query(
    `UPDATE memories SET acl_write = array_remove(acl_write, $2), updated_at = now()
     WHERE organization_id = $1 AND acl_write @> ARRAY[$2]::text[] RETURNING id`,
    [organizationId, entry],
  );
  return { read: read.length, write: write.length };
}
