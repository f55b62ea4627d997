/**
 * The graph transform's models (docs/transform.md): the base embedder it is given, `sbert`
 * (that embedder projected to 384 dimensions), `qwen` (the hosted OpenAI-compatible embedder,
 * when EMBEDDINGS_URL is set) and the band extractor (local rules, or the LLM). And the hosted
 * rerankers of the search providers ranker_a and ranker_b. Part of the composition root.
 */
import type { Config } from './config.ts';
import { createLocalBandExtractor } from './platform/models/bands.local.ts';
import { createLlmBandExtractor } from './platform/models/bands.llm.ts';
import type { Embedder } from './platform/models/embedder.ts';
import { createOpenAICompatibleEmbedder } from './platform/models/openai-compatible.ts';
import { createCohereReranker } from './platform/models/reranker.cohere.ts';
import { createChatReranker } from './platform/models/reranker.openai.ts';
import { createTransformer, qwenFrom, sbertFrom, type Transformer } from './modules/transform/index.ts';

export function transformerFromConfig(config: Config, base: Embedder): Transformer {
  const sbert = sbertFrom(base);
  const hosted =
    config.EMBEDDER === 'openai'
      ? base
      : config.EMBEDDINGS_URL && config.EMBEDDINGS_MODEL && config.EMBEDDINGS_DIMENSIONS
        ? createOpenAICompatibleEmbedder({
            baseUrl: config.EMBEDDINGS_URL,
            model: config.EMBEDDINGS_MODEL,
            dimensions: config.EMBEDDINGS_DIMENSIONS,
            apiKey: config.EMBEDDINGS_API_KEY,
          })
        : undefined;
  const bands =
    config.BAND_EXTRACTOR === 'llm'
      ? createLlmBandExtractor({
          baseUrl: config.LLM_BASE_URL!,
          model: config.LLM_MODEL!,
          apiKey: config.LLM_API_KEY,
          timeoutMs: config.LLM_TIMEOUT_MS,
        })
      : createLocalBandExtractor({
          embed: sbert.embed,
          // compromise loads on the first prose transform (≈0.4 s), not at start-up.
          entities: async (content, createdAt) =>
            (await import('./platform/models/extractor.local.ts')).extractLocal({ content, createdAt }),
        });
  return createTransformer({ base, signals: { sbert, qwen: hosted && qwenFrom(hosted) }, bands });
}

/** ranker_a and ranker_b, when configured. */
export function rerankersFromConfig(config: Config) {
  return {
    cohere: config.RERANK_URL
      ? createCohereReranker({
          baseUrl: config.RERANK_URL,
          model: config.RERANK_MODEL!,
          apiKey: config.RERANK_API_KEY,
          timeoutMs: config.RERANK_TIMEOUT_MS,
        })
      : undefined,
    chat:
      config.LLM_BASE_URL && config.LLM_MODEL
        ? createChatReranker({
            baseUrl: config.LLM_BASE_URL,
            model: config.LLM_MODEL,
            apiKey: config.LLM_API_KEY,
            timeoutMs: config.LLM_TIMEOUT_MS,
          })
        : undefined,
  };
}
