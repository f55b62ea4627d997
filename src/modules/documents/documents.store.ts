/** The SQL of document uploads, their stored files and the chunks made into memories. */
import type { Queryable } from '../../platform/db/index.ts';
import { deleteIdleJobsOf } from '../../platform/jobs/index.ts';
import type { WebhookRequest } from '../webhooks/index.ts';

export type UploadStatus = 'queued' | 'processing' | 'completed' | 'failed' | 'cancelled';

/** One step of the timeline as stored (see timeline.ts for the steps and what they mean). */
export interface StepState {
  status: 'pending' | 'in_progress' | 'completed' | 'failed' | 'skipped';
  started_at?: string;
  completed_at?: string;
  progress?: number;
  error?: string;
}

export interface UploadRow {
  id: string;
  organization_id: string;
  namespace_id: string | null;
  user_id: string;
  filename: string;
  format: string;
  mime: string;
  size_bytes: number;
  options: Record<string, unknown>;
  webhook: WebhookRequest | null;
  status: UploadStatus;
  error: string | null;
  total_pages: number | null;
  pages_done: number;
  chunks_total: number | null;
  chunks_stored: number;
  skipped_pages: { page: number; reason: string }[];
  ocr_pages: number[];
  steps: Record<string, StepState>;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = `id, organization_id, namespace_id, user_id, filename, format, mime, size_bytes, options, webhook,
  status, error, total_pages, pages_done, chunks_total, chunks_stored, skipped_pages, ocr_pages, steps,
  created_at, updated_at`;

export type NewUpload = Omit<
  UploadRow,
  | 'error'
  | 'total_pages'
  | 'pages_done'
  | 'chunks_total'
  | 'chunks_stored'
  | 'skipped_pages'
  | 'ocr_pages'
  | 'created_at'
  | 'updated_at'
>;

/** The upload row and its file, in the caller's transaction (with its job). */
export async function insertUpload(tx: Queryable, u: NewUpload, bytes: Uint8Array): Promise<UploadRow> {
  const [row] = await tx.query<UploadRow>(
    `INSERT INTO document_uploads (id, organization_id, namespace_id, user_id, filename, format, mime, size_bytes,
       options, webhook, status, steps)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) RETURNING ${COLUMNS}`,
    [
      u.id,
      u.organization_id,
      u.namespace_id,
      u.user_id,
      u.filename,
      u.format,
      u.mime,
      u.size_bytes,
      JSON.stringify(u.options),
      u.webhook ? JSON.stringify(u.webhook) : null,
      u.status,
      JSON.stringify(u.steps),
    ],
  );
  await tx.query('INSERT INTO document_files (upload_id, bytes) VALUES ($1, $2)', [u.id, bytes]);
  return row;
}

/** The upload `id` of `organizationId` (`lock`: FOR UPDATE, in a transaction). */
export async function getUpload(
  db: Queryable,
  organizationId: string,
  id: string,
  lock = false,
): Promise<UploadRow | undefined> {
  const rows = await db.query<UploadRow>(
    `SELECT ${COLUMNS} FROM document_uploads WHERE id = $1 AND organization_id = $2${lock ? ' FOR UPDATE' : ''}`,
    [id, organizationId],
  );
  return rows[0];
}

/** The stored file, until processing ends. */
export async function loadFile(db: Queryable, id: string): Promise<Uint8Array | null> {
  const rows = await db.query<{ bytes: Uint8Array }>('SELECT bytes FROM document_files WHERE upload_id = $1', [id]);
  return rows[0]?.bytes ?? null;
}

/** Drop the stored file; how many were dropped (0 or 1). */
export async function dropFile(tx: Queryable, id: string): Promise<number> {
  return (await tx.query('DELETE FROM document_files WHERE upload_id = $1 RETURNING upload_id', [id])).length;
}

type Patch = Partial<
  Pick<UploadRow, 'status' | 'error' | 'total_pages' | 'pages_done' | 'chunks_total' | 'skipped_pages' | 'ocr_pages'>
>;

/**
 * Change the upload's columns in `patch` and merge `steps` into its timeline (each step's
 * fields merged into what it had). A cancelled upload is never changed again (the job may
 * still be finishing a page when the cancel lands).
 */
export async function updateUpload(
  db: Queryable,
  id: string,
  patch: Patch,
  steps: Record<string, Partial<StepState>> = {},
): Promise<void> {
  const sets: string[] = [];
  const params: unknown[] = [id];
  for (const [k, v] of Object.entries(patch)) {
    params.push(k === 'skipped_pages' || k === 'ocr_pages' ? JSON.stringify(v) : v);
    sets.push(`${k} = $${params.length}`);
  }
  let stepsSql = 'steps';
  for (const [step, fields] of Object.entries(steps)) {
    params.push(step, JSON.stringify(fields));
    stepsSql = `jsonb_set(${stepsSql}, ARRAY[$${params.length - 1}::text],
      coalesce(steps -> $${params.length - 1}::text, '{}'::jsonb) || $${params.length}::jsonb)`;
  }
  sets.push(`steps = ${stepsSql}`, 'updated_at = now()');
  await db.query(`UPDATE document_uploads SET ${sets.join(', ')} WHERE id = $1 AND status <> 'cancelled'`, params);
}

/** Indexes of the chunks already made into memories (or refused), for a job that resumes. */
export async function doneChunks(db: Queryable, id: string): Promise<Set<number>> {
  const rows = await db.query<{ chunk_index: number }>('SELECT chunk_index FROM document_chunks WHERE upload_id = $1', [
    id,
  ]);
  return new Set(rows.map((r) => r.chunk_index));
}

export interface ChunkRecord {
  index: number;
  memoryId: string | null;
  pageStart: number;
  pageEnd: number;
  error?: string;
}

/** Record chunks as done and recount the upload's progress from what is recorded. */
export async function recordChunks(tx: Queryable, id: string, chunks: ChunkRecord[]): Promise<void> {
  if (chunks.length) {
    await tx.query(
      `INSERT INTO document_chunks (upload_id, chunk_index, memory_id, page_start, page_end, error)
       SELECT $1, * FROM unnest($2::int[], $3::text[], $4::int[], $5::int[], $6::text[])
       ON CONFLICT (upload_id, chunk_index) DO NOTHING`,
      [
        id,
        chunks.map((c) => c.index),
        chunks.map((c) => c.memoryId),
        chunks.map((c) => c.pageStart),
        chunks.map((c) => c.pageEnd),
        chunks.map((c) => c.error ?? null),
      ],
    );
  }
  await tx.query(
    `UPDATE document_uploads u SET chunks_stored = c.n, pages_done = greatest(u.pages_done, c.page), updated_at = now()
     FROM (SELECT count(*)::int AS n, coalesce(max(page_end), 0) AS page FROM document_chunks WHERE upload_id = $1) c
     WHERE u.id = $1`,
    [id],
  );
}

/** Chunks the memory write refused: how many, and the first (for the status's error). */
export interface Refused {
  count: number;
  first: { chunk_index: number; error: string } | null;
}

export async function refusedChunks(db: Queryable, id: string): Promise<Refused> {
  const rows = await db.query<{ n: number; chunk_index: number | null; error: string | null }>(
    `SELECT count(*) OVER ()::int AS n, chunk_index, error FROM document_chunks
     WHERE upload_id = $1 AND error IS NOT NULL ORDER BY chunk_index LIMIT 1`,
    [id],
  );
  const r = rows[0];
  return r ? { count: r.n, first: { chunk_index: r.chunk_index!, error: r.error! } } : { count: 0, first: null };
}

/**
 * Delete the uploads matching `where` (over `document_uploads`, with `params`) with their chunk
 * records, stored files and the jobs no worker holds; their ids (the batch ids of their events)
 * and the receipt's counts. Their memories are the caller's to delete first.
 */
export async function purgeUploads(tx: Queryable, organizationId: string, where: string, params: unknown[]) {
  const found = await tx.query<{ id: string }>(
    `SELECT id FROM document_uploads WHERE ${where} ORDER BY id FOR UPDATE`,
    params,
  );
  const ids = found.map((u) => u.id);
  if (ids.length === 0) return { ids, receipt: {} };
  const [counts] = await tx.query<{ chunks: number; files: number }>(
    `SELECT (SELECT count(*) FROM document_chunks WHERE upload_id = ANY($1))::int AS chunks,
            (SELECT count(*) FROM document_files WHERE upload_id = ANY($1))::int AS files`,
    [ids],
  );
  await tx.query('DELETE FROM document_uploads WHERE id = ANY($1)', [ids]); // chunks and files by cascade
  const jobs = await deleteIdleJobsOf(tx, organizationId, ids);
  return {
    ids,
    receipt: { documents: ids.length, document_chunks: counts.chunks, document_files: counts.files, jobs },
  };
}

/** A cancelled upload's chunk records and idle job (its memories are deleted): how many of each. */
export async function dropUploadRecords(tx: Queryable, organizationId: string, id: string) {
  const chunks = await tx.query('DELETE FROM document_chunks WHERE upload_id = $1 RETURNING chunk_index', [id]);
  return { document_chunks: chunks.length, jobs: await deleteIdleJobsOf(tx, organizationId, [id]) };
}
