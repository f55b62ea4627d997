import type { Db, Queryable } from '../../platform/db/index.ts';
import { detectFormat, SUPPORTED_FORMATS } from '../../platform/documents/index.ts';
import { enqueueAll } from '../../platform/jobs/index.ts';
import { mayAccessOwned, requireOwnOrganization, requirePermission, type Actor } from '../../shared/actor.ts';
import { AppError, notFound } from '../../shared/errors.ts';
import { newId } from '../../shared/ids.ts';
import { receipt, type DeletionReceipt } from '../../shared/receipt.ts';
import { resolveOwner, type BatchPort, type MemoryWriter, type OwnerDirectory } from '../memories/index.ts';
import type { NamespaceAccess } from '../namespaces/index.ts';
import { requireSelf } from '../users/index.ts';
import type { Webhooks } from '../webhooks/index.ts';
import { DOCUMENT_PROCESS } from './documents.jobs.ts';
import { uploadFields } from './documents.schemas.ts';
import {
  dropFile,
  dropUploadRecords,
  getUpload,
  insertUpload,
  purgeUploads,
  refusedChunks,
  updateUpload,
} from './documents.store.ts';
import { chunkTemplate } from './template.ts';
import { statusView } from './timeline.ts';
import type { UploadedFile } from './upload-form.ts';

export interface DocumentsDeps {
  db: Db;
  /** The memory write's own checks, run on the chunks' shared fields before the upload is accepted. */
  memories: Pick<MemoryWriter, 'checkLinked'>;
  batches: BatchPort;
  users: OwnerDirectory & Parameters<typeof requireSelf>[0];
  namespaces: Pick<NamespaceAccess, 'resolveWriteNamespace'>;
  webhooks: Pick<Webhooks, 'check'>;
}

/** Each format once, with every extension it goes by (images have several entries). */
const supported = [...new Set(SUPPORTED_FORMATS.map((f) => f.format))];
const supportedList = supported
  .map((format) => {
    const extensions = SUPPORTED_FORMATS.filter((f) => f.format === format).flatMap((f) => f.extensions);
    return `${format} (${extensions.join(', ')})`;
  })
  .join('; ');

