/**
 * `document.process`: parse the stored file, chunk it, and store the chunks as memories in
 * groups, each group in one transaction with its record in document_chunks. A run that dies
 * (crash, lost lease) is retried and skips the chunks already recorded: parsing and chunking
 * are deterministic, so chunk i is the same text every time; none is stored twice or lost.
 */
import {
  chunkDocument,
  DocumentParseError,
  type DocumentChunk,
  type DocumentFormat,
  type ParsedDocument,
} from '../../platform/documents/index.ts';
import type { Db } from '../../platform/db/index.ts';
import type { Publish } from '../../platform/events/index.ts';
import type { JobContext, JobHandler, JobRow } from '../../platform/jobs/index.ts';
import { ownerActor } from '../../shared/actor.ts';
import { AppError } from '../../shared/errors.ts';
import type { AddMemoryBody, BatchPort, MemoryWriter } from '../memories/index.ts';
import {
  doneChunks,
  dropFile,
  getUpload,
  loadFile,
  recordChunks,
  updateUpload,
  type StepState,
  type UploadRow,
} from './documents.store.ts';

export const DOCUMENT_PROCESS = 'document.process';
/**
 * Events of an upload's own changes (its batch's events report its memories'): they route
 * WebSocket pushes to the upload's status streams by batch_id, the upload's id (docs/realtime.md).
 */
export const DOCUMENT_PROCESSING = 'document.processing';
export const DOCUMENT_PROGRESS = 'document.progress';
/** Chunks per embedder call and transaction. */
const GROUP = 16;

export interface DocumentJobDeps {
  /** Records the upload's changes as events, in the transaction that makes them. */
  publish: Publish;
  writer: Pick<MemoryWriter, 'prepareEach' | 'storeAll'>;
  batches: BatchPort;
  /**
   * The parser (the app's: platform/documents' parseInThread with the configured OCR). Throws
   * DocumentParseError for the document's own faults, `signal.reason` when aborted.
   */
  parse(
    bytes: Uint8Array,
    format: DocumentFormat,
    opts: { maxPages: number; signal: AbortSignal; onPage(done: number, total: number): void },
  ): Promise<ParsedDocument>;
  maxPages: number;
  chunkChars: number;
}

const now = () => new Date().toISOString();

/** Change the upload and record the change, at once: a status stream hears of every step. */
async function change(
  deps: DocumentJobDeps,
  db: Db,
  u: UploadRow,
  patch: Parameters<typeof updateUpload>[2],
  steps: Record<string, Partial<StepState>> = {},
  kind = DOCUMENT_PROGRESS,
) {
  await db.transaction(async (tx) => {
    await updateUpload(tx, u.id, patch, steps);
    await deps.publish(tx, { kind, organizationId: u.organization_id, batchId: u.id });
  });
}

/** A chunk's memory: the upload's shared fields, and where in the document it comes from. */
function chunkBody(u: UploadRow, c: DocumentChunk): AddMemoryBody {
  const template = (u.options.memory ?? {}) as Partial<AddMemoryBody>;
  return {
    ...template,
    content: c.text,
    type: 'document',
    user_id: u.user_id,
    external_user_id: undefined,
    namespace_id: u.namespace_id ?? undefined,
    metadata: {
      createdAt: u.created_at.toISOString(),
      ...template.metadata,
      sourceType: 'document',
      upload_id: u.id,
      filename: u.filename,
      page: c.pageStart,
      page_end: c.pageEnd,
      section: c.section.join(' › ') || undefined,
      section_path: c.section,
      chunk_index: c.index,
    },
  } as AddMemoryBody;
}

/** Parse with page progress written to the timeline; a cancel seen there stops the parse. */
async function parse(deps: DocumentJobDeps, ctx: JobContext, u: UploadRow, bytes: Uint8Array) {
  const stop = new AbortController();
  const onJobAbort = () => stop.abort(ctx.signal?.reason);
  ctx.signal?.addEventListener('abort', onJobAbort, { once: true });
  let writing: Promise<void> = Promise.resolve();
  let lastWrite = 0;
  const onPage = (done: number, total: number) => {
    if (Date.now() - lastWrite < 500 && done < total) return; // at most two writes a second
    lastWrite = Date.now();
    writing = writing.then(async () => {
      await change(deps, ctx.db, u, { total_pages: total }, { parsed: { progress: done / total } });
      const cur = await getUpload(ctx.db, u.organization_id, u.id);
      if (cur?.status === 'cancelled') stop.abort(new Error('cancelled'));
    });
  };
  try {
    return await deps.parse(bytes, u.format as DocumentFormat, {
      maxPages: deps.maxPages,
      signal: stop.signal,
      onPage,
    });
  } finally {
    ctx.signal?.removeEventListener('abort', onJobAbort);
    await writing.catch(() => undefined);
  }
}

/** The document cannot be made into memories (its own fault): failed, with the parser's reason. */
async function fail(deps: DocumentJobDeps, ctx: { db: Db }, u: UploadRow, step: string, error: string) {
  await ctx.db.transaction(async (tx) => {
    const cur = await getUpload(tx, u.organization_id, u.id, true);
    if (!cur || cur.status === 'cancelled') return;
    await updateUpload(
      tx,
      u.id,
      { status: 'failed', error },
      { [step]: { status: 'failed', completed_at: now(), error } },
    );
    await dropFile(tx, u.id);
    await deps.batches.end(tx, u.organization_id, u.id, { status: 'failed', error }, u.webhook);
  });
}

