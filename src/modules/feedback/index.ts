/**
 * Feedback on searches (client `feedback.*`; docs/feedback.md): stored against the search's
 * query-log row, and a bounded ranking signal in the searched user's later searches. Search
 * does not import this module: it defines the port (`FeedbackBoosts`) `createFeedbackBoosts`
 * implements, and the composition root passes it in.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { feedbackRoutes } from './feedback.routes.ts';
import { createFeedbackService, type FeedbackDeps } from './feedback.service.ts';
import { ratedUp } from './feedback.store.ts';

export function createFeedbackModule(deps: FeedbackDeps) {
  const service = createFeedbackService(deps);
  const routes: FastifyPluginAsyncZod = async (app) => app.register(feedbackRoutes(service));
  return { service, routes };
}

/**
 * Search's feedback port (`FeedbackBoosts`): a user's bounded boosts from their feedback, with a
 * per-process memory of users without any (kept exact by NOTIFY). Close it before the store.
 */
export { createFeedbackBoosts, type FeedbackSignal } from './boosts.ts';
export { signalOf, boostOf, SATURATION } from './ranking.ts';
/** Sync's "rated up" tier input (the portability module's RatedUp port). */
export const feedbackRatedUp = { ratedUp };
export type { FeedbackDeps } from './feedback.service.ts';
