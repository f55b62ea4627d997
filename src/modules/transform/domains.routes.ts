import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorEnvelope, errorResponses } from '../../platform/http/schemas.ts';
import {
  catalogResponse,
  createDomainBody,
  deleteDomainResponse,
  domainIdParams,
  domainListResponse,
  domainResponse,
  refreshResponse,
  updateDomainBody,
} from './domains.schemas.ts';
import type { DomainsService } from './domains.service.ts';

const tags = ['graph'];
const errors = { ...errorResponses, 409: errorEnvelope };

/**
 * Domain endpoints (client `graph.domains.*`; spec §4.12). Domain ids contain `:` and `.`
 * (`acme:support:1.0.0`); the client sends colons raw, and `:domain_id` matches them as they are.
 */
export function domainsRoutes(domains: DomainsService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/v1/graph/domains',
      {
        schema: {
          tags,
          summary: 'List domains: the built-ins, then this organization’s own',
          response: { 200: domainListResponse, ...errors },
        },
      },
      async (req) => domains.list(req.actor),
    );

    app.post(
      '/v1/graph/domains',
      {
        schema: {
          tags,
          summary: 'Register a custom domain',
          description:
            'Signals need not cover all 14 frequencies: the free ones get the bands of `general`, and the ' +
            'response shows all 14. An id in use (or a built-in’s) is a 409 (sent with x-should-retry: false).',
          body: createDomainBody,
          response: { 201: domainResponse, ...errors },
        },
      },
      async (req, reply) => reply.code(201).send(await domains.create(req.actor, req.body)),
    );

    app.get(
      '/v1/graph/domains/:domain_id',
      {
        schema: {
          tags,
          summary: 'Get a domain, with its catalog',
          params: domainIdParams,
          response: { 200: domainResponse, ...errors },
        },
      },
      async (req) => domains.get(req.actor, req.params.domain_id),
    );

    app.put(
      '/v1/graph/domains/:domain_id',
      {
        schema: {
          tags,
          summary: 'Change a custom domain’s name, description, multipliers, catalog or routing settings',
          description: 'Built-in domains are read-only (409). The bands cannot change (422 if signals differ).',
          params: domainIdParams,
          body: updateDomainBody,
          response: { 200: domainResponse, ...errors },
        },
      },
      async (req) => domains.update(req.actor, req.params.domain_id, req.body),
    );

    app.delete(
      '/v1/graph/domains/:domain_id',
      {
        schema: {
          tags,
          summary: 'Delete a custom domain with its catalog',
          params: domainIdParams,
          response: { 200: deleteDomainResponse, ...errors },
        },
      },
      async (req) => domains.delete(req.actor, req.params.domain_id),
    );

    app.get(
      '/v1/graph/domains/:domain_id/catalog',
      {
        schema: {
          tags,
          summary: 'The signal catalog of a domain in this organization',
          params: domainIdParams,
          response: { 200: catalogResponse, ...errors },
        },
      },
      async (req) => domains.catalog.view(req.actor, req.params.domain_id),
    );

    app.post(
      '/v1/graph/domains/:domain_id/catalog/refresh',
      {
        schema: {
          tags,
          summary: 'Queue a refresh of the catalog',
          description: 'A refresh already queued is reused. The counts change when the worker has run it.',
          params: domainIdParams,
          response: { 202: refreshResponse, ...errors },
        },
      },
      async (req, reply) => reply.code(202).send(await domains.catalog.requestRefresh(req.actor, req.params.domain_id)),
    );
  };
}
