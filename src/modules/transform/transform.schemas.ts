/**
 * Request and response shapes of POST /v1/graph/transform and POST /v1/graph/rerank (spec
 * §4.8, §2.9; contract "Graph"). Batch transform is built in: `texts` (or `items`) beside `text`.
 */
import { z } from 'zod';

const MAX_TEXT = 100_000;
const vector = z.array(z.number().finite()).max(8192);
const signalEmbedder = z
  .string()
  .optional()
  .describe('sbert (default: the local embedder at 384 dimensions) or qwen (the hosted embedder of EMBEDDINGS_URL)');

export const transformItem = z.object({
  text: z.string().min(1).max(MAX_TEXT),
  embedding: vector.optional().describe("The caller's base embedding (the deployment's width)"),
  metadata: z.record(z.string(), z.unknown()).optional(),
});

export const transformBody = z
  .looseObject({
    text: z.string().min(1).max(MAX_TEXT).optional().describe('The text to transform'),
    texts: z.array(z.string().min(1).max(MAX_TEXT)).min(1).max(100).optional().describe('Batch: several texts'),
    items: z
      .array(transformItem)
      .min(1)
      .max(100)
      .optional()
      .describe('Batch: texts with their own embedding and metadata'),
    embedding: vector.optional(),
    domain_id: z.string().min(1).max(200).optional().describe('Default general'),
    metadata: z.record(z.string(), z.unknown()).optional().describe('Returned as meta'),
    signal_embedder: signalEmbedder,
    return_rot_v3: z.boolean().optional(),
    return_concat: z.boolean().optional(),
  })
  .refine((b) => [b.text, b.texts, b.items].filter((x) => x !== undefined).length === 1, {
    message: 'Send exactly one of text, texts or items',
    path: ['text'],
  });
export type TransformBody = z.infer<typeof transformBody>;

export const artifactSchema = z.object({
  id: z.string(),
  domain_id: z.string(),
  meta: z.record(z.string(), z.unknown()),
  embedding: z.array(z.number()),
  phases: z.array(z.number()),
  signals: z.record(z.string(), z.string()),
  signal_embeddings: z.record(z.string(), z.array(z.number())),
  rot_v3: z.array(z.number()).optional(),
  concat_embedding: z.array(z.number()).optional(),
});

/** One artifact for `text`; `{artifacts: [...]}` for a batch. */
export const transformResponse = z.union([
  artifactSchema,
  z.object({ artifacts: z.array(artifactSchema), meta: z.record(z.string(), z.unknown()) }),
]);

const artifactFields = {
  embedding: vector.optional(),
  phases: vector.optional(),
  rot_v3: vector.optional(),
  concat_embedding: vector.optional(),
  signals: z.record(z.string(), z.string().max(MAX_TEXT)).optional(),
  signal_embeddings: z.record(z.string(), vector).optional(),
};
export const queryItem = z.looseObject({ text: z.string().min(1).max(MAX_TEXT), ...artifactFields });
export const documentInput = z.looseObject({
  text: z.string().max(MAX_TEXT).optional(),
  id: z.string().max(500).optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
  ...artifactFields,
});
export type DocumentInput = z.infer<typeof documentInput>;

export const rerankBody = z.looseObject({
  query: z.union([z.string().min(1).max(MAX_TEXT), queryItem]),
  documents: z
    .array(z.union([z.string().max(MAX_TEXT), documentInput]))
    .min(1)
    .max(1000),
  domain_id: z.string().min(1).max(200).optional(),
  method: z
    .string()
    .optional()
    .describe(
      'fast (rot_v3 cosine) or enhanced (default: base and band cosines); ' +
        'svc_max is a search provider, not a rerank method',
    ),
  top_k: z.number().int().min(1).max(1000).optional(),
  return_documents: z.boolean().optional(),
  return_debug: z.boolean().optional(),
  return_signal_scores: z.boolean().optional(),
  signal_embedder: signalEmbedder,
  signal_filters: z.record(z.string(), z.number().finite()).optional().describe('Band → minimum band score'),
  signal_multipliers: z.record(z.string(), z.unknown()).optional().describe('Band → weight multiplier'),
  routing_config: z.record(z.string(), z.unknown()).optional(),
});
export type RerankBody = z.infer<typeof rerankBody>;

export const rerankResponse = z.looseObject({
  id: z.string(),
  meta: z.looseObject({
    domain_id: z.string(),
    method_used: z.string(),
    billed_units: z.number().int(),
    timing_ms: z.record(z.string(), z.number()),
    usage: z.record(z.string(), z.unknown()),
    debug: z.record(z.string(), z.unknown()).optional(),
  }),
  results: z.array(
    z.looseObject({
      index: z.number().int(),
      relevance_score: z.number(),
      id: z.string().optional(),
      score_method: z.string(),
      document: documentInput.optional(),
      signal_scores: z.record(z.string(), z.number()).optional(),
      signal_scores_by_band: z.record(z.string(), z.number()).optional(),
      debug_scores: z.record(z.string(), z.number()).optional(),
    }),
  ),
});
