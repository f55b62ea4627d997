import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorEnvelope, errorResponses } from '../../platform/http/schemas.ts';
import type { Actor } from '../../shared/actor.ts';
import { unprocessable } from '../../shared/errors.ts';
import type { MemoriesService } from './memories.service.ts';
import {
  addMemoryBody,
  addMemoryQuery,
  addMemoryResponse,
  batchBody,
  batchResponse,
  deleteAllQuery,
  deleteAllResponse,
  deleteMemoryQuery,
  deleteMemoryResponse,
  getMemoryQuery,
  legacyTransformQuery,
  memoryIdParams,
  updateMemoryBody,
  updateMemoryResponse,
} from './memories.schemas.ts';
import { searchResponse, toMemoryObject } from './memory-object.ts';

const tags = ['memory'];

/**
 * POST /v1/memory?format=omo: an Open Memory Object body made into the memory item (the
 * portability module's mapping, given by the composition root); a 4xx when it cannot be.
 */
export type OmoBodies = (actor: Actor, body: unknown) => Promise<unknown>;

/**
 * Fields of an Open Memory Object that a memory item never has at its top level. The client
 * documents `format` as the *response* format, so a plain memory item sent with format=omo stays
 * a plain memory item; only a body with one of these is read as an OMO object.
 */
const OMO_ONLY = ['id', 'createdAt', 'ext', 'consent', 'risk', 'topics', 'sourceUrl', 'acl'];
const isOmo = (body: unknown) =>
  !!body && typeof body === 'object' && OMO_ONLY.some((k) => (body as Record<string, unknown>)[k] !== undefined);
const ok = { code: 200, status: 'success', error: null };

