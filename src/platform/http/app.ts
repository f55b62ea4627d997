import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import compress from '@fastify/compress';
import websocket from '@fastify/websocket';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { randomUUID } from 'node:crypto';
import { constants as zlib } from 'node:zlib';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import type { Logger } from '../log.ts';
import type { Actor } from '../../shared/actor.ts';
import { envelope, errorHandler } from './errors.ts';
import { registerIdempotency, type IdempotencyOptions } from './idempotency.ts';
import { boundJsonDepth } from './json-body.ts';
import { normaliseInput } from './normalise.ts';
import { methodNotAllowed, trackRoutes } from './routes-index.ts';
import { rejectUnstorableText } from './text-guard.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The authenticated caller; set on every route not marked `config.public`. */
    actor: Actor;
  }
  interface FastifyContextConfig {
    /** Routes reachable without credentials (health, docs, the login flow). */
    public?: boolean;
  }
}

export interface HttpOptions {
  log: Logger;
  authenticate: (headers: Record<string, string | string[] | undefined>) => Promise<Actor>;
  bodyLimit: number;
  /** Smallest response body that is compressed (COMPRESS_MIN_BYTES). */
  compressMinBytes?: number;
  rateLimit: { max: number; windowMs: number };
  docs: boolean;
  version: string;
  /** Where `Idempotency-Key` claims and answers are kept; without it the header is not taken. */
  idempotency?: Omit<IdempotencyOptions, 'log'>;
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Response compression (spec §8: bodies over 1 KB, for clients that accept it), set for speed.
 * Measured by `npm run bench:compress` on 2 cores (search pages of 1 KB–256 KB):
 * - Level 1 / quality 1: 0.04 ms for 20 KB, 0.12–0.19 ms for 100 KB, about a third of gzip 6's
 *   and brotli 4's time (the library's defaults), for 8–25 % more bytes.
 * - One call per response, not a zlib stream: through the stream (the library's way above 8 KB
 *   on 2 cores) a 20 KB page cost +0.9 ms end to end on a quiet machine and +4.7 ms on a busy
 *   one (why COMPRESS_MIN_BYTES used to be 32 KB); in one call +0.05–0.1 ms. Up to 256 KB the
 *   call holds the event loop under 1 ms (gzip 0.9 ms, br 0.4 ms); bigger bodies stream.
 * - br is preferred when offered (curl --compressed, browsers): quality 1 is faster than gzip
 *   level 1 from ~100 KB on (0.12 vs 0.19 ms; 256 KB: 0.37 vs 0.88 ms), with smaller output.
 */
export const COMPRESSION = {
  encodings: ['br', 'gzip', 'deflate'],
  zlibOptions: { level: 1 },
  brotliOptions: { params: { [zlib.BROTLI_PARAM_QUALITY]: 1 } },
  syncThreshold: 256 * 1024,
} as const;

/**
 * Build the Fastify instance with every cross-cutting rule: request ids, auth on every
 * non-public route, JSON bodies of bounded depth, no NUL or lone surrogate anywhere in the
 * input, null/empty input normalisation, Idempotency-Key on the writes that opt in, per-key
 * rate limits, compression over 1 KB,
 * OpenAPI from the zod schemas, and the one error envelope (unknown paths included).
 */
export async function createHttpApp(opts: HttpOptions): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: opts.log as FastifyBaseLogger,
    bodyLimit: opts.bodyLimit,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 1000 },
    // Errors the router answers before any hook (a path that does not decode, e.g. an encoded
    // lone surrogate; an over-long parameter) get the envelope too, not Fastify's own body.
    frameworkErrors: (err, req, reply) => {
      void errorHandler(err, req, reply.header('x-request-id', req.id));
    },
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.setErrorHandler(errorHandler);
  app.decorateRequest('actor', null as unknown as Actor);
  trackRoutes(app);
  // The docs viewer's own routes (registered by a plugin) are public like /openapi.json.
  app.addHook('onRoute', (route) => {
    if (route.url.startsWith('/docs')) route.config = { ...(route.config as object), public: true };
  });

  app.addHook('onRequest', async (req, reply) => {
    reply.header('x-request-id', req.id);
    if (req.routeOptions.config?.public || !req.routeOptions.url) return;
    req.actor = await opts.authenticate(req.headers);
  });
  boundJsonDepth(app);
  // Unstorable text (NUL, lone surrogates) is refused before anything reads the input.
  app.addHook('preValidation', rejectUnstorableText);
  app.addHook('preValidation', normaliseInput);
  // Before compression: its onSend must see the serialised body, not the compressed stream.
  if (opts.idempotency) registerIdempotency(app, { ...opts.idempotency, log: opts.log });

  await app.register(compress, {
    ...COMPRESSION,
    encodings: [...COMPRESSION.encodings],
    threshold: opts.compressMinBytes ?? 1024,
  });
  // Status streams only receive small control messages (the auth message).
  await app.register(websocket, { options: { maxPayload: 64 * 1024 } });
  if (opts.rateLimit.max > 0) {
    await app.register(rateLimit, {
      max: opts.rateLimit.max,
      timeWindow: opts.rateLimit.windowMs,
      hook: 'preHandler', // after authentication, so the limit is per API key
      keyGenerator: (req) => req.actor?.apiKeyId ?? req.actor?.userId ?? req.ip,
      allowList: (req) => !!req.routeOptions.config?.public,
    });
  }

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Engram', version: opts.version, description: 'Context and memory service for AI agents' },
      components: {
        securitySchemes: {
          apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
          sessionToken: { type: 'apiKey', in: 'header', name: 'X-Session-Token' },
          bearer: { type: 'http', scheme: 'bearer' },
          adminKey: { type: 'apiKey', in: 'header', name: 'X-Admin-Key' },
        },
      },
      security: [{ apiKey: [] }, { sessionToken: [] }, { bearer: [] }],
    },
    transform: jsonSchemaTransform,
  });
  if (opts.docs) await app.register(swaggerUi, { routePrefix: '/docs', uiConfig: { url: '/openapi.json' } });
  app.get('/openapi.json', { config: { public: true }, schema: { hide: true } }, async () => app.swagger());

  app.setNotFoundHandler((req, reply) => {
    const allowed = methodNotAllowed(app, req.method, req.url);
    if (allowed) {
      return reply
        .code(405)
        .header('allow', allowed.join(', '))
        .send(envelope(405, `Method ${req.method} not allowed on this path`, { allow: allowed }));
    }
    return reply.code(404).send(envelope(404, `Route ${req.method} ${req.url.split('?')[0]} not found`));
  });
  return app;
}
