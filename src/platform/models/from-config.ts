/**
 * The one place embedders are built: `createEmbedder` for a single model from a serialisable
 * description (also what a model thread builds), and `embeddersFromConfig` for the dense
 * signals a deployment runs, from the validated environment.
 */
import type { Config } from '../../config.ts';
import { createLogger, type Logger } from '../log.ts';
import { cachedEmbedder } from './cache.ts';
import { EmbedderError, type Embedder, type Embedders } from './embedder.ts';
import { threadedEmbedder, type ThreadedEmbedder, type ThreadOptions } from './embedder-thread.ts';
import { gloveTableMissing } from './glove-cache.ts';
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
  if (config.EMBEDDER === 'onnx') {
    return {
      kind: 'onnx',
      modelsDir: config.MODELS_DIR!,
      model: config.ONNX_MODEL,
      threads: config.EMBEDDER_INTRA_OP_THREADS,
    };
  }
  return { kind: 'use-lite', cacheDir: config.MODELS_CACHE_DIR, threads: config.EMBEDDER_INTRA_OP_THREADS };
}

/** A deployment's embedding models: for indexing, for queries (behind an LRU cache), and their lifecycle. */
interface ConfiguredEmbedders {
  index: Embedders;
  query: Embedders;
  /**
   * Load model files now so the first request does not pay for it; checks they exist. A
   * secondary signal whose files are missing is dropped with a warning (see below); a missing
   * primary fails.
   */
  load(): Promise<void>;
  /** End the model threads (the process may also just exit: idle threads do not hold it). */
  close(): Promise<void>;
}

/**
 * The configured dense signals for indexing, and the same behind an LRU cache for queries.
 *
 * The local models (USE lite, an operator's ONNX model) compute on ONNX Runtime, synchronously
 * on the thread that calls it (~1–3 ms per memory-sized text for USE lite), which on the main
 * thread stalls every request, and every transaction the process holds open, for a whole
 * indexing batch. With EMBEDDER_THREADS they run in two worker threads: one for indexing, one
 * for queries, so a search never queues behind a batch. (HTTP embedders wait on the network;
 * GloVe SIF costs ~1 ms.)
 *
 * The secondary signal is optional: when its model files are missing (GloVe vectors not built
 * at install), it is left out with a warning, here, before anything is served; when they are
 * there but unreadable (EmbedderError 'model_missing' on load), `load()` (or, in a process
 * that never calls it, the first failing call) drops it from `index` and `query` the same way.
 * Search then fuses the other signals and indexing stores no second vector (`npm run reembed`
 * fills it in once the files exist and the process restarts). `log` defaults to a logger at
 * LOG_LEVEL.
 */
/** How a thread doing background work (indexing, graph extraction) runs: lower priority, ended when idle. */
export function backgroundThread(config: Config): ThreadOptions {
  return { nice: config.BACKGROUND_NICE, idleExitMs: config.BACKGROUND_THREAD_IDLE_MS || undefined };
}

export function embeddersFromConfig(config: Config, log?: Logger): ConfiguredEmbedders {
  const threads: ThreadedEmbedder[] = [];
  const spec = primaryConfig(config);
  let primary: Embedder;
  let queryPrimary: Embedder;
  if ((spec.kind === 'use-lite' || spec.kind === 'onnx') && config.EMBEDDER_THREADS) {
    const meta = createEmbedder(spec); // id and sizes only; it never loads
    // Indexing is background work: it yields the CPU to the query thread (BACKGROUND_NICE).
    primary = threadedEmbedder(spec, meta, backgroundThread(config));
    queryPrimary = threadedEmbedder(spec, meta);
    threads.push(primary as ThreadedEmbedder, queryPrimary as ThreadedEmbedder);
  } else {
    primary = queryPrimary = createEmbedder(spec);
  }
  const wantSecondary =
    config.EMBEDDER_SECONDARY === 'glove-sif' || (config.EMBEDDER_SECONDARY === 'auto' && config.EMBEDDER === 'local');
  const cache = (e: Embedder) =>
    config.QUERY_EMBEDDING_CACHE_SIZE > 0 ? cachedEmbedder(e, { maxEntries: config.QUERY_EMBEDDING_CACHE_SIZE }) : e;
  const disabled = (err: EmbedderError) =>
    (log ?? createLogger(config.LOG_LEVEL)).warn(
      { err: err.message },
      'GloVe SIF signal disabled: its word vectors are missing. Search and indexing run without it. ' +
        'Run `npm run setup:models`, restart, then `npm run reembed`',
    );
  let secondary: Embedder | undefined;
  let querySecondary: Embedder | undefined;
  // Files absent (the usual case: not built at install): left out before anything is served.
  const missing = wantSecondary ? gloveTableMissing(config.MODELS_CACHE_DIR) : null;
  if (missing) disabled(missing);
  else if (wantSecondary) {
    // Present but unreadable (damaged): dropped by load(), or by the first call that hits it.
    secondary = optional(createGloveSifEmbedder({ cacheDir: config.MODELS_CACHE_DIR }), (err) => {
      if (!secondary) return; // already dropped (and said so)
      secondary = querySecondary = undefined;
      disabled(err);
    });
    querySecondary = cache(secondary);
  }
  const queryPrimaryCached = cache(queryPrimary);
  return {
    // Getters: the secondary may be dropped after the callers took these objects.
    index: {
      primary,
      get secondary() {
        return secondary;
      },
    },
    query: {
      primary: queryPrimaryCached,
      get secondary() {
        return querySecondary;
      },
    },
    async load() {
      await Promise.all([
        // The query side only: the indexing thread starts with the first memory to index.
        queryPrimary.embed(['warm up']),
        // A missing model drops the secondary (see optional()); anything else still fails the start.
        secondary?.embed(['warm up']).catch((err: unknown) => {
          if (!isMissing(err)) throw err;
        }),
      ]);
    },
    async close() {
      await Promise.all(threads.map((t) => t.close()));
    },
  };
}

const isMissing = (err: unknown): err is EmbedderError => err instanceof EmbedderError && err.code === 'model_missing';

/** `inner`, reporting a missing model to `onMissing` (and still throwing) on every call that hits it. */
function optional(inner: Embedder, onMissing: (err: EmbedderError) => void): Embedder {
  return {
    get id() {
      return inner.id; // GloVe SIF's id changes with a corpus fit
    },
    dimensions: inner.dimensions,
    maxTokens: inner.maxTokens,
    async embed(texts) {
      try {
        return await inner.embed(texts);
      } catch (err) {
        if (isMissing(err)) onMissing(err);
        throw err;
      }
    },
  };
}
