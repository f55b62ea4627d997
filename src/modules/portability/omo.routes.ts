import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponses } from '../../platform/http/schemas.ts';
import { unprocessable } from '../../shared/errors.ts';
import type { OmoService } from './omo.service.ts';
import {
  exportBody,
  exportJsonQuery,
  exportResponse,
  importBody,
  importResponse,
  OMO_MAX_ITEMS,
} from './omo.schemas.ts';

const tags = ['omo'];

/** Comma-separated ids (blanks between commas ignored), bounded like the POST body. */
function idList(raw: string): string[] {
  const ids = raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (!ids.length) throw unprocessable('memory_ids names no memory', { field: 'memory_ids' });
  if (ids.length > OMO_MAX_ITEMS)
    throw unprocessable(`memory_ids names ${ids.length} memories; at most ${OMO_MAX_ITEMS}`, { field: 'memory_ids' });
  if (ids.some((id) => id.length > 200)) throw unprocessable('memory_ids: an id is too long', { field: 'memory_ids' });
  return ids;
}

/** Open Memory Object export and import (client `omo.*`; docs/omo.md). Thin: validate, one call, shape. */
export function omoRoutes(omo: OmoService): FastifyPluginAsyncZod {
  return async (app) => {
    const exported = async (actor: Parameters<OmoService['exportMemories']>[0], ids: string[]) => {
      const r = await omo.exportMemories(actor, ids);
      return {
        code: 200,
        status: 'success',
        count: r.memories.length,
        memories: r.memories,
        not_found: r.notFound,
        error: null,
      };
    };

    app.post(
      '/v1/omo/export',
      {
        schema: {
          tags,
          summary: 'Export memories as Open Memory Objects (OMO v1)',
          body: exportBody,
          response: { 200: exportResponse, ...errorResponses },
        },
      },
      async (req) => exported(req.actor, req.body.memory_ids),
    );

    app.get(
      '/v1/omo/export.json',
      {
        schema: {
          tags,
          summary: 'The same export as a downloadable JSON document',
          querystring: exportJsonQuery,
          response: { 200: exportResponse, ...errorResponses },
        },
      },
      async (req, reply) => {
        const body = await exported(req.actor, idList(req.query.memory_ids));
        const day = new Date().toISOString().slice(0, 10);
        return reply.header('content-disposition', `attachment; filename="engram-memories-${day}.omo.json"`).send(body);
      },
    );

    app.post(
      '/v1/omo/import',
      {
        config: { idempotent: true },
        schema: {
          tags,
          summary: 'Import Open Memory Objects (OMO v1) as memories',
          body: importBody,
          response: {
            ...errorResponses,
            200: importResponse,
            207: importResponse,
            422: importResponse
              .or(errorResponses[422])
              .describe('Every object failed (import result), or the request itself invalid (error)'),
          },
        },
      },
      async (req, reply) => {
        const results = await omo.importMemories(req.actor, req.body);
        const errors = results.filter((r) => r.status === 'error');
        const done = results.length - errors.length;
        const status = errors.length === 0 ? 'success' : done ? 'partial' : 'error';
        const code = status === 'success' ? 200 : status === 'partial' ? 207 : 422;
        return reply.code(code).send({
          code,
          status,
          imported: results.filter((r) => r.status === 'imported').length,
          skipped: results.filter((r) => r.status === 'skipped').length,
          memory_ids: results.flatMap((r) => (r.status === 'imported' && r.memory_id ? [r.memory_id] : [])),
          results: results.map((r) => ({
            index: r.index,
            omo_id: r.omo_id,
            status: r.status,
            ...(r.memory_id ? { memory_id: r.memory_id } : {}),
          })),
          errors: errors.map((r) => ({
            index: r.index,
            omo_id: r.omo_id,
            error: r.error!,
            code: r.code!,
            details: r.details,
          })),
          error: errors.length ? `${errors.length} of ${results.length} objects failed` : null,
          details: null,
        });
      },
    );
  };
}