/** Store the chunks not yet recorded, a group at a time; false when the upload was cancelled meanwhile. */
async function storeChunks(deps: DocumentJobDeps, ctx: JobContext, u: UploadRow, chunks: DocumentChunk[]) {
  const actor = ownerActor(u.organization_id, u.user_id);
  const done = await doneChunks(ctx.db, u.id);
  const todo = chunks.filter((c) => !done.has(c.index));
  for (let g = 0; g < todo.length; g += GROUP) {
    ctx.signal?.throwIfAborted();
    const group = todo.slice(g, g + GROUP);
    // Embedding happens here, outside the transaction.
    const prepared = await deps.writer.prepareEach(
      actor,
      group.map((c) => chunkBody(u, c)),
      { batchId: u.id },
    );
    const stillOn = await ctx.db.transaction(async (tx) => {
      const cur = await getUpload(tx, u.organization_id, u.id, true);
      if (!cur || cur.status === 'cancelled') return false;
      // Another run of this job (a lost lease) may have stored some of them meanwhile.
      const again = await doneChunks(tx, u.id);
      const fresh = group.flatMap((c, i) => (again.has(c.index) ? [] : [{ c, p: prepared[i] }]));
      const ready = fresh.flatMap((x) => (x.p instanceof AppError ? [] : [{ c: x.c, p: x.p }]));
      // A document's chunks are its own (deleted with it): a repeat of another memory is stored and linked.
      const rows = await deps.writer.storeAll(
        tx,
        actor,
        ready.map((x) => x.p),
        { batchId: u.id, container: true },
      );
      const records = [
        ...fresh.flatMap((x) => (x.p instanceof AppError ? [{ c: x.c, memoryId: null, error: x.p.message }] : [])),
        ...rows.map((r, i) =>
          r instanceof AppError
            ? { c: ready[i].c, memoryId: null, error: r.message }
            : { c: ready[i].c, memoryId: r.id, error: undefined },
        ),
      ];
      await recordChunks(
        tx,
        u.id,
        records.map((r) => ({
          index: r.c.index,
          memoryId: r.memoryId,
          pageStart: r.c.pageStart,
          pageEnd: r.c.pageEnd,
          error: r.error,
        })),
      );
      const stored = done.size + g + group.length;
      await updateUpload(tx, u.id, {}, { embedded: { progress: Math.min(1, stored / chunks.length) } });
      await deps.publish(tx, { kind: DOCUMENT_PROGRESS, organizationId: u.organization_id, batchId: u.id });
      return true;
    });
    if (!stillOn) return false;
  }
  return true;
}

async function run(deps: DocumentJobDeps, job: JobRow, ctx: JobContext) {
  const u = await getUpload(ctx.db, job.organization_id ?? '', String(job.payload.upload_id));
  if (!u || u.status === 'cancelled' || u.status === 'completed' || u.status === 'failed') return;
  const bytes = await loadFile(ctx.db, u.id);
  if (!bytes) return; // dropped by a cancel that landed between the reads
  await change(
    deps,
    ctx.db,
    u,
    { status: 'processing' },
    { parsed: { status: 'in_progress', started_at: u.steps.parsed?.started_at ?? now(), progress: 0 } },
    DOCUMENT_PROCESSING,
  );
  let doc;
  try {
    doc = await parse(deps, ctx, u, bytes);
  } catch (err) {
    if (err instanceof DocumentParseError) return fail(deps, ctx, u, 'parsed', `${err.reason}: ${err.message}`);
    if ((await getUpload(ctx.db, u.organization_id, u.id))?.status === 'cancelled') return;
    throw err; // not the document's fault (a model, the store): retried
  }
  const parsedAt = now();
  const chunks = chunkDocument(doc, { maxChars: deps.chunkChars, hierarchical: u.options.hierarchical !== false });
  if (!chunks.length) {
    // Pages left out (OCR off) are what the caller needs to see, not just "no text".
    await change(deps, ctx.db, u, { total_pages: doc.totalPages, skipped_pages: doc.skippedPages });
    const skipped = doc.skippedPages.map((p) => `page ${p.page}: ${p.reason}`).join(', ');
    return fail(deps, ctx, u, 'parsed', `empty: no text in the document${skipped ? ` (skipped ${skipped})` : ''}`);
  }
  await change(
    deps,
    ctx.db,
    u,
    {
      total_pages: doc.totalPages,
      chunks_total: chunks.length,
      skipped_pages: doc.skippedPages,
      ocr_pages: doc.ocrPages,
    },
    {
      parsed: { status: 'completed', completed_at: parsedAt, progress: 1 },
      chunked: { status: 'completed', started_at: parsedAt, completed_at: now(), progress: 1 },
      embedded: { status: 'in_progress', started_at: u.steps.embedded?.started_at ?? now(), progress: 0 },
    },
  );
  if (!(await storeChunks(deps, ctx, u, chunks))) return;
  await ctx.db.transaction(async (tx) => {
    const cur = await getUpload(tx, u.organization_id, u.id, true);
    if (!cur || cur.status !== 'processing') return;
    await updateUpload(
      tx,
      u.id,
      { status: 'completed' },
      { embedded: { status: 'completed', completed_at: now(), progress: 1 } },
    );
    await dropFile(tx, u.id);
    // From here the memories' own processing completes the batch (and calls the webhook).
    await deps.batches.seal(tx, u.organization_id, u.id, u.webhook);
  });
}

export function documentsJobs(deps: DocumentJobDeps): Record<string, JobHandler> {
  return {
    [DOCUMENT_PROCESS]: {
      run: (job, ctx) => run(deps, job, ctx),
      async onDead(job, error, ctx) {
        const u = await getUpload(ctx.db, job.organization_id ?? '', String(job.payload.upload_id));
        if (u) await fail(deps, ctx, u, u.steps.embedded ? 'embedded' : 'parsed', error.split('\n')[0]);
      },
    },
  };
}
