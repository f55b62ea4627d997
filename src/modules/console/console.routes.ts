import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyPluginAsync } from 'fastify';

export interface ConsoleOptions {
  /** The built console (scripts/build.mjs writes dist/console). */
  root: string;
  /** Whether the OAuth login is configured (OAUTH_ISSUER): the sign-in page then links to /login. */
  oauth: boolean;
}

/**
 * The web console's static files under /console/ and its one settings document. Every route
 * here is public: the page holds no data, and each call it makes to the API carries the
 * user's own key (so without one they answer 401 like any other client's).
 */
export function consoleRoutes(opts: ConsoleOptions): FastifyPluginAsync {
  return async (app) => {
    // Routes of this plugin only (its own context): no credential needed to load the page.
    app.addHook('onRoute', (route) => {
      route.config = { ...(route.config as object), public: true };
      route.schema = { ...route.schema, hide: true };
    });
    app.get('/console/settings.json', async () => ({ oauth_login: opts.oauth ? '/login' : null }));
    if (!fs.existsSync(path.join(opts.root, 'index.html'))) {
      // A server run from sources before any build: say how to get the console, not a bare 404.
      app.get('/console', async (_req, reply) =>
        reply.code(503).type('text/plain').send('The console is not built: run npm run build'),
      );
      return;
    }
    await app.register(fastifyStatic, { root: opts.root, prefix: '/console/', index: false });
    // The page itself at /console (and /console/: the router ignores a trailing slash); its
    // assets are linked by absolute path, so either address loads them.
    app.get('/console', async (_req, reply) => reply.sendFile('index.html'));
  };
}
