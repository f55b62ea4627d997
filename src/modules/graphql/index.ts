/**
 * GraphQL over Engram's data (docs/graphql.md): memories, search, a user's graph, users and
 * namespaces, and memory mutations, resolved through the other modules' services with the
 * request's actor. Nothing depends on this module; it depends on the ports in GraphqlDeps.
 */
import { graphqlRoutes } from './graphql.routes.ts';
import type { GraphqlDeps } from './graphql.resolvers.ts';

export function createGraphqlModule(deps: GraphqlDeps) {
  return { routes: graphqlRoutes(deps) };
}
export type { GraphqlDeps } from './graphql.resolvers.ts';
export { SDL as graphqlSdl } from './graphql.sdl.ts';
