/**
 * Documents: uploads stored durably, parsed in the background (PDF, DOCX, HTML, Markdown, text,
 * images with OCR), chunked by their structure and stored as memories of one batch per upload
 * (docs/documents.md). Built after the memories module, whose writer stores the chunks.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { JobHandler } from '../../platform/jobs/index.ts';
import { documentsJobs, type DocumentJobDeps } from './documents.jobs.ts';
import { documentsRoutes } from './documents.routes.ts';
import { createDocumentsService, type DocumentsDeps } from './documents.service.ts';

export function createDocumentsModule(deps: DocumentsDeps & { maxDocumentBytes: number }) {
  const service = createDocumentsService(deps);
  const routes: FastifyPluginAsyncZod = async (app) => app.register(documentsRoutes(service, deps.maxDocumentBytes));
  return { service, routes };
}

/** The job handler (the worker's): parsing an upload and storing its chunks as memories. */
export function documentsProcessing(deps: DocumentJobDeps): Record<string, JobHandler> {
  return documentsJobs(deps);
}

export type { DocumentsService } from './documents.service.ts';
export { uploadParams } from './documents.schemas.ts';
