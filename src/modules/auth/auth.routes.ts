import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { readCredentials, type Authenticator } from './auth.service.ts';
import { meResponse } from './auth.schemas.ts';
import { errorResponses } from '../../platform/http/schemas.ts';

/** GET /me: who the presented credentials name (spec 4.4). */
export function authRoutes(auth: Authenticator): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/me',
      {
        schema: {
          tags: ['auth'],
          summary: 'Current user',
          description:
            'Accepts X-API-Key, X-Session-Token, Authorization: Bearer, ' +
            'Authorization: Session and Authorization: APIKey.',
          response: { 200: meResponse, ...errorResponses },
        },
      },
      async (req) => {
        // X-Client-Type (spec 4.4) only tells the logs which client asked; it changes nothing.
        req.log.info({ client_type: req.headers['x-client-type'] ?? 'svc_plugin' }, 'current user lookup');
        const user = await auth.currentUser(req.actor);
        // Echo the session token only when it is what authenticated (a Bearer session has none to show).
        const session = req.actor.methods.includes('session') ? readCredentials(req.headers).sessionToken : undefined;
        return {
          user_id: user?.id ?? req.actor.userId,
          sessionToken: session,
          imageUrl: user?.image_url ?? undefined,
          displayName: user?.display_name ?? undefined,
          email: user?.email ?? undefined,
          message: `Authenticated with ${req.actor.methods.join(' + ')}`,
        };
      },
    );
  };
}
