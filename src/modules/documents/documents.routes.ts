import multipart from '@fastify/multipart';
import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { validatorCompiler, type FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponses, errorEnvelope } from '../../platform/http/schemas.ts';
import {
  cancelQuery,
  cancelResponse,
  statusQuery,
  statusResponse,
  uploadForm,
  uploadParams,
  uploadResponse,
} from './documents.schemas.ts';
import type { DocumentsService } from './documents.service.ts';
import { readUploadForm } from './upload-form.ts';

/** Each upload's form, read once before the handler. */
const forms = new WeakMap<FastifyRequest, Awaited<ReturnType<typeof readUploadForm>>>();

const tags = ['documents'];

/** Document upload, status and cancel (client `document.*`; docs/documents.md). Thin: read, one call, shape. */
export function documentsRoutes(documents: DocumentsService, maxBytes: number): FastifyPluginAsyncZod {
  return async (app) => {
    // Only this plugin parses multipart bodies; the file limit is checked while it streams.
    await app.register(multipart, { limits: { fileSize: maxBytes, files: 1 } });

    app.post(
      '/v1/document',
      {
        config: { idempotent: true },
        // The form is read before the Idempotency-Key claim, which compares its fields and the
        // file's hash (the multipart boundary differs between two sends of one upload).
        preValidation: async (req) => {
          const form = await readUploadForm(req, maxBytes);
          forms.set(req, form);
          req.idempotencyContent = {
            fields: form.fields,
            file: {
              filename: form.file.filename,
              mimetype: form.file.mimetype,
              sha256: createHash('sha256').update(form.file.bytes).digest('hex'),
            },
          };
        },
        schema: {
          tags,
          summary: 'Upload a document (multipart/form-data: `file` and the text parts); processed in the background',
          consumes: ['multipart/form-data'],
          body: uploadForm,
          response: { 202: uploadResponse, 413: errorEnvelope, 415: errorEnvelope, ...errorResponses },
        },
        // The form is documented, not validated here: the parts stream in the handler (upload-form.ts).
        validatorCompiler: (route) =>
          route.httpPart === 'body'
            ? () => ({ value: undefined })
            : validatorCompiler(route as unknown as Parameters<typeof validatorCompiler>[0]),
      },
      async (req, reply) => {
        const { fields, file } = forms.get(req)!;
        return reply.code(202).send(await documents.upload(req.actor, fields, file));
      },
    );

    app.get(
      '/v1/document/status/:upload_id',
      {
        schema: {
          tags,
          summary: 'Processing status of an upload; timeline=true adds its steps',
          params: uploadParams,
          querystring: statusQuery,
          response: { 200: statusResponse, ...errorResponses },
        },
      },
      async (req) => documents.status(req.actor, req.params.upload_id, req.query.timeline ?? false),
    );

    app.delete(
      '/v1/document/:upload_id',
      {
        schema: {
          tags,
          summary: 'Cancel processing; delete_memories=true also deletes the memories made so far',
          params: uploadParams,
          querystring: cancelQuery,
          response: { 200: cancelResponse, ...errorResponses },
        },
      },
      async (req) => documents.cancel(req.actor, req.params.upload_id, req.query.delete_memories ?? false),
    );
  };
}
