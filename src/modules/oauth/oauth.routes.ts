import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponses } from '../../platform/http/schemas.ts';
import { AppError } from '../../shared/errors.ts';
import type { FlowStep, OAuthService } from './oauth.service.ts';
import {
  callbackQuery,
  callbackResponse,
  loginQuery,
  loginResponse,
  logoutQuery,
  logoutResponse,
  tokenBody,
  tokenResponse,
} from './oauth.schemas.ts';

const FORM = 'application/x-www-form-urlencoded';
const PATHS = ['/login', '/callback', '/token', '/logout'] as const;

/**
 * Browser steps answer JSON to callers that accept it (the official client follows
 * redirects, so it must not be sent off-host) and a 302 to everyone else (client-contract W.5).
 */
function respond<B>(req: FastifyRequest, reply: FastifyReply, step: FlowStep<B>): B {
  if (!/application\/json|\+json/i.test(String(req.headers.accept ?? '')))
    reply.code(302).header('location', step.redirectTo);
  return step.body;
}

/** Accept form bodies on POST /token (RFC 6749 clients send them); scoped to these routes. */
function acceptForms(app: Parameters<FastifyPluginAsyncZod>[0]): void {
  if (app.hasContentTypeParser(FORM)) return;
  app.addContentTypeParser(FORM, { parseAs: 'string' }, (_req, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });
}

const common = { tags: ['auth'], security: [] };
const UNCONFIGURED = ' Without OAuth configured (OAUTH_ISSUER unset; docs/oauth.md) it answers 404.';

/**
 * The login paths' schemas, shared by the configured routes and the 404 ones of a server
 * without OAuth, so the API document describes them whatever the configuration.
 */
const schemas = {
  '/login': {
    ...common,
    summary: 'Start the login at the identity provider',
    description:
      'JSON `{message, redirect_url}` with `Accept: application/json`, else a 302 to the provider.' + UNCONFIGURED,
    querystring: loginQuery,
    response: { 200: loginResponse, 302: loginResponse, ...errorResponses },
  },
  '/callback': {
    ...common,
    summary: 'Receive the authorization code from the identity provider',
    description:
      "JSON `{message, code, state}` with `Accept: application/json`, else a 302 to the caller's redirect_uri." +
      UNCONFIGURED,
    querystring: callbackQuery,
    response: { 200: callbackResponse, 302: callbackResponse, ...errorResponses },
  },
  '/token': {
    ...common,
    summary: 'Exchange an authorization code or a refresh token for tokens',
    description: 'Body as JSON or application/x-www-form-urlencoded.' + UNCONFIGURED,
    consumes: ['application/json', FORM],
    body: tokenBody,
    response: { 200: tokenResponse, ...errorResponses, 502: errorResponses[500] },
  },
  '/logout': {
    ...common,
    summary: "Revoke the caller's session and refresh tokens; end the provider session",
    description: 'Credentials (Bearer, X-Session-Token) are optional and name the session to revoke.' + UNCONFIGURED,
    querystring: logoutQuery,
    response: { 200: logoutResponse, 302: logoutResponse, ...errorResponses },
  },
};

/** GET /login, /callback, /logout and POST /token (spec 4.1–4.5); all public. */
export function oauthRoutes(svc: OAuthService): FastifyPluginAsyncZod {
  return async (app) => {
    acceptForms(app);

    app.get('/login', { config: { public: true }, schema: schemas['/login'] }, async (req, reply) =>
      respond(req, reply, await svc.login(req.query)),
    );

    app.get('/callback', { config: { public: true }, schema: schemas['/callback'] }, async (req, reply) => {
      const step = await svc.callback(req.query);
      const body = respond(req, reply, step);
      if (step.error && reply.statusCode !== 302) throw step.error;
      return body;
    });

    app.post('/token', { config: { public: true }, schema: schemas['/token'] }, async (req) => svc.token(req.body));

    app.get('/logout', { config: { public: true }, schema: schemas['/logout'] }, async (req, reply) =>
      respond(req, reply, await svc.logout(req.query, req.headers)),
    );
  };
}

/**
 * With OAuth disabled the paths still answer, in the envelope, saying how to enable it. They
 * carry the configured routes' schemas for the API document, but validate nothing: whatever
 * the request (form bodies included), the answer is that 404.
 */
export const oauthDisabledRoutes: FastifyPluginAsyncZod = async (app) => {
  acceptForms(app);
  const handler = async () => {
    throw new AppError(404, 'OAuth login is not configured on this server (set OAUTH_ISSUER; see docs/oauth.md)');
  };
  for (const path of PATHS) {
    app.route({
      method: path === '/token' ? 'POST' : 'GET',
      url: path,
      config: { public: true },
      schema: schemas[path],
      validatorCompiler: () => (value: unknown) => ({ value }),
      handler,
    });
  }
};
