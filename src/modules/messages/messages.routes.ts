import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponses } from '../../platform/http/schemas.ts';
import type { MessagesService } from './messages.service.ts';
import {
  compressResponse,
  historyQuery,
  historyResponse,
  messageResponse,
  processResponse,
  sessionParams,
  statusResponse,
  storeMessageBody,
  updateSessionBody,
  updateSessionResponse,
} from './messages.schemas.ts';

const tags = ['messages'];
const session = '/v1/messages/sessions/:session_id';

/** Chat messages and sessions (client `messages.*`; docs/messages.md). Thin: validate, one call, shape. */
export function messagesRoutes(messages: MessagesService): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/v1/messages',
      {
        config: { idempotent: true },
        schema: {
          tags,
          summary: 'Store a chat message (creates its session on the first one)',
          body: storeMessageBody,
          response: { 200: messageResponse, ...errorResponses },
        },
      },
      async (req) => messages.store(req.actor, req.body),
    );

    app.get(
      session,
      {
        schema: {
          tags,
          summary: 'Session history, newest first, with its summaries and a ready context',
          params: sessionParams,
          querystring: historyQuery,
          response: { 200: historyResponse, ...errorResponses },
        },
      },
      async (req) => messages.history(req.actor, req.params.session_id, req.query),
    );

    app.get(
      `${session}/compress`,
      {
        schema: {
          tags,
          summary: 'The session’s hierarchical summaries (stored, or computed when stale)',
          params: sessionParams,
          response: { 200: compressResponse, ...errorResponses },
        },
      },
      async (req) => messages.compress(req.actor, req.params.session_id),
    );

    app.get(
      `${session}/status`,
      {
        schema: {
          tags,
          summary: 'Message counts, processing breakdown, errors and the last summary time',
          params: sessionParams,
          response: { 200: statusResponse, ...errorResponses },
        },
      },
      async (req) => messages.status(req.actor, req.params.session_id),
    );

    app.post(
      `${session}/process`,
      {
        config: { idempotent: true },
        schema: {
          tags,
          summary: 'Make the session’s unprocessed messages into memories now (no body)',
          params: sessionParams,
          response: { 200: processResponse, ...errorResponses },
        },
      },
      async (req) => messages.process(req.actor, req.params.session_id),
    );

    app.patch(
      session,
      {
        schema: {
          tags,
          summary: 'Change the session’s title or merge into its metadata',
          params: sessionParams,
          body: updateSessionBody,
          response: { 200: updateSessionResponse, ...errorResponses },
        },
      },
      async (req) => messages.update(req.actor, req.params.session_id, req.body),
    );
  };
}
