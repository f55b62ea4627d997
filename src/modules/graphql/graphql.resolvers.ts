/**
 * The resolvers: each one call to another module's service or reader with the request's actor,
 * so GraphQL applies exactly the REST API's permission, tenancy and end-user rules (a namespace
 * key stays in its namespace, an end user's token acts only as that user, another
 * organization's ids are not found). No SQL here; the graph reader is called with memory ids
 * the memories module let this actor read.
 */
import { GraphQLScalarType, Kind, valueFromASTUntyped, type ValueNode } from 'graphql';
import type { Queryable } from '../../platform/db/index.ts';
import type { Actor } from '../../shared/actor.ts';
import type { GraphReader } from '../graph/index.ts';
import { parseListQuery, type ListingService, type MemoriesModule } from '../memories/index.ts';
import type { createNamespacesModule } from '../namespaces/index.ts';
import type { SearchModule } from '../search/index.ts';
import type { createUsersModule } from '../users/index.ts';
import { mutationResolvers } from './graphql.mutations.ts';
import {
  graphArgs,
  idArgs,
  LIMITS,
  memoriesArgs,
  namespacesArgs,
  parseArgs,
  searchArgs,
  usersArgs,
} from './graphql.schemas.ts';
import {
  memoryPage,
  memoryView,
  namespaceView,
  nodeView,
  relationshipView,
  searchNodeView,
  userView,
  type UserView,
} from './graphql.views.ts';

/** What each resolver gets: the request's authenticated caller (from the app's auth hook). */
export interface GraphqlContext {
  actor: Actor;
}

/** The narrow ports the composition root hands in. */
export interface GraphqlDeps {
  /** The connection the graph reader's lookups run on. */
  db: Queryable;
  memories: Pick<MemoriesModule['service'], 'get' | 'add' | 'update' | 'delete'>;
  listing: Pick<ListingService, 'list'>;
  search: Pick<SearchModule['service'], 'search'>;
  graph: Pick<GraphReader, 'nodesOfMemories' | 'relationshipsOfMemories'>;
  users: Pick<ReturnType<typeof createUsersModule>['service'], 'list' | 'get'>;
  namespaces: Pick<ReturnType<typeof createNamespacesModule>['service'], 'list' | 'get'>;
}

type Args = Record<string, unknown>;

/** The JSON scalar: values pass through as they are; literals are read as plain JSON. */
const jsonScalar = {
  serialize: (v: unknown) => v,
  parseValue: (v: unknown) => v,
  parseLiteral: (ast: ValueNode, variables?: Record<string, unknown> | null) =>
    ast.kind === Kind.NULL ? null : valueFromASTUntyped(ast, variables),
} satisfies Partial<GraphQLScalarType>;

/** The resolver map for mercurius: Query, Mutation, nested fields and the JSON scalar. */
export function graphqlResolvers(deps: GraphqlDeps) {
  /** A page through the memories module's listing (GET /v1/memory's rules and bounds). */
  const page = (
    actor: Actor,
    q: { userId?: string; externalUserId?: string; namespaceId?: string; first: number; after?: string },
  ) =>
    deps.listing.list(
      actor,
      parseListQuery({
        user_id: q.userId,
        external_user_id: q.externalUserId,
        namespace_id: q.namespaceId,
        limit: q.first,
        cursor: q.after,
      }),
    );
  return {
    JSON: jsonScalar,
    Query: {
      memory: async (_: unknown, args: Args, { actor }: GraphqlContext) =>
        memoryView(await deps.memories.get(actor, parseArgs(idArgs, args).id)),

      memories: async (_: unknown, args: Args, { actor }: GraphqlContext) =>
        memoryPage(await page(actor, parseArgs(memoriesArgs, args))),

      search: async (_: unknown, args: Args, { actor }: GraphqlContext) => {
        const a = parseArgs(searchArgs, args);
        const body = {
          query: a.query,
          external_user_id: a.externalUserId,
          namespace_id: a.namespaceId,
          enable_agentic_graph: a.enableAgenticGraph,
        };
        const r = await deps.search.search(actor, body, a.maxMemories, a.maxNodes);
        return {
          searchId: r.search_id,
          memories: r.memories.map(memoryView),
          nodes: r.nodes.slice(0, a.maxNodes).map(searchNodeView),
        };
      },

      graph: async (_: unknown, args: Args, { actor }: GraphqlContext) => {
        const a = parseArgs(graphArgs, args);
        const { memories } = await page(actor, {
          externalUserId: a.externalUserId,
          namespaceId: a.namespaceId,
          first: LIMITS.graphMemories,
        });
        const ids = memories.map((m) => m.id);
        const [nodes, relationships] = await Promise.all([
          deps.graph.nodesOfMemories(deps.db, actor.organizationId, ids, a.maxNodes),
          deps.graph.relationshipsOfMemories(deps.db, actor.organizationId, ids, a.maxRelationships),
        ]);
        return {
          nodes: nodes.map(nodeView),
          relationships: relationships.map(relationshipView),
          memoriesRead: ids.length,
        };
      },

      users: async (_: unknown, args: Args, { actor }: GraphqlContext) => {
        const a = parseArgs(usersArgs, args);
        const r = await deps.users.list(actor, {
          page: a.page,
          page_size: a.first,
          external_id: a.externalId,
          email: a.email,
        });
        return { items: r.items.map(userView), total: r.total };
      },

      user: async (_: unknown, args: Args, { actor }: GraphqlContext) =>
        userView(await deps.users.get(actor, parseArgs(idArgs, args).id)),

      namespaces: async (_: unknown, args: Args, { actor }: GraphqlContext) => {
        const a = parseArgs(namespacesArgs, args);
        const r = await deps.namespaces.list(actor, a.first, a.skip);
        return { items: r.items.map(namespaceView), total: r.total };
      },

      namespace: async (_: unknown, args: Args, { actor }: GraphqlContext) =>
        namespaceView(await deps.namespaces.get(actor, parseArgs(idArgs, args).id)),
    },

    User: {
      // The user's own memories (by internal id: a user need not have an external one).
      memories: async (user: UserView, args: Args, { actor }: GraphqlContext) => {
        const a = parseArgs(memoriesArgs.omit({ externalUserId: true }), args);
        return memoryPage(await page(actor, { ...a, userId: user.id }));
      },
    },

    ...mutationResolvers(deps.memories),
  };
}
