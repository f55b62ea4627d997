import type { FastifyInstance } from 'fastify';
import type { Config } from './config.ts';
import type { Db } from './platform/db/index.ts';
import type { Logger } from './platform/log.ts';
import { createHttpApp } from './platform/http/app.ts';
import { createAuthenticator } from './modules/auth/auth.service.ts';
import { authRoutes } from './modules/auth/auth.routes.ts';
import { healthRoutes } from './modules/health/health.routes.ts';

export const VERSION = '0.1.0';

export interface AppDeps {
  config: Config;
  db: Db;
  log: Logger;
}

/** Composition root: build every module from its dependencies and mount its routes. */
export async function buildApp({ config, db, log }: AppDeps): Promise<FastifyInstance> {
  const auth = createAuthenticator(db);
  const app = await createHttpApp({
    log,
    authenticate: auth.authenticate,
    bodyLimit: config.BODY_LIMIT_BYTES,
    rateLimit: { max: config.RATE_LIMIT_MAX, windowMs: config.RATE_LIMIT_WINDOW_MS },
    docs: config.DOCS_ENABLED,
    version: VERSION,
  });
  await app.register(healthRoutes(db, VERSION));
  await app.register(authRoutes(auth));
  return app;
}
