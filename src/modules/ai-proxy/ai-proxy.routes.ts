import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorEnvelope, errorResponses } from '../../platform/http/schemas.ts';
import {
  anthropicBody,
  anthropicHeaders,
  chatBody,
  engramHeaders,
  googleBody,
  googleParams,
  googleQuery,
  providerAnswer,
  responsesBody,
  usageQuery,
  usageResponse,
} from './ai-proxy.schemas.ts';
import type { AiProxyService } from './ai-proxy.service.ts';
import { sendProxyResult } from './ai-proxy.reply.ts';

const tags = ['ai'];
const response = { 200: providerAnswer, ...errorResponses, 502: errorEnvelope, 504: errorEnvelope };
const description =
  'Forwarded to the configured upstream with the server’s key (never the caller’s); the answer, an upstream error ' +
  'included, comes back as the upstream sent it, streamed when it streams. A provider that is not configured is a ' +
  '400; an unreachable upstream a 502, a silent one a 504. The `engram` field or the X-Engram-* headers add the ' +
  'user’s memories and store the exchange (docs/ai-proxy.md). Needs the write permission.';

/**
 * The AI proxy (client `ai.*`; docs/ai-proxy.md). Gemini's paths carry the model and a method
 * after a raw colon (`/models/gemini-2.0-flash:generateContent`): the model is a regex
 * parameter up to the colon, and `::` is the router's literal colon.
 */
export function aiProxyRoutes(ai: AiProxyService): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/v1/ai/openai/chat/completions',
      {
        schema: {
          tags,
          summary: 'OpenAI Chat Completions',
          description,
          body: chatBody.nullish(),
          headers: engramHeaders,
          response,
        },
      },
      async (req, reply) =>
        sendProxyResult(reply, await ai.proxy(req.actor, { operation: 'chat', body: req.body, headers: req.headers })),
    );

    app.post(
      '/v1/ai/openai/responses',
      {
        schema: {
          tags,
          summary: 'OpenAI Responses',
          description,
          body: responsesBody.nullish(),
          headers: engramHeaders,
          response,
        },
      },
      async (req, reply) =>
        sendProxyResult(
          reply,
          await ai.proxy(req.actor, { operation: 'responses', body: req.body, headers: req.headers }),
        ),
    );

    app.post(
      '/v1/ai/anthropic/messages',
      {
        schema: {
          tags,
          summary: 'Anthropic Messages',
          description,
          body: anthropicBody.nullish(),
          headers: anthropicHeaders,
          response,
        },
      },
      async (req, reply) =>
        sendProxyResult(
          reply,
          await ai.proxy(req.actor, { operation: 'messages', body: req.body, headers: req.headers }),
        ),
    );

    for (const [method, operation] of [
      ['generateContent', 'generate'],
      ['streamGenerateContent', 'stream_generate'],
    ] as const) {
      app.post(
        `/v1/ai/google/models/:model_id(^[^:/]+)::${method}`,
        {
          schema: {
            tags,
            summary: `Gemini ${method}`,
            description,
            params: googleParams,
            querystring: googleQuery,
            body: googleBody.nullish(),
            headers: engramHeaders,
            response,
          },
        },
        async (req, reply) =>
          sendProxyResult(
            reply,
            await ai.proxy(req.actor, {
              operation,
              body: req.body,
              headers: req.headers,
              model: req.params.model_id,
              alt: req.query.alt,
            }),
          ),
      );
    }

    app.get(
      '/v1/ai/usage',
      {
        schema: {
          tags,
          summary: 'AI proxy usage: requests, errors and tokens per day, provider and model',
          description:
            'The caller’s organization (a namespace key: its namespace’s keys; an end user’s token: their own calls).',
          querystring: usageQuery,
          response: { 200: usageResponse, ...errorResponses },
        },
      },
      async (req) => ai.usage(req.actor, req.query),
    );
  };
}
