import type { Config } from '../../config.ts';
import {
  cachedEmbedder,
  createGloveSifEmbedder,
  createOnnxSentenceEmbedder,
  createOpenAICompatibleEmbedder,
  createUseLiteEmbedder,
  type Embedder,
} from '../../platform/models/index.ts';
import { threadedEmbedder, type ThreadedEmbedder } from '../../platform/models/embedder-thread.ts';
import type { Embedders } from '../memories/indexing.ts';

/**
 * The configured dense signals for indexing, and the same behind an LRU cache for queries.
 *
 * USE lite computes in WASM on the thread that calls it (~25 ms per memory-sized text), which
 * on the main thread stalls every request, and every transaction the process holds open, for
 * a whole indexing batch. With EMBEDDER_THREADS it runs in two worker threads: one for
 * indexing, one for queries, so a search never queues behind a batch. (ONNX already runs its
 * inference off the event loop; HTTP embedders wait on the network; GloVe SIF costs ~1 ms.)
 */
export function embeddersFromConfig(config: Config): {
  index: Embedders;
  query: Embedders;
  load(): Promise<void>;
  close(): Promise<void>;
} {
  const threads: ThreadedEmbedder[] = [];
  let primary: Embedder;
  let queryPrimary: Embedder;
  if (config.EMBEDDER === 'openai') {
    primary = queryPrimary = createOpenAICompatibleEmbedder({
      baseUrl: config.EMBEDDINGS_URL!,
      model: config.EMBEDDINGS_MODEL!,
      dimensions: config.EMBEDDINGS_DIMENSIONS!,
      apiKey: config.EMBEDDINGS_API_KEY,
    });
  } else if (config.EMBEDDER === 'onnx') {
    primary = queryPrimary = createOnnxSentenceEmbedder({ modelsDir: config.MODELS_DIR!, model: config.ONNX_MODEL });
  } else if (config.EMBEDDER_THREADS) {
    const meta = createUseLiteEmbedder(); // id and sizes only; it never loads
    threads.push(
      (primary = threadedEmbedder({ kind: 'use-lite' }, meta)),
      (queryPrimary = threadedEmbedder({ kind: 'use-lite' }, meta)),
    );
  } else {
    primary = queryPrimary = createUseLiteEmbedder();
  }
  const wantSecondary =
    config.EMBEDDER_SECONDARY === 'glove-sif' || (config.EMBEDDER_SECONDARY === 'auto' && config.EMBEDDER === 'local');
  const secondary = wantSecondary ? createGloveSifEmbedder({ cacheDir: config.MODELS_CACHE_DIR }) : undefined;
  const cache = (e: Embedder) =>
    config.QUERY_EMBEDDING_CACHE_SIZE > 0 ? cachedEmbedder(e, { maxEntries: config.QUERY_EMBEDDING_CACHE_SIZE }) : e;
  return {
    index: { primary, secondary },
    query: { primary: cache(queryPrimary), secondary: secondary && cache(secondary) },
    /** Load model files now so the first request does not pay for it; checks they exist. */
    async load() {
      await Promise.all(
        [...new Set([primary, queryPrimary, secondary])].map((e) => (e ? e.embed(['warm up']) : undefined)),
      );
    },
    /** End the model threads (the process may also just exit: idle threads do not hold it). */
    async close() {
      await Promise.all(threads.map((t) => t.close()));
    },
  };
}
