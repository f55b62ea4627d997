import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponses } from '../../platform/http/schemas.ts';
import type { NamespacesService } from './namespaces.service.ts';
import {
  createNamespaceBody,
  deleteNamespaceQuery,
  deleteNamespaceResponse,
  listNamespacesQuery,
  namespaceIdParams,
  namespaceListResponse,
  namespaceResponse,
  updateNamespaceBody,
} from './namespaces.schemas.ts';

const tags = ['namespace'];
const ok = { code: 200, status: 'success', error: null, details: null };

/** Namespace endpoints (spec 4.6; client `namespace.*`). Thin: validate, one call, shape. */
export function namespacesRoutes(namespaces: NamespacesService): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/v1/namespace',
      {
        schema: {
          tags,
          summary: 'Create a namespace (organization key)',
          body: createNamespaceBody,
          response: { 200: namespaceResponse, ...errorResponses },
        },
      },
      async (req) => ({ ...ok, data: await namespaces.create(req.actor, req.body) }),
    );

    app.get(
      '/v1/namespace',
      {
        schema: {
          tags,
          summary: 'List namespaces',
          querystring: listNamespacesQuery,
          response: { 200: namespaceListResponse, ...errorResponses },
        },
      },
      async (req) => {
        const { items, total } = await namespaces.list(req.actor, req.query.limit, req.query.skip);
        return { ...ok, data: items, total, page: req.query.skip, page_size: req.query.limit };
      },
    );

    app.get(
      '/v1/namespace/:namespace_id',
      {
        schema: {
          tags,
          summary: 'Get a namespace',
          params: namespaceIdParams,
          response: { 200: namespaceResponse, ...errorResponses },
        },
      },
      async (req) => ({ ...ok, data: await namespaces.get(req.actor, req.params.namespace_id) }),
    );

    app.put(
      '/v1/namespace/:namespace_id',
      {
        schema: {
          tags,
          summary: 'Update a namespace (organization key)',
          params: namespaceIdParams,
          body: updateNamespaceBody,
          response: { 200: namespaceResponse, ...errorResponses },
        },
      },
      async (req) => ({ ...ok, data: await namespaces.update(req.actor, req.params.namespace_id, req.body) }),
    );

    app.delete(
      '/v1/namespace/:namespace_id',
      {
        schema: {
          tags,
          summary: 'Delete a namespace (organization key)',
          params: namespaceIdParams,
          querystring: deleteNamespaceQuery,
          description:
            'Flags default to true. delete_memories=false keeps the memories outside any namespace. ' +
            'The graph nodes of the namespace go with it (delete_graph_nodes), ' +
            'and those of its deleted memories with them.',
          response: { 200: deleteNamespaceResponse, ...errorResponses },
        },
      },
      async (req) => {
        const id = req.params.namespace_id;
        const { deleted, ...cascade } = await namespaces.delete(req.actor, id, req.query);
        return { ...ok, namespace_id: id, message: `Namespace ${id} deleted`, cascade, deleted };
      },
    );
  };
}