/** Document uploads (client `document.*`; docs/documents.md). */
export function createDocumentsService(deps: DocumentsDeps) {
  const { db } = deps;

  async function visibleUpload(actor: Actor, id: string, q: Queryable = db, lock = false) {
    const u = await getUpload(q, actor.organizationId, id, lock);
    if (!u || !mayAccessOwned(actor, u)) throw notFound(`Upload ${id}`);
    return u;
  }

  return {
    /** POST /v1/document: checked, stored with its file and its job in one transaction, then processed. */
    async upload(actor: Actor, raw: Record<string, string>, file: UploadedFile) {
      requirePermission(actor, 'write');
      const parsed = uploadFields.safeParse(raw);
      if (!parsed.success) {
        const issues = parsed.error.issues.map((i) => ({ field: i.path.join('.'), message: i.message }));
        throw new AppError(422, `Invalid form field ${issues[0].field}: ${issues[0].message}`, { issues });
      }
      const fields = parsed.data;
      requireOwnOrganization(actor, fields.organization_id);
      const provider = fields.preferred_provider ?? 'auto';
      if (provider !== 'auto')
        throw new AppError(
          422,
          `preferred_provider ${provider} needs a hosted parsing adapter, and none is configured on this ` +
            'server; use auto (the local parsers and OCR)',
          { field: 'preferred_provider', supported: ['auto'] },
        );
      const detected = await detectFormat(file.bytes, file.filename, file.mimetype);
      if (!detected)
        throw new AppError(415, `Unsupported document type; supported: ${supportedList}`, {
          filename: file.filename,
          declared_type: file.mimetype,
          supported,
        });
      const template = chunkTemplate(fields);
      // What the memory write would refuse of every chunk is the caller's 4xx now, not a failed upload later.
      await deps.memories.checkLinked(actor, { ...template, content: file.filename });
      const hook = await deps.webhooks.check(fields.webhook_url, fields.webhook_secret);
      const selector = { userId: fields.user_id, externalUserId: fields.external_user_id };
      await requireSelf(deps.users, db, actor, selector);
      const row = await db.transaction(async (tx) => {
        const owner = await resolveOwner(deps.users, tx, actor, selector.userId, selector.externalUserId);
        const namespaceId = await deps.namespaces.resolveWriteNamespace(tx, actor, fields.namespace_id);
        const id = newId();
        const u = await insertUpload(
          tx,
          {
            id,
            organization_id: actor.organizationId,
            namespace_id: namespaceId,
            user_id: owner.userId,
            filename: file.filename,
            format: detected.format,
            mime: detected.mime,
            size_bytes: file.bytes.length,
            options: { memory: template, hierarchical: fields.hierarchical_enabled ?? true },
            webhook: hook,
            status: 'queued',
            steps: { stored: { status: 'completed', started_at: new Date().toISOString() } },
          },
          file.bytes,
        );
        await enqueueAll(tx, [
          { kind: DOCUMENT_PROCESS, organizationId: actor.organizationId, payload: { upload_id: id } },
        ]);
        return u;
      });
      return {
        code: 202,
        status: 'success' as const,
        message:
          `Document ${file.filename} stored; it is processed in the background ` +
          `(GET /v1/document/status/${row.id})`,
        document_status: {
          progress: 0,
          upload_id: row.id,
          page_id: null,
          current_page: 0,
          total_pages: null,
          current_filename: file.filename,
          error: null,
          status_type: 'queued' as const,
        },
        memory_items: [],
        memories: [],
        error: null,
      };
    },

    /** GET /v1/document/status/{upload_id} */
    async status(actor: Actor, id: string, timeline: boolean) {
      requirePermission(actor, 'read');
      const u = await visibleUpload(actor, id);
      const [memories, refused] = await Promise.all([
        deps.batches.progress(db, u.organization_id, u.id),
        refusedChunks(db, u.id),
      ]);
      return statusView(u, memories, refused, timeline);
    },

    /**
     * DELETE /v1/document/{upload_id}: stops processing (the job checks between groups of
     * chunks, under the upload's lock); the memories made so far stay unless `deleteMemories`.
     * With `deleteMemories`, a finished upload (completed or failed) is deleted whole: its
     * memories, its record, its batch's events; an unfinished one keeps its record, cancelled,
     * so its status still reads (and its job, if running, sees the cancel).
     */
    async cancel(actor: Actor, id: string, deleteMemories: boolean) {
      requirePermission(actor, 'write');
      if (deleteMemories) requirePermission(actor, 'delete');
      return db.transaction(async (tx) => {
        const u = await visibleUpload(actor, id, tx, true);
        const org = u.organization_id;
        const finished = u.status === 'completed' || u.status === 'failed';
        if (finished && !deleteMemories)
          throw new AppError(409, `Upload ${id} is already ${u.status}: there is nothing to cancel`, {
            status: u.status,
          });
        const memories = deleteMemories ? await deps.batches.deleteMemories(tx, org, id) : {};
        if (finished) {
          const upload = await purgeUploads(tx, org, 'organization_id = $1 AND id = $2', [org, id]);
          const batch = await deps.batches.purgeRecords(tx, org, [id]);
          const deleted = receipt(memories, upload.receipt, {
            events: batch.events,
            webhook_deliveries: batch.deliveries,
            jobs: batch.jobs,
          });
          return cancelled(
            id,
            u.status === 'failed' ? 'failed' : 'completed',
            `Upload ${id} is deleted with its ${deleted.memories} memories`,
            deleted,
          );
        }
        const was = u.status;
        await updateUpload(tx, id, { status: 'cancelled' });
        const files = await dropFile(tx, id);
        const records = deleteMemories ? await dropUploadRecords(tx, org, id) : {};
        if (was !== 'cancelled') await deps.batches.end(tx, org, id, { status: 'cancelled' }, u.webhook);
        const message =
          was === 'cancelled'
            ? `Upload ${id} was already cancelled`
            : `Processing of upload ${id} is cancelled; ` +
              (deleteMemories ? 'its memories are deleted' : 'memories made so far are kept');
        return cancelled(id, 'cancelled', message, receipt(memories, records, { document_files: files }));
      });
    },
  };
}

/** The answer of DELETE /v1/document/{upload_id}. */
function cancelled(
  id: string,
  status: 'cancelled' | 'completed' | 'failed',
  message: string,
  deleted: DeletionReceipt,
) {
  return {
    code: 200,
    status: 'success' as const,
    upload_id: id,
    document_status: status,
    message,
    memories_deleted: deleted.memories,
    deleted,
  };
}

export type DocumentsService = ReturnType<typeof createDocumentsService>;
