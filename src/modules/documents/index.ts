/**
 * Documents: uploads stored durably, parsed in the background (PDF, DOCX, HTML, Markdown, text,
 * images with OCR), chunked by their structure and stored as memories of one batch per upload
 * (docs/documents.md). Built after the memories module, whose writer stores the chunks.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Queryable } from '../../platform/db/index.ts';
import type { JobHandler } from '../../platform/jobs/index.ts';
import { receipt } from '../../shared/receipt.ts';
import { purgeEmptyBatches } from '../memories/index.ts';
import { purgeUploads } from './documents.store.ts';
import { documentsJobs, type DocumentJobDeps } from './documents.jobs.ts';
import { documentsRoutes } from './documents.routes.ts';
import { createDocumentsService, type DocumentsDeps } from './documents.service.ts';

export function createDocumentsModule(deps: DocumentsDeps & { maxDocumentBytes: number }) {
  const service = createDocumentsService(deps);
  const routes: FastifyPluginAsyncZod = async (app) => app.register(documentsRoutes(service, deps.maxDocumentBytes));
  return {
    service,
    routes,
    /** What a user or a namespace deletion removes of documents (the users and namespaces modules' ports). */
    content: documentContent,
  };
}

/** Uploads matching `where`, with the events of their batches no memory is left of (deleted before). */
async function purge(tx: Queryable, org: string, where: string, params: unknown[]) {
  const uploads = await purgeUploads(tx, org, where, params);
  const batch = await purgeEmptyBatches(tx, org, uploads.ids);
  return receipt(uploads.receipt, { events: batch.events, webhook_deliveries: batch.deliveries, jobs: batch.jobs });
}

/**
 * What deleting a user's memories (delete-all, a user deletion) or a namespace removes of
 * documents, after the memories: the uploads, their chunk records, files, jobs and batch events.
 * Stateless, like the messages module's sessionContent.
 */
export const documentContent = {
  deleteUserDocuments: (tx: Queryable, org: string, userId: string, namespaceId: string | null) =>
    namespaceId
      ? purge(tx, org, 'organization_id = $1 AND user_id = $2 AND namespace_id = $3', [org, userId, namespaceId])
      : purge(tx, org, 'organization_id = $1 AND user_id = $2', [org, userId]),
  deleteIn: (tx: Queryable, org: string, namespaceId: string) =>
    purge(tx, org, 'organization_id = $1 AND namespace_id = $2', [org, namespaceId]),
};

/** The job handler (the worker's): parsing an upload and storing its chunks as memories. */
export function documentsProcessing(deps: DocumentJobDeps): Record<string, JobHandler> {
  return documentsJobs(deps);
}

export type { DocumentsService } from './documents.service.ts';
export { uploadParams } from './documents.schemas.ts';
