/**
 * The composition root: every module built from its dependencies, in dependency order, and
 * mounted. Modules meet only here and through each other's `index.ts`
 * (`npm run lint` checks it; docs/ARCHITECTURE.md draws the graph).
 */
import type { FastifyInstance } from 'fastify';
import type { Config } from './config.ts';
import type { Db } from './platform/db/index.ts';
import type { Logger } from './platform/log.ts';
import { parseInThread } from './platform/documents/index.ts';
import { createHttpApp } from './platform/http/app.ts';
import { createWorker, defaultBackoff, type Worker } from './platform/jobs/index.ts';
import { createApiKeysModule, apiKeyStore } from './modules/api-keys/index.ts';
import { createAuthModule, sessionStore } from './modules/auth/index.ts';
import { graphReader } from './modules/graph/index.ts';
import { healthRoutes } from './modules/health/index.ts';
import { createDocumentsModule, documentsProcessing } from './modules/documents/index.ts';
import { createFeedbackBoosts } from './modules/feedback/index.ts';
import { memoryProcessing, memoryReader } from './modules/memories/index.ts';
import { createMcpModule } from './modules/mcp/index.ts';
import { createMessagesModule, messagesProcessing, sessionContent } from './modules/messages/index.ts';
import { createNamespacesModule, namespaceAccess } from './modules/namespaces/index.ts';
import { createOAuthModule } from './modules/oauth/index.ts';
import { createOrganizationsModule, firstOrganization } from './modules/organizations/index.ts';
import { createRealtimeModule } from './modules/realtime/index.ts';
import { committedRanker, createSearchModule } from './modules/search/index.ts';
import { createTransformModule, transformProcessing } from './modules/transform/index.ts';
import { rerankersFromConfig, transformerFromConfig } from './transform-from-config.ts';
import { embeddersFromConfig } from './platform/models/index.ts';
import { searchWarmUp, type Models, type SearchWarmUp } from './warm-up.ts';
import { eventsFromConfig, graphFromConfig, memoriesFromConfig } from './core-from-config.ts';
import { surfaceFromConfig } from './surface-from-config.ts';
import { localExtractor, summarizerFromConfig } from './models-from-config.ts';
import { createUsersModule, userDirectory } from './modules/users/index.ts';

export const VERSION = '0.1.0';

export interface AppDeps {
  config: Config;
  db: Db;
  log: Logger;
  /** The embedding models, shared when one process runs both roles (built from config if absent). */
  models?: Models;
  /**
   * Search's warm-up (`searchWarmUp` over `models`), started by the caller once the port is
   * open; /ready reports it. Without it buildApp warms search up before it returns.
   */
  warmUp?: SearchWarmUp;
}

export { searchWarmUp, type Models, type SearchWarmUp } from './warm-up.ts';

