import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponses } from '../../platform/http/schemas.ts';
import type { ApiKeysService } from './api-keys.service.ts';
import {
  createKeyBody,
  createKeyResponse,
  keyIdParams,
  listKeysResponse,
  namespaceKeyParams,
  revokeKeyResponse,
} from './api-keys.schemas.ts';

const tags = ['namespace'];
const ok = { code: 200, status: 'success', error: null, details: null };

/** Namespace API keys (spec 4.7; client `namespace.createAPIKey`). Thin: validate, one call, shape. */
export function apiKeysRoutes(keys: ApiKeysService): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/v1/namespace/:namespace_id/api-keys',
      {
        schema: {
          tags,
          summary: 'Mint a namespace API key',
          params: namespaceKeyParams,
          body: createKeyBody,
          description:
            'The full key is returned exactly once. A namespace key may mint only for its own namespace; ' +
            "permissions never exceed the minter's.",
          response: { 200: createKeyResponse, ...errorResponses },
        },
      },
      async (req) => ({ ...ok, data: await keys.create(req.actor, req.params.namespace_id, req.body) }),
    );

    app.get(
      '/v1/namespace/:namespace_id/api-keys',
      {
        schema: {
          tags,
          summary: "List a namespace's API keys (never the key itself)",
          params: namespaceKeyParams,
          response: { 200: listKeysResponse, ...errorResponses },
        },
      },
      async (req) => {
        const data = await keys.list(req.actor, req.params.namespace_id);
        return { ...ok, data, total: data.length };
      },
    );

    app.delete(
      '/v1/namespace/:namespace_id/api-keys/:key_id',
      {
        schema: {
          tags,
          summary: 'Revoke a namespace API key (effective at once)',
          params: keyIdParams,
          response: { 200: revokeKeyResponse, ...errorResponses },
        },
      },
      async (req) => {
        await keys.revoke(req.actor, req.params.namespace_id, req.params.key_id);
        return { ...ok, key_id: req.params.key_id, message: 'API key revoked' };
      },
    );
  };
}
