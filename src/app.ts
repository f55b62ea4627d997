import type { FastifyInstance } from 'fastify';
import type { Config } from './config.ts';
import type { Db } from './platform/db/index.ts';
import type { Logger } from './platform/log.ts';
import { createHttpApp } from './platform/http/app.ts';
import { createAuthenticator } from './modules/auth/auth.service.ts';
import { authRoutes } from './modules/auth/auth.routes.ts';
import { createOAuthModule } from './modules/oauth/index.ts';
import { healthRoutes } from './modules/health/health.routes.ts';
import { createMemoriesService } from './modules/memories/memories.service.ts';
import { memoriesRoutes } from './modules/memories/memories.routes.ts';
import { memoryJobs } from './modules/memories/memories.jobs.ts';
import { createMemoryStatusService } from './modules/memories/status.service.ts';
import { statusRoutes } from './modules/memories/status.routes.ts';
import { createWorker, defaultBackoff, type Worker } from './platform/jobs/index.ts';
import { createEventPublisher } from './platform/events/index.ts';
import { createWebhooks, type WebhookSettings } from './modules/webhooks/webhooks.service.ts';
import { webhookJobs } from './modules/webhooks/webhooks.jobs.ts';
import { createRealtime } from './modules/realtime/realtime.service.ts';
import { realtimeRoutes } from './modules/realtime/realtime.routes.ts';
import { createSearchService } from './modules/search/search.service.ts';
import { searchRoutes } from './modules/search/search.routes.ts';
import { embeddersFromConfig } from './modules/search/embedders.ts';
import { ensureVectorIndex } from './modules/search/dense.store.ts';
import { countStaleVectors } from './modules/search/reembed.ts';
import { createNamespacesService } from './modules/namespaces/namespaces.service.ts';
import { namespacesRoutes } from './modules/namespaces/namespaces.routes.ts';
import { createSchemasService } from './modules/schemas/schemas.service.ts';
import { schemasRoutes } from './modules/schemas/schemas.routes.ts';
import { createApiKeysService } from './modules/api-keys/api-keys.service.ts';
import { apiKeysRoutes } from './modules/api-keys/api-keys.routes.ts';
import { createUsersService } from './modules/users/users.service.ts';
import { usersRoutes } from './modules/users/users.routes.ts';
import { createAdminService } from './modules/organizations/admin.service.ts';
import { adminRoutes } from './modules/organizations/admin.routes.ts';
import { LOCAL_EXTRACTOR_ID, lazyExtractor, type Extractor } from './platform/models/extractor.ts';
import { createLlmExtractor } from './platform/models/extractor.llm.ts';
import { createGraphBuilder } from './modules/graph/graph.builder.ts';
import { getActiveSchema } from './modules/schemas/schemas.service.ts';

export const VERSION = '0.1.0';

/** The graph extractor of the configuration (local rules by default). */
function extractorFromConfig(config: Config): Extractor {
  if (config.EXTRACTOR === 'llm') {
    return createLlmExtractor({
      baseUrl: config.LLM_BASE_URL!,
      model: config.LLM_MODEL!,
      apiKey: config.LLM_API_KEY,
      timeoutMs: config.LLM_TIMEOUT_MS,
    });
  }
  return localExtractor();
}

/** The compromise-based extractor, loaded on first use (docs/graph.md). */
const localExtractor = () =>
  lazyExtractor(LOCAL_EXTRACTOR_ID, async () =>
    (await import('./platform/models/extractor.local.ts')).createLocalExtractor(),
  );

export interface AppDeps {
  config: Config;
  db: Db;
  log: Logger;
  /** The embedding models, shared when one process runs both roles (built from config if absent). */
  models?: Models;
}

export type Models = ReturnType<typeof embeddersFromConfig>;

const webhookSettings = (config: Config): WebhookSettings => ({
  allowPrivate: config.WEBHOOK_ALLOW_PRIVATE,
  maxAttempts: config.WEBHOOK_MAX_ATTEMPTS,
  timeoutMs: config.WEBHOOK_TIMEOUT_MS,
});

/** The event bus with its subscribers: webhooks are triggered by the events they report. */
export function buildEvents(config: Config) {
  const webhooks = createWebhooks(webhookSettings(config));
  return { webhooks, publish: createEventPublisher([webhooks.onEvent]) };
}

