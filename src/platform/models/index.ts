/**
 * The embedding layer: the `Embedder` port, its adapters, and factories that pick one
 * from configuration. Import from here, not from the adapter files.
 */
import type { Embedder } from './embedder.ts';
import { createGloveSifEmbedder, type GloveSifEmbedder, type GloveSifOptions } from './glove-sif.ts';
import { concatEmbedder } from './hybrid.ts';
import { createOnnxSentenceEmbedder, type OnnxSentenceOptions } from './onnx-sentence.ts';
import { createOpenAICompatibleEmbedder, type OpenAICompatibleOptions } from './openai-compatible.ts';
import { createUseLiteEmbedder, type UseLiteEmbedder, type UseLiteOptions } from './use-lite.ts';

export { cachedEmbedder, type CachedEmbedder, type EmbeddingCacheOptions, type EmbeddingCacheStats } from './cache.ts';
export { dot, EmbedderError, normalize, type Embedder, type EmbedderErrorCode } from './embedder.ts';
export {
  createGloveSifEmbedder,
  type GloveSifEmbedder,
  type GloveSifOptions,
  type SifFitSummary,
} from './glove-sif.ts';
export { concatEmbedder, type WeightedEmbedder } from './hybrid.ts';
export { createOnnxSentenceEmbedder, type OnnxSentenceEmbedder, type OnnxSentenceOptions } from './onnx-sentence.ts';
export { createOpenAICompatibleEmbedder, type OpenAICompatibleOptions } from './openai-compatible.ts';
export { createUseLiteEmbedder, type UseLiteEmbedder, type UseLiteOptions } from './use-lite.ts';

/** Every embedder kind `createEmbedder` accepts (for the config schema's enum). */
export const EMBEDDER_KINDS = ['use-lite', 'glove-sif', 'hybrid', 'openai', 'onnx'] as const;
export type EmbedderKind = (typeof EMBEDDER_KINDS)[number];

/** Configuration of one embedder, discriminated by `kind`. */
export type EmbedderConfig =
  | ({ kind: 'use-lite' } & UseLiteOptions)
  | ({ kind: 'glove-sif' } & GloveSifOptions)
  /** USE lite and GloVe SIF concatenated into one vector (see hybrid.ts); weights default 0.5/0.5. */
  | { kind: 'hybrid'; cacheDir: string; weights?: { useLite: number; gloveSif: number } }
  | ({ kind: 'openai' } & OpenAICompatibleOptions)
  | ({ kind: 'onnx' } & OnnxSentenceOptions);

/** Build the embedder `config.kind` names. Nothing heavy loads until first use. */
export function createEmbedder(config: EmbedderConfig): Embedder {
  switch (config.kind) {
    case 'use-lite':
      return createUseLiteEmbedder(config);
    case 'glove-sif':
      return createGloveSifEmbedder(config);
    case 'hybrid': {
      const { useLite, gloveSif } = createLocalEmbedders(config.cacheDir);
      const weights = config.weights ?? { useLite: 0.5, gloveSif: 0.5 };
      return concatEmbedder([
        { embedder: useLite, weight: weights.useLite },
        { embedder: gloveSif, weight: weights.gloveSif },
      ]);
    }
    case 'openai':
      return createOpenAICompatibleEmbedder(config);
    case 'onnx':
      return createOnnxSentenceEmbedder(config);
    default:
      throw new Error(
        `Unknown embedder kind ${(config as { kind: string }).kind}; expected one of ${EMBEDDER_KINDS.join(', ')}`,
      );
  }
}

/** The two local dense signals the search fusion uses (ARCHITECTURE §7). */
export interface LocalEmbedders {
  useLite: UseLiteEmbedder;
  gloveSif: GloveSifEmbedder;
  /** Both, for code that stores one vector per embedder and model id. */
  all: Embedder[];
  /** Load both now (GloVe converts its cache on the very first start); resolves when ready. */
  load(): Promise<{ gloveConverted: boolean }>;
}

/**
 * USE lite and GloVe SIF side by side, for storing two vectors per memory and fusing their
 * scores with BM25. `cacheDir` holds the converted GloVe table and the SIF corpus fit.
 */
export function createLocalEmbedders(cacheDir: string, options: { useLite?: UseLiteOptions } = {}): LocalEmbedders {
  const useLite = createUseLiteEmbedder(options.useLite);
  const gloveSif = createGloveSifEmbedder({ cacheDir });
  return {
    useLite,
    gloveSif,
    all: [useLite, gloveSif],
    async load() {
      const [, glove] = await Promise.all([useLite.load(), gloveSif.load()]);
      return { gloveConverted: glove.converted };
    },
  };
}