/** Memory endpoints (spec §4.9, §4.10, §4.12; client `memory.*`). Thin: validate, one call, shape. */
export function memoriesRoutes(memories: MemoriesService, omoBodies?: OmoBodies): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/v1/memory',
      {
        config: { idempotent: true },
        // Before validation: an OMO body (isOmo) becomes the memory item the schema below then checks.
        preValidation: async (req) => {
          if ((req.query as { format?: unknown }).format !== 'omo' || !isOmo(req.body)) return;
          if (!omoBodies) throw unprocessable('format=omo is not available on this server', { field: 'format' });
          req.body = (await omoBodies(req.actor, req.body)) as typeof req.body;
        },
        schema: {
          tags,
          summary: 'Add a memory',
          querystring: addMemoryQuery,
          body: addMemoryBody,
          response: { 200: addMemoryResponse, ...errorResponses },
        },
      },
      async (req) => {
        const { format: _format, ...query } = req.query;
        const item = await memories.add(req.actor, req.body, {
          skipBackgroundProcessing: query.skip_background_processing,
          ...query,
        });
        return { ...ok, data: [item] };
      },
    );

    app.post(
      '/v1/memory/batch',
      {
        config: { idempotent: true },
        schema: {
          tags,
          summary: 'Add memories in a batch',
          querystring: addMemoryQuery,
          body: batchBody,
          response: {
            ...errorResponses,
            200: batchResponse,
            207: batchResponse,
            422: z
              .union([batchResponse, errorEnvelope])
              .describe('Every item rejected (batch result), or the request itself invalid (error)'),
          },
        },
      },
      async (req, reply) => {
        const { memories: items, batch_size, webhook_url, webhook_secret, ...defaults } = req.body;
        const { format, ...query } = req.query;
        if (format === 'omo') {
          throw unprocessable('format=omo takes one object; import many with POST /v1/omo/import', { field: 'format' });
        }
        // The batch's webhook comes in the body; the query form of POST /v1/memory is accepted too.
        const r = await memories.addBatch(req.actor, items, defaults, batch_size ?? 10, {
          skipBackgroundProcessing: query.skip_background_processing,
          ...query,
          webhook_url: webhook_url ?? query.webhook_url,
          webhook_secret: webhook_secret ?? query.webhook_secret,
        });
        const status = r.errors.length === 0 ? 'success' : r.successes.length ? 'partial' : 'error';
        const code = status === 'success' ? 200 : status === 'partial' ? 207 : 422;
        return reply.code(code).send({
          code,
          status,
          message: `${r.successes.length} of ${r.total} memories stored${duplicates(r.successes)}`,
          error: status === 'success' ? null : `${r.errors.length} of ${r.total} memories failed`,
          details: null,
          batch_id: r.batchId,
          successful: r.successes.map((s) => ({ ...ok, data: [s.item] })),
          errors: r.errors,
          total_processed: r.total,
          total_successful: r.successes.length,
          total_failed: r.errors.length,
          total_content_size: r.contentBytes,
          total_storage_size: r.storageBytes,
        });
      },
    );

    // Registered before /v1/memory/:memory_id so "all" is never read as an id.
    app.delete(
      '/v1/memory/all',
      {
        schema: {
          tags,
          summary: 'Delete all memories of a user',
          querystring: deleteAllQuery,
          response: { 200: deleteAllResponse, ...errorResponses },
        },
      },
      async (req) => {
        const { gone, deleted } = await memories.deleteAll(req.actor, req.query);
        return {
          ...ok,
          status: 'success' as const,
          message:
            `Deleted ${gone.length} memories and ${deleted.sessions} chat sessions ` + `(${deleted.messages} messages)`,
          details: { sessions_deleted: deleted.sessions, messages_deleted: deleted.messages },
          deleted,
          batch_id: null,
          successful: gone.map((g) => ({
            ...ok,
            data: [{ memoryId: g.id, objectId: g.id, createdAt: g.created_at.toISOString(), memoryChunkIds: [] }],
          })),
          errors: [],
          total_processed: gone.length,
          total_successful: gone.length,
          total_failed: 0,
          total_content_size: gone.reduce((s, g) => s + g.content_bytes, 0),
          total_storage_size: 0,
        };
      },
    );

    app.get(
      '/v1/memory/:memory_id',
      {
        schema: {
          tags,
          summary: 'Get a memory (search envelope)',
          params: memoryIdParams,
          querystring: getMemoryQuery,
          response: { 200: searchResponse, ...errorResponses },
        },
      },
      async (req) => ({
        ...ok,
        data: { memories: [await memories.get(req.actor, req.params.memory_id, req.query)], nodes: [] },
      }),
    );

    app.put(
      '/v1/memory/:memory_id',
      {
        schema: {
          tags,
          summary: 'Update a memory',
          params: memoryIdParams,
          querystring: legacyTransformQuery,
          body: updateMemoryBody,
          response: { 200: updateMemoryResponse, ...errorResponses },
        },
      },
      async (req) => {
        const u = await memories.update(req.actor, req.params.memory_id, req.body, req.query);
        const obj = toMemoryObject(u.row);
        return {
          ...ok,
          message: 'Memory updated',
          memory_items: [
            {
              memoryId: u.row.id,
              objectId: u.row.id,
              updatedAt: u.updatedAt,
              content: u.row.content,
              memoryChunkIds: u.chunkIds,
              metadata: obj.metadata,
            },
          ],
          status_obj: { neo4j: true, parse: true, pinecone: true },
        };
      },
    );

    app.delete(
      '/v1/memory/:memory_id',
      {
        schema: {
          tags,
          summary: 'Delete a memory',
          params: memoryIdParams,
          querystring: deleteMemoryQuery,
          response: { 200: deleteMemoryResponse, ...errorResponses },
        },
      },
      async (req) => {
        const deleted = await memories.delete(req.actor, req.params.memory_id);
        const id = req.params.memory_id;
        return {
          ...ok,
          memoryId: id,
          objectId: id,
          message: 'Memory deleted',
          deletion_status: { holographic: true, neo4j: true, parse: true, pinecone: true, qdrant: true },
          deleted,
        };
      },
    );
  };
}

/** " (2 of them already were)": how many stored items were exact duplicates answered with the existing memory. */
function duplicates(successes: { item: { duplicate?: boolean } }[]): string {
  const n = successes.filter((s) => s.item.duplicate).length;
  return n ? ` (${n} of them already ${n === 1 ? 'was' : 'were'})` : '';
}
