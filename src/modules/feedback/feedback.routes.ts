import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorEnvelope, errorResponses } from '../../platform/http/schemas.ts';
import {
  feedbackBatchBody,
  feedbackBatchResponse,
  feedbackBody,
  feedbackIdParams,
  feedbackResponse,
  getFeedbackResponse,
} from './feedback.schemas.ts';
import type { FeedbackService } from './feedback.service.ts';

const tags = ['feedback'];

/** Feedback on searches (client `feedback.*`; docs/feedback.md). Thin: validate, one call, shape. */
export function feedbackRoutes(feedback: FeedbackService): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/v1/feedback',
      {
        schema: {
          tags,
          summary: 'Feedback on a search (its search_id); cited memories move in the user’s later searches',
          body: feedbackBody,
          response: { 200: feedbackResponse, ...errorResponses },
        },
      },
      async (req) => feedback.submit(req.actor, req.body),
    );

    app.post(
      '/v1/feedback/batch',
      {
        schema: {
          tags,
          summary: 'Several feedback items; each stored or refused on its own',
          body: feedbackBatchBody,
          response: {
            ...errorResponses,
            200: feedbackBatchResponse,
            207: feedbackBatchResponse,
            422: z
              .union([feedbackBatchResponse, errorEnvelope])
              .describe('Every item refused (batch result), or the request itself invalid (error)'),
          },
        },
      },
      async (req, reply) => {
        const r = await feedback.submitBatch(req.actor, req.body.feedback_items, req.body.session_context);
        const stored = r.feedbackIds.length;
        const status = r.errors.length === 0 ? 'success' : stored ? 'partial' : 'error';
        const code = status === 'success' ? 200 : status === 'partial' ? 207 : 422;
        return reply.code(code).send({
          code,
          status,
          message: `${stored} of ${r.total} feedback items stored`,
          error: status === 'success' ? null : `${r.errors.length} of ${r.total} feedback items failed`,
          details: null,
          feedback_ids: r.feedbackIds,
          successful_count: stored,
          failed_count: r.errors.length,
          errors: r.errors,
        });
      },
    );

    app.get(
      '/v1/feedback/:feedback_id',
      {
        schema: {
          tags,
          summary: 'A feedback by its id',
          params: feedbackIdParams,
          response: { 200: getFeedbackResponse, ...errorResponses },
        },
      },
      async (req) => feedback.get(req.actor, req.params.feedback_id),
    );
  };
}
