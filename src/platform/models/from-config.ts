/**
 * The one place embedders are built: `createEmbedder` for a single model from a serialisable
 * description (also what a model thread builds), and `embeddersFromConfig` for the dense
 * signals a deployment runs, from the validated environment.
 */
import type { Config } from '../../config.ts';
import { cachedEmbedder } from './cache.ts';
import type { Embedder, Embedders } from './embedder.ts';
import { threadedEmbedder, type ThreadedEmbedder } from './embedder-thread.ts';
import { createGloveSifEmbedder, type GloveSifOptions } from './glove-sif.ts';
import { createOnnxSentenceEmbedder, type OnnxSentenceOptions } from './onnx-sentence.ts';
import { createOpenAICompatibleEmbedder, type OpenAICompatibleOptions } from './openai-compatible.ts';
import { createUseLiteEmbedder, type UseLiteOptions } from './use-lite.ts';

/** Configuration of one embedder, discriminated by `kind` (serialisable: it crosses to model threads). */
export type EmbedderConfig =
  | ({ kind: 'use-lite' } & UseLiteOptions)
  | ({ kind: 'glove-sif' } & GloveSifOptions)
  | ({ kind: 'openai' } & OpenAICompatibleOptions)
  | ({ kind: 'onnx' } & OnnxSentenceOptions);

/** Build the embedder `config.kind` names. Nothing heavy loads until first use. */
export function createEmbedder(config: EmbedderConfig): Embedder {
  switch (config.kind) {
    case 'use-lite':
      return createUseLiteEmbedder(config);
    case 'glove-sif':
      return createGloveSifEmbedder(config);
    case 'openai':
      return createOpenAICompatibleEmbedder(config);
    case 'onnx':
      return createOnnxSentenceEmbedder(config);
    default:
      throw new Error(
        `Unknown embedder kind ${(config as { kind: string }).kind}; expected one of use-lite, glove-sif, openai, onnx`,
      );
  }
}

/** The primary dense signal `EMBEDDER` selects. */
function primaryConfig(config: Config): EmbedderConfig {
  if (config.EMBEDDER === 'openai') {
    return {
      kind: 'openai',
      baseUrl: config.EMBEDDINGS_URL!,
      model: config.EMBEDDINGS_MODEL!,
      dimensions: config.EMBEDDINGS_DIMENSIONS!,
      apiKey: config.EMBEDDINGS_API_KEY,
    };
  }
  if (config.EMBEDDER === 'onnx') return { kind: 'onnx', modelsDir: config.MODELS_DIR!, model: config.ONNX_MODEL };
  return { kind: 'use-lite', cacheDir: config.MODELS_CACHE_DIR, threads: config.EMBEDDER_INTRA_OP_THREADS };
}

/** A deployment's embedding models: for indexing, for queries (behind an LRU cache), and their lifecycle. */
interface ConfiguredEmbedders {
  index: Embedders;
  query: Embedders;
  /** Load model files now so the first request does not pay for it; checks they exist. */
  load(): Promise<void>;
  /** End the model threads (the process may also just exit: idle threads do not hold it). */
  close(): Promise<void>;
}

/**
 * The configured dense signals for indexing, and the same behind an LRU cache for queries.
 *
 * USE lite computes on ONNX Runtime, synchronously on the thread that calls it (~1–3 ms per
 * memory-sized text), which on the main thread stalls every request, and every transaction the
 * process holds open, for a whole indexing batch. With EMBEDDER_THREADS it runs in two worker threads: one for
 * indexing, one for queries, so a search never queues behind a batch. (ONNX already runs its
 * inference off the event loop; HTTP embedders wait on the network; GloVe SIF costs ~1 ms.)
 */
export function embeddersFromConfig(config: Config): ConfiguredEmbedders {
  const threads: ThreadedEmbedder[] = [];
  const spec = primaryConfig(config);
  let primary: Embedder;
  let queryPrimary: Embedder;
  if (spec.kind === 'use-lite' && config.EMBEDDER_THREADS) {
    const meta = createEmbedder(spec); // id and sizes only; it never loads
    threads.push((primary = threadedEmbedder(spec, meta)), (queryPrimary = threadedEmbedder(spec, meta)));
  } else {
    primary = queryPrimary = createEmbedder(spec);
  }
  const wantSecondary =
    config.EMBEDDER_SECONDARY === 'glove-sif' || (config.EMBEDDER_SECONDARY === 'auto' && config.EMBEDDER === 'local');
  const secondary = wantSecondary ? createGloveSifEmbedder({ cacheDir: config.MODELS_CACHE_DIR }) : undefined;
  const cache = (e: Embedder) =>
    config.QUERY_EMBEDDING_CACHE_SIZE > 0 ? cachedEmbedder(e, { maxEntries: config.QUERY_EMBEDDING_CACHE_SIZE }) : e;
  return {
    index: { primary, secondary },
    query: { primary: cache(queryPrimary), secondary: secondary && cache(secondary) },
    async load() {
      await Promise.all(
        [...new Set([primary, queryPrimary, secondary])].map((e) => (e ? e.embed(['warm up']) : undefined)),
      );
    },
    async close() {
      await Promise.all(threads.map((t) => t.close()));
    },
  };
}