/** Composition root: build every module from its dependencies and mount its routes. */
export async function buildApp({ config, db, log, models }: AppDeps): Promise<FastifyInstance> {
  const embedders = models ?? embeddersFromConfig(config);
  await embedders.load();
  for (const [slot, e] of [
    ['embedding', embedders.index.primary],
    ['embedding2', embedders.index.secondary],
  ] as const) {
    if (e) await ensureVectorIndex(db, slot, e.id, e.dimensions);
  }
  const stale = await countStaleVectors(db, embedders.index);
  if (stale.embedding || stale.embedding2) {
    log.warn(
      { stale },
      'Some stored vectors come from another embedding model; search ignores them in that signal until `npm run reembed` re-embeds them',
    );
  }
  const oauth = createOAuthModule({ config, db, log });
  const auth = createAuthenticator(db, oauth.verifyBearer);
  const events = buildEvents(config);
  const memories = createMemoriesService({
    db,
    embedders: embedders.index,
    maxContentBytes: config.MAX_CONTENT_BYTES,
    log,
    ...events,
  });
  const status = createMemoryStatusService({ db });
  const search = createSearchService({
    db,
    embedders: embedders.query,
    weights: {
      bm25: config.SEARCH_WEIGHT_BM25,
      dense: config.SEARCH_WEIGHT_DENSE,
      dense2: config.SEARCH_WEIGHT_DENSE2,
      graph: config.SEARCH_WEIGHT_GRAPH,
    },
    // Query entities are recognised locally even with an LLM extractor: a search must not wait on one.
    extractor: localExtractor(),
    bm25: { k1: config.SEARCH_BM25_K1, b: config.SEARCH_BM25_B },
    candidates: config.SEARCH_CANDIDATES,
    neighbourWeight: config.SEARCH_NEIGHBOUR_WEIGHT,
    log,
  });

  const app = await createHttpApp({
    log,
    authenticate: auth.authenticate,
    bodyLimit: config.BODY_LIMIT_BYTES,
    compressMinBytes: config.COMPRESS_MIN_BYTES,
    rateLimit: { max: config.RATE_LIMIT_MAX, windowMs: config.RATE_LIMIT_WINDOW_MS },
    docs: config.DOCS_ENABLED,
    version: VERSION,
  });
  // Models built here are this app's to end (a process passing its own ends them itself).
  if (!models) app.addHook('onClose', () => embedders.close());
  app.addHook('onClose', () => search.close());
  await app.register(healthRoutes(db, VERSION));
  await app.register(authRoutes(auth));
  await app.register(oauth.routes);
  // Before memoriesRoutes: the static /status/ segments must stay visibly separate from /:memory_id.
  await app.register(statusRoutes(status));
  const realtime = createRealtime({
    db,
    log,
    status,
    authenticate: auth.authenticate,
    pollMs: config.WS_POLL_MS,
    authTimeoutMs: config.WS_AUTH_TIMEOUT_MS,
  });
  await app.register(realtimeRoutes(realtime));
  app.addHook('onClose', () => realtime.close());
  await app.register(memoriesRoutes(memories));
  await app.register(searchRoutes(search));
  await app.register(namespacesRoutes(createNamespacesService(db)));
  await app.register(schemasRoutes(createSchemasService(db)));
  await app.register(apiKeysRoutes(createApiKeysService(db)));
  await app.register(usersRoutes(createUsersService(db)));
  // Not mounted without an operator credential: the admin paths are then plain 404s.
  if (config.ADMIN_API_KEY) await app.register(adminRoutes(createAdminService(db, config.ADMIN_API_KEY)));
  return app;
}

/**
 * The background worker with every module's job handlers (the `worker` role; with PGlite it
 * always runs in the server process). Not started: the caller starts and stops it.
 */
export function buildWorker({ config, db, log, models }: AppDeps): Worker {
  // Loaded on the first semantic constraint match only; cached, since stored names repeat.
  const primary = (models ?? embeddersFromConfig(config)).query.primary;
  const graph = createGraphBuilder({
    db,
    log,
    extractor: extractorFromConfig(config),
    embed: (texts) => primary.embed(texts),
    schema: (organizationId, schemaId) => getActiveSchema(db, organizationId, schemaId).catch(() => null),
  });
  return createWorker({
    db,
    log: log.child({ role: 'worker' }),
    handlers: { ...memoryJobs(buildEvents(config).publish, [graph]), ...webhookJobs(webhookSettings(config)) },
    backoffMs: (attempt) => defaultBackoff(attempt, config.JOB_BACKOFF_BASE_MS),
    concurrency: config.WORKER_CONCURRENCY,
    pollMs: config.WORKER_POLL_MS,
    visibilityMs: config.WORKER_VISIBILITY_MS,
    shutdownGraceMs: config.WORKER_SHUTDOWN_GRACE_MS,
    // A PGlite data directory is locked to this process: jobs left running are orphans.
    exclusive: db.kind === 'pglite',
  });
}
