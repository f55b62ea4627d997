import { z } from 'zod';

const id = (what: string) => z.string().min(1).max(200).describe(what);

export const FEEDBACK_TYPES = [
  'thumbs_up',
  'thumbs_down',
  'rating',
  'correction',
  'report',
  'copy_action',
  'save_action',
  'create_document',
  'memory_relevance',
  'answer_quality',
] as const;
export const FEEDBACK_SOURCES = ['inline', 'post_query', 'session_end', 'memory_citation', 'answer_panel'] as const;
export type FeedbackType = (typeof FEEDBACK_TYPES)[number];

/** Most memory (or node) ids one feedback may cite. */
export const MAX_CITED = 200;
/** Most feedback items of one batch. */
export const MAX_BATCH_ITEMS = 100;
/** Largest session_context, as JSON. */
const MAX_CONTEXT_BYTES = 16_384;

/** A Parse-style pointer to a stored chat message (client `ParsePointer`). */
const parsePointer = z.object({
  className: z.string().min(1).max(128).describe('Class of the object pointed at (e.g. PostMessage)'),
  objectId: z.string().min(1).max(256).describe('Id of the object pointed at'),
  __type: z.string().max(64).optional().describe('Pointer (the Parse pointer marker)'),
});

const citedIds = (what: string) =>
  z.array(z.string().min(1).max(200)).max(MAX_CITED).optional().describe(`${what} (at most ${MAX_CITED})`);

/**
 * feedbackData (client `FeedbackRequest.FeedbackData`). A score's range depends on the type it
 * rates (docs/feedback.md): a rating is 1–5 stars, a relevance, answer-quality or correction
 * score is -1…1; other types keep any bounded score but rank by their type alone.
 */
export const feedbackData = z
  .object({
    feedbackType: z.enum(FEEDBACK_TYPES).describe(`What kind of feedback: ${FEEDBACK_TYPES.join(', ')}`),
    feedbackSource: z.enum(FEEDBACK_SOURCES).describe(`Where it was given: ${FEEDBACK_SOURCES.join(', ')}`),
    feedbackText: z.string().max(10_000).optional().describe('Free text (a correction, a comment)'),
    feedbackValue: z.string().max(1_000).optional().describe('A value of the client’s own (stored as given)'),
    feedbackImpact: z.string().max(1_000).optional().describe('The client’s note on the impact (stored as given)'),
    feedbackScore: z
      .number()
      .min(-1_000_000)
      .max(1_000_000)
      .optional()
      .describe('rating: 1–5; memory_relevance, answer_quality, correction: -1…1; other types: stored only'),
    feedbackProcessed: z.boolean().optional().describe('The client’s own flag (stored as given)'),
    citedMemoryIds: citedIds(
      'Memories of the search the feedback is about; they must be among its results. Only cited memories move ' +
        'in later searches',
    ),
    citedNodeIds: citedIds('Graph nodes the feedback is about (stored)'),
    userMessage: parsePointer.optional().describe('The user message the feedback is about'),
    assistantMessage: parsePointer.optional().describe('The assistant message the feedback is about'),
  })
  .superRefine((d, ctx) => {
    const s = d.feedbackScore;
    if (s === undefined) return;
    const bad = (message: string) => ctx.addIssue({ code: 'custom', path: ['feedbackScore'], message });
    if (d.feedbackType === 'rating' && (s < 1 || s > 5)) bad('a rating is 1 to 5 (stars)');
    if (['memory_relevance', 'answer_quality', 'correction'].includes(d.feedbackType) && (s < -1 || s > 1))
      bad(`a ${d.feedbackType} score is -1 to 1`);
  })
  .describe('The feedback');
export type FeedbackData = z.infer<typeof feedbackData>;

