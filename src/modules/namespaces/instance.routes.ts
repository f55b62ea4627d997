import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorEnvelope, errorResponses } from '../../platform/http/schemas.ts';
import { instanceConfigBody, instanceConfigQuery } from './instance.schemas.ts';
import type { InstanceService } from './instance.service.ts';
import { namespaceIdParams } from './namespaces.schemas.ts';

const namespaceTags = ['namespace'];
const organizationTags = ['organization'];
const description =
  'Not supported: Engram keeps the knowledge graph in its own PostgreSQL store and drives no external Neo4j ' +
  'instance. After authentication and the tenancy checks (another organization’s or an unknown namespace: 404) ' +
  'the answer is 501 with x-should-retry: false (docs/tenancy.md, "Dedicated graph instances").';
const responses = {
  ...errorResponses,
  501: errorEnvelope.describe('Not supported (details.docs names the page that explains it)'),
};

/** Instance configuration (client `namespace.instance.*`, `organization.instance.*`): a documented 501. */
export function instanceRoutes(instances: InstanceService): FastifyPluginAsyncZod {
  return async (app) => {
    const ns = '/v1/namespace/:namespace_id/instance';
    const nsSchema = { tags: namespaceTags, description, params: namespaceIdParams, response: responses };
    app.get(ns, { schema: { ...nsSchema, summary: 'A namespace’s dedicated graph instance (501)' } }, async (req) =>
      instances.namespace(req.actor, req.params.namespace_id, 'read'),
    );
    app.put(
      ns,
      {
        schema: {
          ...nsSchema,
          summary: 'Set a namespace’s dedicated graph instance (501)',
          querystring: instanceConfigQuery,
          body: instanceConfigBody,
        },
      },
      async (req) => instances.namespace(req.actor, req.params.namespace_id, 'write'),
    );
    app.delete(
      ns,
      { schema: { ...nsSchema, summary: 'Remove a namespace’s dedicated graph instance (501)' } },
      async (req) => instances.namespace(req.actor, req.params.namespace_id, 'delete'),
    );

    const org = '/v1/organization/instance';
    const orgSchema = { tags: organizationTags, description, response: responses };
    app.get(
      org,
      { schema: { ...orgSchema, summary: 'The organization’s dedicated graph instance (501)' } },
      async (req) => instances.organization(req.actor, 'read'),
    );
    app.put(
      org,
      {
        schema: {
          ...orgSchema,
          summary: 'Set the organization’s dedicated graph instance (501)',
          querystring: instanceConfigQuery,
          body: instanceConfigBody,
        },
      },
      async (req) => instances.organization(req.actor, 'write'),
    );
    app.delete(
      org,
      { schema: { ...orgSchema, summary: 'Remove the organization’s dedicated graph instance (501)' } },
      async (req) => instances.organization(req.actor, 'delete'),
    );
  };
}
