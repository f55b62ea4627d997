import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../shared/errors.ts';

export interface Envelope {
  code: number;
  status: 'error';
  error: string;
  details: Record<string, unknown> | null;
}

export function envelope(code: number, error: string, details: Record<string, unknown> | null = null): Envelope {
  return { code, status: 'error', error, details };
}

/** Turn zod / Fastify validation issues into `{field: message}` details with the field names. */
function validationDetails(err: FastifyError): Record<string, unknown> {
  const issues = (err.validation ?? []).map((v) => {
    const where = err.validationContext ?? 'body';
    const path = v.instancePath ? v.instancePath.replace(/^\//, '').replace(/\//g, '.') : issuePath(v.params).join('.');
    return { location: where, field: path || null, message: v.message };
  });
  return { issues };
}

/** The path of a zod issue carried in a validation error's params (`params.issue.path`), else none. */
function issuePath(params: Record<string, unknown> | undefined): unknown[] {
  const issue = params?.issue;
  if (typeof issue !== 'object' || issue === null || !('path' in issue)) return [];
  return Array.isArray(issue.path) ? issue.path : [];
}

/** Fastify's own error codes that are client errors with a fixed status. */
const FASTIFY_STATUS: Record<string, number> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 413,
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 415,
  FST_ERR_CTP_EMPTY_JSON_BODY: 400,
  FST_ERR_CTP_INVALID_JSON_BODY: 400,
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 400,
};

/**
 * The single mapper from anything thrown to the spec's envelope. Internals of 5xx
 * errors are logged, never sent; non-idempotent requests that failed on our side carry
 * `x-should-retry: false` so the official client does not repeat the write.
 */
export function errorHandler(err: FastifyError | AppError, req: FastifyRequest, reply: FastifyReply) {
  let body: Envelope;
  if (err instanceof AppError) {
    body = envelope(err.code, err.message, err.details);
    if (err.shouldRetry !== undefined) reply.header('x-should-retry', String(err.shouldRetry));
  } else if ((err as FastifyError).validation) {
    body = envelope(422, `Request validation failed: ${err.message}`, validationDetails(err as FastifyError));
  } else if (err.code === 'FST_ERR_RESPONSE_SERIALIZATION' || !(err as FastifyError).statusCode) {
    req.log.error({ err }, 'unhandled error');
    body = envelope(500, 'Internal server error', { request_id: req.id });
  } else {
    const status = FASTIFY_STATUS[(err as FastifyError).code] ?? (err as FastifyError).statusCode ?? 500;
    if (status >= 500) req.log.error({ err }, 'server error');
    body = envelope(
      status,
      status >= 500 ? 'Internal server error' : err.message,
      status >= 500 ? { request_id: req.id } : null,
    );
    if (status === 429) body.error = 'Rate limit exceeded: retry after the number of seconds in Retry-After';
  }
  if (body.code >= 500 && req.method !== 'GET' && !reply.hasHeader('x-should-retry'))
    reply.header('x-should-retry', 'false');
  return reply.code(body.code).type('application/json; charset=utf-8').send(body);
}
