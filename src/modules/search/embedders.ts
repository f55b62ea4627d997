import type { Config } from '../../config.ts';
import {
  cachedEmbedder, createGloveSifEmbedder, createOnnxSentenceEmbedder, createOpenAICompatibleEmbedder, createUseLiteEmbedder, type Embedder,
} from '../../platform/models/index.ts';
import type { Embedders } from '../memories/indexing.ts';

/** The configured dense signals for indexing, and the same behind an LRU cache for queries. */
export function embeddersFromConfig(config: Config): { index: Embedders; query: Embedders; load(): Promise<void> } {
  let primary: Embedder;
  if (config.EMBEDDER === 'openai') {
    primary = createOpenAICompatibleEmbedder({
      baseUrl: config.EMBEDDINGS_URL!, model: config.EMBEDDINGS_MODEL!, dimensions: config.EMBEDDINGS_DIMENSIONS!, apiKey: config.EMBEDDINGS_API_KEY,
    });
  } else if (config.EMBEDDER === 'onnx') {
    primary = createOnnxSentenceEmbedder({ modelsDir: config.MODELS_DIR!, model: config.ONNX_MODEL });
  } else {
    primary = createUseLiteEmbedder();
  }
  const wantSecondary = config.EMBEDDER_SECONDARY === 'glove-sif' || (config.EMBEDDER_SECONDARY === 'auto' && config.EMBEDDER === 'local');
  const secondary = wantSecondary ? createGloveSifEmbedder({ cacheDir: config.MODELS_CACHE_DIR }) : undefined;
  const cache = (e: Embedder) => (config.QUERY_EMBEDDING_CACHE_SIZE > 0 ? cachedEmbedder(e, { maxEntries: config.QUERY_EMBEDDING_CACHE_SIZE }) : e);
  return {
    index: { primary, secondary },
    query: { primary: cache(primary), secondary: secondary && cache(secondary) },
    /** Load model files now so the first request does not pay for it; checks they exist. */
    async load() {
      await Promise.all([primary, secondary].map((e) => (e ? e.embed(['warm up']) : undefined)));
    },
  };
}
