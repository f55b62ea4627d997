import { toVector, type Queryable } from '../../platform/db/index.ts';
import { safetySql, type SafetyFilter } from './safety.ts';

export interface MemoryRow {
  id: string;
  organization_id: string;
  namespace_id: string | null;
  user_id: string;
  external_user_id: string | null;
  content: string;
  type: string;
  metadata: Record<string, any>;
  context: { role: string; content: string }[] | null;
  policy: Record<string, any>;
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

export type NewMemory = Omit<MemoryRow, 'created_at' | 'updated_at'>;

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

const COLUMNS = `id, organization_id, namespace_id, user_id, external_user_id, content, type, metadata, context, policy,
  acl_read, acl_write, consent, risk, status, batch_id, content_bytes, occurred_at, created_at, updated_at`;

/** Rows visible to a scope: always the organization, and the namespace for namespace keys. */
export interface Scope {
  organizationId: string;
  namespaceId: string | null;
}

export async function insertMemory(tx: Queryable, m: NewMemory): Promise<MemoryRow> {
  const rows = await tx.query<MemoryRow>(
    `INSERT INTO memories (id, organization_id, namespace_id, user_id, external_user_id, content, type, metadata, context,
       policy, acl_read, acl_write, consent, risk, status, batch_id, content_bytes, occurred_at, completed_at)
     VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15,$16,$17,$18, CASE WHEN $15::text = 'completed' THEN now() END)
     RETURNING ${COLUMNS}`,
    [m.id, m.organization_id, m.namespace_id, m.user_id, m.external_user_id, m.content, m.type, JSON.stringify(m.metadata),
      m.context ? JSON.stringify(m.context) : null, JSON.stringify(m.policy), m.acl_read, m.acl_write, m.consent, m.risk,
      m.status, m.batch_id, m.content_bytes, m.occurred_at],
  );
  return rows[0];
}

/** All chunks of one memory in one statement (arrays unnested server-side). */
export async function insertChunks(tx: Queryable, memory: Pick<MemoryRow, 'id' | 'organization_id' | 'namespace_id' | 'user_id'>, chunks: ChunkData[]): Promise<void> {
  if (!chunks.length) return;
  await tx.query(
    `INSERT INTO memory_chunks (id, memory_id, organization_id, namespace_id, user_id, chunk_index, text, terms, doc_len,
       embedding, embedding_model, embedding2, embedding2_model)
     SELECT c.id, $1, $2, $3, $4, c.idx, c.text, to_tsvector('simple', c.terms), c.doc_len,
            c.e1::vector, c.m1, c.e2::vector, c.m2
     FROM unnest($5::text[], $6::int[], $7::text[], $8::text[], $9::int[], $10::text[], $11::text[], $12::text[], $13::text[])
          AS c(id, idx, text, terms, doc_len, e1, m1, e2, m2)`,
    [memory.id, memory.organization_id, memory.namespace_id, memory.user_id,
      chunks.map((c) => c.id), chunks.map((c) => c.index), chunks.map((c) => c.text), chunks.map((c) => c.terms),
      chunks.map((c) => c.docLen), chunks.map((c) => (c.embedding ? toVector(c.embedding) : null)),
      chunks.map((c) => c.embeddingModel), chunks.map((c) => (c.embedding2 ? toVector(c.embedding2) : null)),
      chunks.map((c) => c.embedding2Model)],
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
 * One memory in the scope; `safety` (consent/risk filter) and `reader` (an end user who
 * must own it or be on its read list) narrow it further, so a filtered-out memory is not found.
 */
export async function getMemory(
  db: Queryable,
  scope: Scope,
  id: string,
  opts: { safety?: SafetyFilter; reader?: { userId: string; entities: string[] } } = {},
): Promise<MemoryRow | undefined> {
  const params: unknown[] = [id];
  const where = [`id = $1`, scopeSql(scope, params), ...safetySql(opts.safety, params, '')];
  if (opts.reader) {
    params.push(opts.reader.userId, opts.reader.entities);
    where.push(`(user_id = $${params.length - 1} OR (acl_read && $${params.length}::text[] AND risk <> 'flagged'))`);
  }
  const rows = await db.query<MemoryRow>(`SELECT ${COLUMNS} FROM memories WHERE ${where.join(' AND ')}`, params);
  return rows[0];
}

/** Rows by id, in the order of `ids`, skipping ids not visible in the scope. */
export async function getMemories(db: Queryable, scope: Scope, ids: string[]): Promise<MemoryRow[]> {
  if (!ids.length) return [];
  const params: unknown[] = [ids];
  const rows = await db.query<MemoryRow>(`SELECT ${COLUMNS} FROM memories WHERE id = ANY($1::text[]) AND ${scopeSql(scope, params)}`, params);
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.map((id) => byId.get(id)).filter((r): r is MemoryRow => !!r);
}

export async function chunkIdsOf(db: Queryable, memoryId: string): Promise<string[]> {
  const rows = await db.query<{ id: string }>('SELECT id FROM memory_chunks WHERE memory_id = $1 ORDER BY chunk_index', [memoryId]);
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
}

const JSON_COLUMNS = new Set(['metadata', 'context', 'policy']);

export async function updateMemory(tx: Queryable, scope: Scope, id: string, patch: MemoryPatch): Promise<MemoryRow | undefined> {
  const params: unknown[] = [id];
  const sets = Object.entries(patch)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => {
      params.push(JSON_COLUMNS.has(k) ? JSON.stringify(v) : v);
      return `${k} = $${params.length}`;
    });
  sets.push('updated_at = now()');
  const rows = await tx.query<MemoryRow>(
    `UPDATE memories SET ${sets.join(', ')} WHERE id = $1 AND ${scopeSql(scope, params)} RETURNING ${COLUMNS}`,
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

export async function deleteMemory(db: Queryable, scope: Scope, id: string): Promise<boolean> {
  const params: unknown[] = [id];
  const rows = await db.query(`DELETE FROM memories WHERE id = $1 AND ${scopeSql(scope, params)} RETURNING id`, params);
  return rows.length > 0;
}

/** Delete every memory of one user (optionally in one namespace); returns what went. */
export async function deleteUserMemories(
  db: Queryable,
  scope: Scope,
  userId: string,
  namespaceId: string | null,
): Promise<{ id: string; content_bytes: number; created_at: Date }[]> {
  const params: unknown[] = [userId];
  let where = `user_id = $1 AND ${scopeSql(scope, params)}`;
  if (namespaceId) {
    params.push(namespaceId);
    where += ` AND namespace_id = $${params.length}`;
  }
  return db.query(`DELETE FROM memories WHERE ${where} RETURNING id, content_bytes, created_at`, params);
}
