/**
 * Reading POST /v1/document's multipart body: the one `file` part into memory (bounded by
 * MAX_DOCUMENT_BYTES, counted while it streams, so an oversize upload stops early with a 413)
 * and the text parts as strings. Multipart's own errors become the envelope's 4xx here.
 */
import type { FastifyRequest } from 'fastify';
import { AppError, unprocessable } from '../../shared/errors.ts';

export interface UploadedFile {
  filename: string;
  mimetype: string;
  bytes: Buffer;
}

/** Fastify multipart error codes → what the caller did wrong. */
function multipartError(err: unknown, maxBytes: number): never {
  const code = (err as { code?: string }).code;
  if (code === 'FST_REQ_FILE_TOO_LARGE')
    throw new AppError(413, `The file is larger than the limit of ${maxBytes} bytes`, { limit: maxBytes });
  if (code === 'FST_INVALID_MULTIPART_CONTENT_TYPE')
    throw new AppError(415, 'Send the document as multipart/form-data with a `file` part');
  if (code === 'FST_FILES_LIMIT') throw unprocessable('Send one file per upload', { field: 'file' });
  if (code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT')
    throw new AppError(413, 'Too many form fields', { code });
  // Anything else thrown while the parts stream in is the body's own fault (busboy's "Boundary
  // not found", a truncated part, a dropped connection): the request is malformed, not the server.
  throw new AppError(400, `Malformed multipart body: ${(err as Error).message}`, code ? { code } : null);
}

export async function readUploadForm(
  req: FastifyRequest,
  maxBytes: number,
): Promise<{ fields: Record<string, string>; file: UploadedFile }> {
  if (!req.isMultipart()) throw new AppError(415, 'Send the document as multipart/form-data with a `file` part');
  const fields: Record<string, string> = {};
  let file: UploadedFile | undefined;
  try {
    for await (const part of req.parts({ limits: { fileSize: maxBytes, files: 1, fields: 40, fieldSize: 200_000 } })) {
      if (part.type === 'file') {
        if (part.fieldname !== 'file') {
          await part.toBuffer(); // drained: a stray file part must not stall the stream
          throw unprocessable(`Unexpected file part "${part.fieldname}": the document goes in the part named file`, {
            field: part.fieldname,
          });
        }
        file = { filename: part.filename || 'document', mimetype: part.mimetype, bytes: await part.toBuffer() };
      } else if (typeof part.value === 'string') {
        fields[part.fieldname] = part.value;
      }
    }
  } catch (err) {
    if (err instanceof AppError) throw err;
    multipartError(err, maxBytes);
  }
  if (!file) throw unprocessable('The upload has no file: send it in a part named file', { field: 'file' });
  if (file.bytes.length === 0) throw unprocessable('The file is empty', { field: 'file' });
  return { fields, file };
}
