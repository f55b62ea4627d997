import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponses } from '../../platform/http/schemas.ts';
import type { AdminService } from './admin.service.ts';
import {
  createOrganizationBody,
  createOrganizationResponse,
  keyIdParams,
  listOrganizationsResponse,
  organizationIdParams,
  organizationTruthBody,
  organizationTruthResponse,
  revokeKeyResponse,
} from './admin.schemas.ts';

const tags = ['admin'];

/**
 * Operator routes (docs/tenancy.md, "Operators"). Public to the tenant auth hook: they check
 * the operator credential themselves, and a tenant key is refused like no key at all.
 */
export function adminRoutes(admin: AdminService): FastifyPluginAsyncZod {
  return async (app) => {
    const config = { public: true };
    app.addHook('onRequest', async (req) => admin.authenticate(req.headers));

    app.post(
      '/admin/organizations',
      {
        config,
        schema: {
          tags,
          summary: 'Create an organization and its first key',
          body: createOrganizationBody,
          security: [{ adminKey: [] }],
          response: { 201: createOrganizationResponse, ...errorResponses },
        },
      },
      async (req, reply) =>
        reply
          .code(201)
          .send({ code: 201, status: 'success' as const, data: await admin.createOrganization(req.body.name) }),
    );

    app.get(
      '/admin/organizations',
      {
        config,
        schema: {
          tags,
          summary: 'List organizations',
          security: [{ adminKey: [] }],
          response: { 200: listOrganizationsResponse, ...errorResponses },
        },
      },
      async () => ({ code: 200, status: 'success' as const, data: await admin.listOrganizations() }),
    );

    app.patch(
      '/admin/organizations/:organization_id',
      {
        config,
        schema: {
          tags,
          summary: "Set an organization's defaults for keeping memories true (dedupe, supersede)",
          params: organizationIdParams,
          body: organizationTruthBody,
          security: [{ adminKey: [] }],
          response: { 200: organizationTruthResponse, ...errorResponses },
        },
      },
      async (req) => ({
        code: 200,
        status: 'success' as const,
        data: await admin.setTruth(req.params.organization_id, req.body),
      }),
    );

    app.delete(
      '/admin/api-keys/:key_id',
      {
        config,
        schema: {
          tags,
          summary: 'Revoke any API key',
          params: keyIdParams,
          security: [{ adminKey: [] }],
          response: { 200: revokeKeyResponse, ...errorResponses },
        },
      },
      async (req) => ({
        code: 200,
        status: 'success' as const,
        message: 'API key revoked',
        data: await admin.revokeKey(req.params.key_id),
      }),
    );
  };
}
