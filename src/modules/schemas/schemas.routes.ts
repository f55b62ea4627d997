import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { SchemasService } from './schemas.service.ts';
import {
  createSchemaBody,
  listSchemasQuery,
  schemaDeleteResponse,
  schemaErrorResponses,
  schemaIdParams,
  schemaListResponse,
  schemaResponse,
  updateSchemaBody,
} from './schemas.schemas.ts';

const tags = ['schemas'];
const ok = (code = 200) => ({ success: true as const, code, error: null });

/**
 * User graph schema endpoints (client `schemas.*`). Their envelope is `{success, code, data,
 * error}`, not `{status}`; errors are the house envelope plus `success: false`.
 */
export function schemasRoutes(schemas: SchemasService): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/v1/schemas',
      {
        schema: {
          tags,
          summary: 'Create a graph schema (status defaults to draft)',
          body: createSchemaBody,
          description:
            'Limits: 10 node types, 20 relationship types, 10 properties per node type, ' +
            '15 enum values per property (422 naming the field).',
          response: { 201: schemaResponse, ...schemaErrorResponses },
        },
      },
      async (req, reply) => reply.code(201).send({ ...ok(201), data: await schemas.create(req.actor, req.body) }),
    );

    app.get(
      '/v1/schemas',
      {
        schema: {
          tags,
          summary: 'List graph schemas (archived ones only with status_filter=archived)',
          querystring: listSchemasQuery,
          response: { 200: schemaListResponse, ...schemaErrorResponses },
        },
      },
      async (req) => {
        const { items, total } = await schemas.list(req.actor, req.query);
        return { ...ok(), data: items, total, page: req.query.skip, page_size: req.query.limit };
      },
    );

    app.get(
      '/v1/schemas/:schema_id',
      {
        schema: {
          tags,
          summary: 'Get a graph schema',
          params: schemaIdParams,
          response: { 200: schemaResponse, ...schemaErrorResponses },
        },
      },
      async (req) => ({ ...ok(), data: await schemas.get(req.actor, req.params.schema_id) }),
    );

    app.put(
      '/v1/schemas/:schema_id',
      {
        schema: {
          tags,
          summary: 'Update a graph schema (partial; node_types and relationship_types replace the stored maps)',
          params: schemaIdParams,
          body: updateSchemaBody,
          response: { 200: schemaResponse, ...schemaErrorResponses },
        },
      },
      async (req) => ({ ...ok(), data: await schemas.update(req.actor, req.params.schema_id, req.body) }),
    );

    app.delete(
      '/v1/schemas/:schema_id',
      {
        schema: {
          tags,
          summary: 'Delete a graph schema (soft: archived, then 404)',
          params: schemaIdParams,
          response: { 200: schemaDeleteResponse, ...schemaErrorResponses },
        },
      },
      async (req) => {
        const id = req.params.schema_id;
        await schemas.delete(req.actor, id);
        return { ...ok(), message: 'Schema deleted successfully', schema_id: id };
      },
    );
  };
}
