/**
 * The composition root's outer surface: the modules built on the core services (app.ts) —
 * feedback, telemetry, the AI proxy, GraphQL, OMO and sync, and the web console. Each reaches the others only through
 * the services handed in here.
 */
import type { FastifyPluginAsync } from 'fastify';
import { createAiProxyModule } from './modules/ai-proxy/index.ts';
import { createConsoleModule } from './modules/console/index.ts';
import { graphExport, graphReader } from './modules/graph/index.ts';
import { createGraphqlModule } from './modules/graphql/index.ts';
import { createFeedbackModule, feedbackRatedUp, type FeedbackSignal } from './modules/feedback/index.ts';
import type { MemoriesModule } from './modules/memories/index.ts';
import type { createMessagesModule } from './modules/messages/index.ts';
import { namespaceAccess, type createNamespacesModule } from './modules/namespaces/index.ts';
import { createPortabilityModule } from './modules/portability/index.ts';
import { findLoggedSearch, type SearchModule } from './modules/search/index.ts';
import { createTelemetryModule } from './modules/telemetry/index.ts';
import { userDirectory, type createUsersModule } from './modules/users/index.ts';
import type { CoreDeps } from './core-from-config.ts';

export interface SurfaceParts {
  memories: MemoriesModule;
  messages: ReturnType<typeof createMessagesModule>;
  search: SearchModule;
  /** The feedback module's boosts, when FEEDBACK_RANKING is on (search reads them too). */
  feedbackSignal?: FeedbackSignal;
  userAdmin: ReturnType<typeof createUsersModule>;
  namespaceAdmin: ReturnType<typeof createNamespacesModule>;
}

export function surfaceFromConfig({ config, db, log }: CoreDeps, parts: SurfaceParts) {
  const { memories, messages, search, feedbackSignal, userAdmin, namespaceAdmin } = parts;
  const users = userDirectory;
  const namespaces = namespaceAccess;
  // Feedback names a search by its query-log row, written beside the search's reply (settle waits for it).
  const feedback = createFeedbackModule({
    db,
    log,
    users,
    searches: { find: findLoggedSearch, settle: search.close },
    boosts: feedbackSignal,
  });
  const telemetry = createTelemetryModule({ db, enabled: config.TELEMETRY_ENABLED });
  // The AI proxy recalls memories through search and stores exchanges through messages.
  const ai = createAiProxyModule({
    db,
    log,
    config,
    search: search.service,
    messages: messages.service,
    users,
    maxContentBytes: config.MAX_CONTENT_BYTES,
  });
  // GraphQL reads and writes through the services above, with each request's actor.
  const graphql = createGraphqlModule({
    db,
    memories: memories.service,
    listing: memories.listing,
    search: search.service,
    graph: graphReader,
    users: userAdmin.service,
    namespaces: namespaceAdmin.service,
  });
  // OMO export/import and sync; imports store through the memories writer.
  const portability = createPortabilityModule({
    db,
    log,
    writer: memories.writer,
    users,
    namespaces,
    graph: graphExport,
    tombstoneRetentionDays: config.SYNC_TOMBSTONE_RETENTION_DAYS,
    ratedUp: feedbackRatedUp,
  });

  // The web console: static files calling the API above with the user's key; links to /login when OAuth is on.
  const consoleUi = createConsoleModule({ oauth: !!config.OAUTH_ISSUER });

  return {
    routes: [
      feedback.routes,
      telemetry.routes,
      ai.routes,
      graphql.routes,
      portability.routes,
      consoleUi.routes,
    ] as FastifyPluginAsync[],
    /** End what holds resources: the AI proxy's upstream connections (the app ends the feedback signal). */
    close: () => ai.close(),
  };
}