/** The HTTP API with every module mounted. */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config, db, log } = deps;
  const models = deps.models ?? embeddersFromConfig(config);
  const warmUp = deps.warmUp ?? searchWarmUp(deps, models);
  if (!deps.warmUp) await warmUp.start();

  // Identity and tenancy first: every module below resolves users and namespaces through them.
  const users = userDirectory;
  const namespaces = namespaceAccess;
  const oauth = createOAuthModule({ config, db, log, users, sessions: sessionStore, firstOrganization });
  const auth = createAuthModule({ db, keys: apiKeyStore, users, verifyBearer: oauth.verifyBearer });
  const apiKeys = createApiKeysModule({ db, namespaces });
  const { webhooks, publish } = eventsFromConfig(config);
  const { schemas, graph } = graphFromConfig(deps, models);
  // Graph transform on the query-side embedder: its callers wait for it like for a search.
  const transform = createTransformModule({
    db,
    transformer: transformerFromConfig(config, models.query.primary),
    rerankBodyLimit: config.RERANK_BODY_LIMIT_BYTES,
  });
  const memories = memoriesFromConfig(deps, models, {
    publish,
    webhooks,
    graph,
    checkTransform: transform.checkPolicy,
  });
  const messages = createMessagesModule({
    db,
    memories: memories.writer,
    users,
    namespaces,
    summarizer: summarizerFromConfig(config),
    publish,
    maxContentBytes: config.MAX_CONTENT_BYTES,
  });
  const documents = createDocumentsModule({
    db,
    memories: memories.writer,
    batches: memories.batches,
    users,
    namespaces,
    webhooks: webhooks.webhooks,
    maxDocumentBytes: config.MAX_DOCUMENT_BYTES,
  });
  const rerankers = rerankersFromConfig(config);
  // A user's feedback moves their later searches (docs/feedback.md); FEEDBACK_RANKING=false stores it only.
  const feedbackSignal = config.FEEDBACK_RANKING ? createFeedbackBoosts(db, config.FEEDBACK_HALF_LIFE_DAYS) : undefined;
  const search = createSearchModule({
    db,
    rerank: { ...rerankers, graph: transform.searchPort, ranker: committedRanker(), log },
    available: { ranker_a: !!rerankers.cohere, ranker_b: !!rerankers.chat, graph: true },
    rerankDepth: config.SEARCH_RERANK_DEPTH,
    log,
    embedders: models.query,
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
    neighbourHops: config.SEARCH_NEIGHBOUR_HOPS,
    speakerWeight: config.SEARCH_WEIGHT_SPEAKER,
    speakerManyWeight: config.SEARCH_WEIGHT_SPEAKER_MANY,
    namesManyWeight: config.SEARCH_WEIGHT_NAMES_MANY,
    recountsWeight: config.SEARCH_WEIGHT_RECOUNTS,
    timeWeight: config.SEARCH_WEIGHT_TIME,
    asksWeight: config.SEARCH_WEIGHT_ASKS,
    asksStatedWords: config.SEARCH_ASKS_STATED_WORDS,
    memories: memoryReader,
    users,
    graph: graphReader,
    feedback: feedbackSignal,
    feedbackWeight: config.FEEDBACK_WEIGHT,
    // MEMORY_SUPERSEDE=off turns the search side of supersession off too (docs/truth.md).
    factAnswers: config.MEMORY_SUPERSEDE === 'auto',
    modelsCacheDir: config.MODELS_CACHE_DIR,
  });
  // Deleting a user or a namespace removes what the modules above hold of it.
  const userAdmin = createUsersModule({
    db,
    namespaces,
    content: {
      ...memories.userContent,
      deleteUserSessions: sessionContent.deleteUserSessions,
      deleteUserDocuments: documents.content.deleteUserDocuments,
    },
  });
  const namespaceAdmin = createNamespacesModule({
    db,
    content: {
      memories: memories.namespaceContent,
      graph: graph.namespaceContent,
      sessions: sessionContent.namespace,
      documents: { deleteIn: documents.content.deleteIn },
    },
  });
  const realtime = createRealtimeModule({
    db,
    log,
    status: { memories: memories.status, documents: documents.service, sessions: messages.service },
    authenticate: auth.authenticator.authenticate,
    pollMs: config.WS_POLL_MS,
    authTimeoutMs: config.WS_AUTH_TIMEOUT_MS,
  });
  const organizations = createOrganizationsModule({ db, adminKey: config.ADMIN_API_KEY });
  const surface = surfaceFromConfig(deps, { memories, messages, search, feedbackSignal, userAdmin, namespaceAdmin });

  const app = await createHttpApp({
    log,
    authenticate: auth.authenticator.authenticate,
    bodyLimit: config.BODY_LIMIT_BYTES,
    compressMinBytes: config.COMPRESS_MIN_BYTES,
    rateLimit: { max: config.RATE_LIMIT_MAX, windowMs: config.RATE_LIMIT_WINDOW_MS },
    docs: config.DOCS_ENABLED,
    version: VERSION,
    idempotency: { db },
  });
  // Models built here are this app's to end (a process passing its own ends them itself).
  if (!deps.models) app.addHook('onClose', () => models.close());
  app.addHook('onClose', () => search.close());
  app.addHook('onClose', async () => feedbackSignal?.close());
  app.addHook('onClose', () => realtime.close());
  app.addHook('onClose', () => surface.close());
  await app.register(healthRoutes(db, VERSION, warmUp.status));
  await app.register(auth.routes);
  await app.register(oauth.routes);
  await app.register(realtime.routes);
  await app.register(memories.routes);
  await app.register(messages.routes);
  await app.register(documents.routes);
  await app.register(search.routes);
  await app.register(transform.routes);
  await app.register(namespaceAdmin.routes);
  await app.register(schemas.routes);
  await app.register(apiKeys.routes);
  await app.register(userAdmin.routes);
  for (const routes of surface.routes) await app.register(routes);
  // MCP over streamable HTTP: its tools call the routes above as the caller (docs/mcp.md).
  await app.register(createMcpModule({ version: VERSION }).routes);
  // Not mounted without an operator credential: the admin paths are then plain 404s.
  if (organizations.routes) await app.register(organizations.routes);
  return app;
}

/**
 * The background worker with every module's job handlers (the `worker` role; with PGlite it
 * always runs in the server process). Not started: the caller starts and stops it.
 */
export function buildWorker(deps: AppDeps): Worker {
  const { config, db, log } = deps;
  const models = deps.models ?? embeddersFromConfig(config);
  const { graph } = graphFromConfig(deps, models);
  const { webhooks, publish } = eventsFromConfig(config);
  const transform = transformProcessing({ db, transformer: transformerFromConfig(config, models.index.primary) });
  // The memory writes of messages: the same path as the API's (same checks, events and jobs).
  const { writer, batches } = memoriesFromConfig(deps, models, {
    publish,
    webhooks,
    graph,
    checkTransform: transform.checkPolicy,
  });
  return createWorker({
    db,
    log: log.child({ role: 'worker' }),
    handlers: {
      ...memoryProcessing({ publish, steps: [graph.builder, transform.step] }),
      ...transform.jobs,
      ...messagesProcessing({ linked: writer, summarizer: summarizerFromConfig(config), publish }),
      ...documentsProcessing({
        publish,
        writer,
        batches,
        // A thread per document, at background priority; OCR starts in it with the first scanned page.
        parse: (bytes, format, opts) =>
          parseInThread(bytes, format, { ...opts, ocr: config.OCR === 'local', nice: config.BACKGROUND_NICE }),
        maxPages: config.DOCUMENT_MAX_PAGES,
        chunkChars: config.DOCUMENT_CHUNK_CHARS,
      }),
      ...webhooks.jobs,
    },
    backoffMs: (attempt) => defaultBackoff(attempt, config.JOB_BACKOFF_BASE_MS),
    concurrency: config.WORKER_CONCURRENCY,
    pollMs: config.WORKER_POLL_MS,
    leaseMs: config.WORKER_LEASE_MS,
    shutdownGraceMs: config.WORKER_SHUTDOWN_GRACE_MS,
    // A PGlite data directory is locked to this process: jobs left running are orphans.
    exclusive: db.kind === 'pglite',
  });
}
