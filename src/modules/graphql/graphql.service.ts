/**
 * Running one GraphQL request for an actor: the document is parsed once here first (bounded by
 * MAX_TOKENS), then handed to the engine (mercurius: validation, the depth limit, the cost
 * check, execution). Every well-formed request is answered with a GraphQL response
 * `{data, errors}`; problems before execution have no `data` (GraphQL over HTTP, JSON).
 */
import { parse, type ExecutionResult, GraphQLError } from 'graphql';
import type { Actor } from '../../shared/actor.ts';
import { requestErrors, type WireError } from './graphql.errors.ts';
import type { GraphqlRequest } from './graphql.schemas.ts';

/** The most tokens a document may have; parsing stops there (the standard introspection query has ~400). */
export const MAX_TOKENS = 5000;
/** The deepest selection nesting (mercurius `queryDepth`); the standard introspection query is 15 deep. */
export const MAX_DEPTH = 15;

/** Where a resolver's unexpected failure is logged (the request's logger). */
export interface ErrorLogger {
  error(obj: { err: unknown }, msg: string): void;
}

/** What resolvers receive, plus what the hooks and the error formatter need. */
export interface RequestContext {
  actor: Actor;
  log: ErrorLogger;
  operationName?: string;
}

/** The engine: mercurius' `app.graphql(source, context, variables, operationName)`. */
export type Engine = (
  source: string,
  context: RequestContext,
  variables?: Record<string, unknown>,
  operationName?: string,
) => Promise<ExecutionResult>;

export interface GraphqlResponse {
  data?: unknown;
  errors?: WireError[];
}

export function createGraphqlService(engine: Engine) {
  return {
    /** One request; resolver errors come back in `errors`, beside whatever data was resolved. */
    async execute(actor: Actor, log: ErrorLogger, req: GraphqlRequest): Promise<GraphqlResponse> {
      // Parsed here with the engine's own limit before the engine sees it: mercurius reads a
      // string that is no GraphQL document as a JSON-encoded AST, which a string like "1" or
      // "[]" would turn into a crash inside validation instead of a syntax error.
      try {
        parse(req.query, { maxTokens: MAX_TOKENS });
      } catch (err) {
        if (err instanceof GraphQLError) return { errors: requestErrors(err)! };
        throw err;
      }
      const context: RequestContext = { actor, log, operationName: req.operationName };
      try {
        const result = await engine(req.query, context, req.variables, req.operationName);
        return {
          data: result.data,
          ...(result.errors?.length ? { errors: result.errors as unknown as WireError[] } : {}),
        };
      } catch (err) {
        const errors = requestErrors(err);
        if (errors) return { errors };
        throw err;
      }
    },
  };
}
export type GraphqlService = ReturnType<typeof createGraphqlService>;