/** POST /v1/feedback (client `FeedbackRequest`); also each item of a batch. */
export const feedbackBody = z.object({
  search_id: id('The search_id of the search (from its response) the feedback is about'),
  feedbackData,
  external_user_id: z
    .string()
    .max(512)
    .optional()
    .describe('The searched user by your id; when given it must be the search’s user'),
  user_id: z.string().max(200).optional().describe('The searched user (internal id); when given, the search’s user'),
  namespace_id: z.string().max(200).optional().describe('When given, the search’s namespace'),
  organization_id: z
    .string()
    .max(200)
    .optional()
    .describe('Deprecated: the organization is the credential’s; naming another one is a 422'),
});
export type FeedbackBody = z.infer<typeof feedbackBody>;

const sessionContext = z
  .record(z.string(), z.unknown())
  .refine((c) => Buffer.byteLength(JSON.stringify(c)) <= MAX_CONTEXT_BYTES, {
    message: `session_context is at most ${MAX_CONTEXT_BYTES} bytes of JSON`,
  })
  .describe(`Context of the session the feedback came from, stored with every item (at most ${MAX_CONTEXT_BYTES} B)`);

export const feedbackBatchBody = z.object({
  feedback_items: z
    .array(z.unknown())
    .min(1)
    .max(MAX_BATCH_ITEMS)
    .describe(
      `Feedback items as POST /v1/feedback takes them, 1 to ${MAX_BATCH_ITEMS}; each is validated and stored on ` +
        'its own, and a failed one is reported in errors',
    ),
  session_context: sessionContext.optional(),
});

export const feedbackIdParams = z.object({ feedback_id: id('Feedback id (feedback_id)') });

const envelope = {
  code: z.number().int().describe('The HTTP status code'),
  status: z.string().describe('success, partial (a batch with failures) or error'),
  message: z.string().describe('What happened, in words'),
  error: z.string().nullable().describe('What failed; null on success'),
};

/** FeedbackResponse (client), with what the feedback did to ranking in details. */
export const feedbackResponse = z.object({
  ...envelope,
  feedback_id: z.string().describe('Id of the feedback (GET /v1/feedback/{feedback_id})'),
  details: z
    .object({
      search_id: z.string().describe('The search the feedback is about'),
      signal: z.number().describe('The ranking signal each cited memory received, -1…1 (0: stored only)'),
      memories_signalled: z
        .number()
        .int()
        .describe('How many cited memories the signal applies to, in the searched user’s later searches'),
    })
    .describe('What the feedback does to ranking (docs/feedback.md)'),
});

/** A stored feedback as GET returns it. */
export const storedFeedback = z.object({
  feedback_id: z.string().describe('Its id'),
  search_id: z.string().describe('The search it is about'),
  feedbackData: z.record(z.string(), z.unknown()).describe('feedbackData as stored'),
  user_id: z.string().nullable().describe('The searched user (internal id); null when the search had none'),
  namespace_id: z.string().nullable().describe('The search’s namespace'),
  session_context: z.record(z.string(), z.unknown()).nullable().describe('The batch’s session_context'),
  signal: z.number().describe('The ranking signal of each cited memory, -1…1'),
  created_at: z.string().describe('ISO 8601 time it was received'),
});

export const getFeedbackResponse = feedbackResponse.omit({ details: true }).extend({
  details: z.null().describe('null'),
  feedback: storedFeedback.describe('The stored feedback'),
});

export const feedbackBatchResponse = z.object({
  ...envelope,
  details: z.null().describe('null (the failures are in errors)'),
  feedback_ids: z.array(z.string()).describe('Ids of the stored items, in item order'),
  successful_count: z.number().int().describe('Items stored'),
  failed_count: z.number().int().describe('Items refused (nothing of them stored)'),
  errors: z
    .array(
      z.object({
        index: z.number().int().describe('Position of the item in feedback_items (0-based)'),
        error: z.string().describe('Why it failed'),
        code: z.number().int().describe('HTTP status the item alone would have had'),
        details: z.unknown().optional().describe('Validation issues or other details'),
      }),
    )
    .describe('One entry per failed item, in item order'),
});
