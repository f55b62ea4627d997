/**
 * `Idempotency-Key` on writes (docs/api-conventions.md, "Idempotent writes"). A route opts in
 * with `config: { idempotent: true }`; everything else happens here, once for every such route:
 *
 * - the header is added to the route's schema (validated: 1–255 printable ASCII characters, and
 *   documented in the OpenAPI document with the 409 it may answer);
 * - before the handler (after authentication and validation), the key is claimed
 *   in the caller's scope (organization, credential namespace, key) by one INSERT: the winner
 *   runs the handler, a request finding the key answered replays that answer
 *   (`Idempotent-Replayed: true`), finding it still running is a 409, and with another request
 *   under the key a 422;
 * - when the response is sent, a 2xx is remembered for 24 h and anything else gives the key
 *   back (a failed request may be retried with the same key).
 *
 * Requests without the header are untouched (no statement at all).
 */
import { createHash, randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Queryable } from '../db/index.ts';
import type { Logger } from '../log.ts';
import { AppError } from '../../shared/errors.ts';
import {
  claimIdempotencyKey,
  completeIdempotencyKey,
  findIdempotencyKey,
  releaseIdempotencyKey,
  type IdempotencyScope,
} from './idempotency.store.ts';
import { errorEnvelope } from './schemas.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route takes an `Idempotency-Key` header (a write; src/platform/http/idempotency.ts). */
    idempotent?: boolean;
  }
  interface FastifyRequest {
    /**
     * What identifies the request's content when Fastify does not parse its body (a multipart
     * upload: its fields and the file's hash), set by the route before the claim; else the body.
     */
    idempotencyContent?: unknown;
  }
}

export const IDEMPOTENCY_HEADER = 'idempotency-key';
export const REPLAYED_HEADER = 'idempotent-replayed';
/** Printable ASCII (space to tilde), as Stripe and the IETF draft allow. */
const KEY = /^[\x20-\x7e]{1,255}$/;

export interface IdempotencyOptions {
  db: Queryable;
  log: Logger;
  /** How long an answered key replays (24 h). */
  ttlMs?: number;
  /** A claim older than this whose request never finished (a crashed process) may be taken over. */
  pendingMs?: number;
}

/** The header in a route's schema (documented in OpenAPI; other headers pass through untouched). */
export const idempotencyHeaders = z.looseObject({
  [IDEMPOTENCY_HEADER]: z
    .string()
    .regex(KEY, 'must be 1–255 printable ASCII characters')
    .optional()
    .describe(
      'Makes the write safe to retry: a repeat with the same key within 24 h (same organization and namespace) ' +
        'answers the first 2xx response again, with `Idempotent-Replayed: true`, and stores nothing. The same key ' +
        'with another request is a 422, while the first is still running a 409. 1–255 printable ASCII characters',
    ),
});

const conflict409 = errorEnvelope.describe(
  'Error: a request with the same Idempotency-Key is still being processed; retry shortly',
);

/** Keys sorted at every level: the same JSON value always hashes the same, whatever the key order. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object' && !(value instanceof Date)) {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** What makes two requests "the same": route, parameters, query, content, and a token-only caller's user. */
function requestHash(req: FastifyRequest): string {
  const content = req.idempotencyContent !== undefined ? req.idempotencyContent : req.body;
  // An end user's own token shares the organization's key space with the application's keys;
  // their user is part of the request, so another user's replay is a 422, never their answer.
  const user = req.actor.apiKeyId ? null : req.actor.userId;
  const text = canonicalJson({
    method: req.method,
    route: req.routeOptions.url,
    params: req.params,
    query: req.query,
    content,
    user,
  });
  return createHash('sha256').update(text).digest('hex');
}

function keyOf(req: FastifyRequest): string | undefined {
  const raw = req.headers[IDEMPOTENCY_HEADER];
  if (raw === undefined) return undefined;
  if (typeof raw !== 'string' || !KEY.test(raw))
    throw new AppError(422, 'Idempotency-Key must be 1–255 printable ASCII characters', {
      field: 'headers.idempotency-key',
    });
  return raw;
}

const inHand = new WeakMap<FastifyRequest, { scope: IdempotencyScope; claimId: string }>();

/** Mount the mechanism on `app` (before routes are registered: it extends their schemas). */
export function registerIdempotency(app: FastifyInstance, opts: IdempotencyOptions): void {
  const ttlMs = opts.ttlMs ?? 24 * 3_600_000;
  const pendingMs = opts.pendingMs ?? 10 * 60_000;
  const { db } = opts;

  app.addHook('onRoute', (route) => {
    if (!route.config?.idempotent) return;
    const schema = (route.schema ??= {});
    schema.headers ??= idempotencyHeaders;
    schema.response = { 409: conflict409, ...(schema.response as object) };
  });

  app.addHook('preHandler', async (req: FastifyRequest, reply: FastifyReply) => {
    if (!req.routeOptions.config?.idempotent) return;
    const key = keyOf(req);
    if (key === undefined) return;
    const scope = { organizationId: req.actor.organizationId, namespaceKey: req.actor.namespaceId ?? '', key };
    const hash = requestHash(req);
    const claimId = randomUUID();
    // A live row can vanish between the failed claim and the read (its request failed and gave
    // the key back): claim again then.
    for (let attempt = 0; attempt < 3; attempt++) {
      if (await claimIdempotencyKey(db, scope, hash, claimId, ttlMs, pendingMs)) {
        inHand.set(req, { scope, claimId });
        return;
      }
      const held = await findIdempotencyKey(db, scope);
      if (!held) continue;
      if (held.request_hash !== hash)
        throw new AppError(
          422,
          'Idempotency-Key was already used for a different request; use a new key for a new request',
          { header: 'Idempotency-Key' },
        );
      if (held.status === 'pending')
        throw new AppError(409, 'A request with this Idempotency-Key is still being processed; retry shortly', {
          header: 'Idempotency-Key',
        });
      reply
        .code(held.response_status!)
        .header('content-type', held.response_type ?? 'application/json; charset=utf-8')
        .header(REPLAYED_HEADER, 'true');
      return reply.send(held.response_body);
    }
    throw new AppError(409, 'A request with this Idempotency-Key is changing state; retry shortly', {
      header: 'Idempotency-Key',
    });
  });

  // Before compression's own onSend (registered later): the payload is still the serialised body.
  app.addHook('onSend', async (req, reply, payload) => {
    const held = inHand.get(req);
    if (!held) return payload;
    inHand.delete(req);
    const ok = reply.statusCode >= 200 && reply.statusCode < 300;
    const body = typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : null;
    try {
      if (ok && body !== null) {
        const type = String(reply.getHeader('content-type') ?? 'application/json; charset=utf-8');
        await completeIdempotencyKey(db, held.scope, held.claimId, { status: reply.statusCode, type, body });
      } else {
        await releaseIdempotencyKey(db, held.scope, held.claimId);
      }
    } catch (err) {
      // The write itself is done; a key left pending answers 409 until pendingMs, then is free again.
      opts.log.warn({ err, reqId: req.id }, 'idempotency: recording the response failed');
    }
    return payload;
  });
}
