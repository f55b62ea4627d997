/**
 * The AI proxy (issue #21, docs/ai-proxy.md): OpenAI, Anthropic and Gemini calls forwarded to
 * the configured upstreams with the server's keys, streamed through as they arrive, counted
 * per organization, key, provider, model and day, and — when a call names a user or a
 * session — given that user's memories as context and stored as session messages. Search and
 * messages come in as ports from the composition root.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../platform/db/index.ts';
import type { Logger } from '../../platform/log.ts';
import type { requireSelf } from '../users/index.ts';
import { aiProxyRoutes } from './ai-proxy.routes.ts';
import { createAiProxyService } from './ai-proxy.service.ts';
import type { MemorySearchPort, MessageStorePort } from './memory.ts';
import { targetsFromConfig, type AiProxyConfig } from './targets.ts';
import { createHttpUpstream, type Upstream } from './upstream.ts';

export interface AiProxyModuleDeps {
  db: Db;
  log: Logger;
  config: AiProxyConfig & { AI_TIMEOUT_MS: number; AI_MEMORY_MAX: number; AI_MEMORY_CHARS: number };
  search: MemorySearchPort;
  messages: MessageStorePort;
  users: Parameters<typeof requireSelf>[0];
  maxContentBytes: number;
  /** The upstream adapter (default: HTTP through undici). */
  upstream?: Upstream;
}

export function createAiProxyModule(deps: AiProxyModuleDeps) {
  const { config } = deps;
  const service = createAiProxyService({
    db: deps.db,
    log: deps.log,
    targets: targetsFromConfig(config),
    upstream: deps.upstream ?? createHttpUpstream({ timeoutMs: config.AI_TIMEOUT_MS }),
    search: deps.search,
    messages: deps.messages,
    users: deps.users,
    memory: { max: config.AI_MEMORY_MAX, chars: config.AI_MEMORY_CHARS, maxContentBytes: deps.maxContentBytes },
  });
  const routes: FastifyPluginAsyncZod = async (app) => app.register(aiProxyRoutes(service));
  return { service, routes, close: () => service.close() };
}

export type { MemorySearchPort, MessageStorePort } from './memory.ts';
