/**
 * The composition root's core, built alike for the API and the worker: events and webhooks, the
 * graph (its builder, the write-time plan), and the memories module over them (app.ts).
 */
import type { Config } from './config.ts';
import type { Db } from './platform/db/index.ts';
import { createEventPublisher } from './platform/events/index.ts';
import type { Logger } from './platform/log.ts';
import type { Actor } from './shared/actor.ts';
import { createGraphModule } from './modules/graph/index.ts';
import { createMemoriesModule } from './modules/memories/index.ts';
import { sessionContent } from './modules/messages/index.ts';
import { documentContent } from './modules/documents/index.ts';
import { namespaceAccess } from './modules/namespaces/index.ts';
import { organizationTruth } from './modules/organizations/index.ts';
import { omoMemoryBodies } from './modules/portability/index.ts';
import { createSchemasModule } from './modules/schemas/index.ts';
import { userDirectory } from './modules/users/index.ts';
import { createWebhooksModule, type WebhookSettings } from './modules/webhooks/index.ts';
import { extractorFromConfig, updateDeciderFromConfig } from './models-from-config.ts';
import type { Models } from './warm-up.ts';

export interface CoreDeps {
  config: Config;
  db: Db;
  log: Logger;
}

const webhookSettings = (config: Config): WebhookSettings => ({
  allowPrivate: config.WEBHOOK_ALLOW_PRIVATE,
  maxAttempts: config.WEBHOOK_MAX_ATTEMPTS,
  timeoutMs: config.WEBHOOK_TIMEOUT_MS,
});

/** Webhooks, and the event publisher with them as subscriber (they are triggered by the events they report). */
export function eventsFromConfig(config: Config) {
  const webhooks = createWebhooksModule(webhookSettings(config));
  return { webhooks, publish: createEventPublisher([webhooks.onEvent]) };
}

/** The graph module: its builder is a processing step, its policy check runs at write time. */
export function graphFromConfig({ config, db, log }: CoreDeps, models: Models) {
  const namespaces = namespaceAccess;
  const schemas = createSchemasModule({ db, namespaces });
  // Query entities are matched semantically with the primary embedder (cached), loaded on first use.
  const primary = models.query.primary;
  const graph = createGraphModule({
    db,
    log,
    extractor: extractorFromConfig(config),
    embed: (texts) => primary.embed(texts),
    schemas,
  });
  return { schemas, graph };
}

/**
 * The memories module over the app's (or the worker's) events, webhooks and graph; delete-all
 * reaches sessions and documents.
 */
export function memoriesFromConfig(
  { config, db, log }: CoreDeps,
  models: Models,
  parts: {
    publish: ReturnType<typeof eventsFromConfig>['publish'];
    webhooks: ReturnType<typeof eventsFromConfig>['webhooks'];
    graph: ReturnType<typeof graphFromConfig>['graph'];
    /** The transform module's write-time check of policy.transform_embedding. */
    checkTransform: (actor: Actor, policy: unknown) => Promise<void>;
  },
) {
  return createMemoriesModule({
    db,
    log,
    embedders: models.index,
    maxContentBytes: config.MAX_CONTENT_BYTES,
    truth: { dedupe: config.MEMORY_DEDUPE, supersede: config.MEMORY_SUPERSEDE },
    organizationTruth,
    modelsCacheDir: config.MODELS_CACHE_DIR,
    decider: updateDeciderFromConfig(config),
    publish: parts.publish,
    webhooks: parts.webhooks.webhooks,
    users: userDirectory,
    namespaces: namespaceAccess,
    // The write-time plan: the graph policy's, after the transform policy's domain is checked.
    planGraph: async (q, actor, policy, budget) => {
      await parts.checkTransform(actor, (policy as { transform_embedding?: unknown }).transform_embedding);
      return parts.graph.planFor(q, actor, policy, budget);
    },
    sessions: sessionContent,
    documents: documentContent,
    // POST /v1/memory?format=omo: an Open Memory Object body, mapped as an OMO import maps one.
    omoBodies: omoMemoryBodies({ db, users: userDirectory, namespaces: namespaceAccess }),
  });
}
