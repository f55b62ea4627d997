import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import mercurius, { type IResolvers } from 'mercurius';
import { z } from 'zod';
import { errorResponses } from '../../platform/http/schemas.ts';
import { badRequest } from '../../shared/errors.ts';
import { checkCost } from './graphql.cost.ts';
import { fieldError } from './graphql.errors.ts';
import { graphqlResolvers, type GraphqlDeps } from './graphql.resolvers.ts';
import { graphqlRequest, graphqlResponse } from './graphql.schemas.ts';
import { SDL } from './graphql.sdl.ts';
import { createGraphqlService, MAX_DEPTH, MAX_TOKENS, type RequestContext } from './graphql.service.ts';
import { PLAYGROUND_CSP, playgroundHtml } from './playground.ts';

const tags = ['graphql'];
const NO_BODY =
  'POST /v1/graphql needs a JSON body: {"query": "<GraphQL document>", "variables": {…}, "operationName": "…"}';

/**
 * GET /v1/graphql (the playground, public: the page holds nothing, its requests carry the
 * credential) and POST /v1/graphql (docs/graphql.md). Mercurius runs the schema in this
 * plugin's scope without routes of its own: these two are ours, so the app's auth hook, its
 * error envelope and its OpenAPI document cover them like every other route.
 */
export function graphqlRoutes(deps: GraphqlDeps): FastifyPluginAsyncZod {
  return async (app) => {
    await app.register(mercurius, {
      schema: SDL,
      resolvers: graphqlResolvers(deps) as unknown as IResolvers,
      routes: false,
      graphiql: false,
      queryDepth: MAX_DEPTH,
      graphql: { parseOptions: { maxTokens: MAX_TOKENS } },
      // Field errors stay in the GraphQL response (HTTP 200), each with its REST status.
      errorFormatter: (execution, context) => {
        const { log } = context as unknown as RequestContext;
        const logError = (err: unknown, msg: string) => log.error({ err }, msg);
        return {
          statusCode: 200,
          response: { data: execution.data, errors: execution.errors.map((e) => fieldError(e, logError)) as never },
        };
      },
    });
    // The cost limit, with the request's variables known, before any resolver runs.
    app.graphql.addHook('preExecution', (schema, document, context, variables) => {
      checkCost(schema, document, variables, (context as unknown as RequestContext).operationName);
    });
    const service = createGraphqlService((source, context, variables, operationName) =>
      app.graphql(source, context as unknown as Record<string, unknown>, variables, operationName),
    );

    app.get(
      '/v1/graphql',
      {
        config: { public: true },
        schema: {
          tags,
          summary: 'GraphQL playground: a page to run queries (works offline)',
          security: [],
          produces: ['text/html'],
          response: { 200: z.string().describe('The playground page (HTML)') },
        },
      },
      async (_req, reply) =>
        reply
          .type('text/html; charset=utf-8')
          .header('content-security-policy', PLAYGROUND_CSP)
          .header('cache-control', 'no-cache')
          .send(playgroundHtml()),
    );

    app.post(
      '/v1/graphql',
      {
        schema: {
          tags,
          summary: 'Run a GraphQL query or mutation',
          description:
            'Authentication as everywhere; a missing or bad credential is a 401 envelope. A well-formed request ' +
            'is answered 200 with {data, errors}; each error carries extensions.code, the REST status of the ' +
            'problem (docs/graphql.md).',
          body: graphqlRequest,
          response: { 200: graphqlResponse, ...errorResponses },
        },
        // The official client sends no body at all unless given one: a clear 400, not a schema error.
        preValidation: async (req) => {
          if (req.body === undefined || req.body === null) throw badRequest(NO_BODY);
        },
      },
      async (req) => service.execute(req.actor, req.log, req.body),
    );
  };
}
