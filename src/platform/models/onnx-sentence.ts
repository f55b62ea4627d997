/**
 * Local sentence-transformers models (ONNX exports in the Hugging Face layout) from `MODELS_DIR`,
 * run directly on onnxruntime-node (CPU binary shipped in the package) with the pure-JS
 * tokenizer of @huggingface/tokenizers. Nothing is ever downloaded: the product reads model
 * files only from its dependencies or MODELS_DIR (ARCHITECTURE §7).
 *
 * Layout: <modelsDir>/<model>/{config.json, tokenizer.json, tokenizer_config.json, …,
 * onnx/model.onnx (fp32) | onnx/model_quantized.onnx (q8)}. The sentence-transformers recipe:
 * tokenise with the model's post-processor ([CLS] … [SEP]), truncate to `maxLength` tokens
 * keeping those special tokens, pad to the longest text of the batch, take the model's
 * `last_hidden_state`, mean-pool it over the attention mask, then L2-normalise.
 *
 * `session.run` in onnxruntime-node computes synchronously on the calling thread (the native
 * call is only deferred by a setImmediate), so batches stay bounded and `embed` yields to the
 * event loop between them.
 */
import { createHash } from 'node:crypto';
import { createReadStream, readFileSync } from 'node:fs';
import { access } from 'node:fs/promises';
import path from 'node:path';
import type { InferenceSession, Tensor } from 'onnxruntime-node';
import { chunks, EmbedderError, fallbackVector, normalize, type Embedder } from './embedder.ts';
import { encodeTruncated, importPackage, loadTokenizerFiles, type LoadedTokenizer } from './onnx-sentence.tokenizer.ts';

/** Options for {@link createOnnxSentenceEmbedder}. */
export interface OnnxSentenceOptions {
  /** Folder holding one sub-folder per model (MODELS_DIR). */
  modelsDir: string;
  /** Sub-folder name, e.g. 'all-MiniLM-L6-v2'. */
  model: string;
  /** 'q8' reads onnx/model_quantized.onnx (≈1.8× faster), 'fp32' reads onnx/model.onnx. Default 'q8'. */
  dtype?: 'q8' | 'fp32';
  /** Token limit per text; sentence-transformers' own default for MiniLM is 256 (default 256). */
  maxLength?: number;
  /** Texts per forward pass (default 32). */
  batchSize?: number;
  /** Expected sha256 of the weights file; built in for all-MiniLM-L6-v2. */
  sha256?: string;
  /** Output size; defaults to `hidden_size` from the model's config.json. */
  dimensions?: number;
  /** ONNX Runtime intra-op threads (default 1). */
  threads?: number;
}

/** An ONNX sentence embedder; `loadTokenizer()` works even when the weights are absent. */
export interface OnnxSentenceEmbedder extends Embedder {
  /** Verify the weights and load tokenizer + model now (idempotent). */
  load(): Promise<void>;
  /** Load only the tokenizer (no weights needed), e.g. to count tokens for chunking. */
  loadTokenizer(): Promise<void>;
  /** Number of tokens of `text` including [CLS]/[SEP], before truncation. */
  countTokens(text: string): Promise<number>;
  /** The token ids the model receives for `text`: special tokens included, truncated to maxLength. */
  tokenIds(text: string): Promise<number[]>;
}

/** Checksums from ../shared/models/README.md (Xenova/all-MiniLM-L6-v2 exports). */
const KNOWN_WEIGHTS: Record<string, Record<'q8' | 'fp32', string>> = {
  'all-MiniLM-L6-v2': {
    fp32: '759c3cd2b7fe7e93933ad23c4c9181b7396442a2ed746ec7c1d46192c469c46e',
    q8: 'afdb6f1a0e45b715d0bb9b11772f032c399babd23bfc31fed1c170afc848bdb1',
  },
};

type Ort = typeof import('onnxruntime-node');

interface LoadedModel {
  ort: Ort;
  session: InferenceSession;
  /** Whether the graph takes `token_type_ids` (BERT exports do, others may not). */
  takesTokenTypes: boolean;
  output: string;
}

/** Build an ONNX sentence embedder (id 'onnx:<model>:<dtype>'). Reads config.json synchronously. */
export function createOnnxSentenceEmbedder(options: OnnxSentenceOptions): OnnxSentenceEmbedder {
  const dtype = options.dtype ?? 'q8';
  const maxLength = options.maxLength ?? 256;
  const batchSize = options.batchSize ?? 32;
  const modelDir = path.join(options.modelsDir, options.model);
  const weightsFile = path.join(modelDir, 'onnx', dtype === 'q8' ? 'model_quantized.onnx' : 'model.onnx');
  const expectedSha = options.sha256 ?? KNOWN_WEIGHTS[options.model]?.[dtype];
  const dimensions = options.dimensions ?? hiddenSize(modelDir);
  let tokenizer: Promise<LoadedTokenizer> | null = null;
  let model: Promise<LoadedModel> | null = null;

  // One shared promise each, so concurrent first calls load once; a failure is forgotten so a
  // later call can retry (e.g. after the operator copied the files in).
  function getTokenizer(): Promise<LoadedTokenizer> {
    tokenizer ??= loadTokenizerFiles(modelDir).catch((err) => {
      tokenizer = null;
      throw wrapLoadError(err, `tokenizer of ${options.model} in ${modelDir}`);
    });
    return tokenizer;
  }

  function getModel(): Promise<LoadedModel> {
    model ??= (async () => {
      await verifyWeights(weightsFile, expectedSha);
      const ort = await importRuntime();
      const session = await ort.InferenceSession.create(weightsFile, {
        intraOpNumThreads: options.threads ?? 1,
        interOpNumThreads: 1,
        executionMode: 'sequential',
        graphOptimizationLevel: 'all',
      });
      const output = session.outputNames.includes('last_hidden_state') ? 'last_hidden_state' : session.outputNames[0];
      return { ort, session, output, takesTokenTypes: session.inputNames.includes('token_type_ids') };
    })().catch((err) => {
      model = null;
      throw wrapLoadError(err, `model ${options.model} (${dtype}) from ${weightsFile}`);
    });
    return model;
  }

  return {
    id: `onnx:${options.model}:${dtype}`,
    dimensions,
    // Word pieces, so a little under this many words; longer texts are truncated.
    maxTokens: maxLength,
    async load() {
      await Promise.all([getTokenizer(), getModel()]);
    },
    async loadTokenizer() {
      await getTokenizer();
    },
    async countTokens(text) {
      const { tokenizer: tok } = await getTokenizer();
      return tok.encode(text).ids.length;
    },
    async tokenIds(text) {
      return encodeTruncated(await getTokenizer(), text, maxLength);
    },
    async embed(texts) {
      if (texts.length === 0) return [];
      const [tok, mdl] = await Promise.all([getTokenizer(), getModel()]);
      const out = new Array<number[]>(texts.length);
      const live: { ids: number[]; at: number }[] = [];
      texts.forEach((text, at) => {
        const ids = encodeTruncated(tok, text, maxLength);
        // Blank text (or only characters the tokenizer drops): nothing but [CLS][SEP] to pool,
        // which would give all such texts one vector. The deterministic fallback keeps the
        // port's promises (unit length, equal texts match) without the model.
        if (ids.length <= tok.specialCount) out[at] = fallbackVector(text, dimensions);
        else live.push({ ids, at });
      });
      // Batches of similar lengths waste less on padding (the mask makes padding irrelevant).
      live.sort((a, b) => a.ids.length - b.ids.length);
      let first = true;
      for (const batch of chunks(live, batchSize)) {
        // Each run blocks the thread for the whole batch: let other work in between batches.
        if (!first) await new Promise<void>((resolve) => setImmediate(resolve));
        first = false;
        const vectors = await runBatch(
          mdl,
          tok.padId,
          batch.map((b) => b.ids),
          dimensions,
          options.model,
        );
        batch.forEach(
          (b, k) =>
            (out[b.at] = vectors[k].every((x) => x === 0) ? fallbackVector(texts[b.at], dimensions) : vectors[k]),
        );
      }
      return out;
    },
  };
}

async function runBatch(
  model: LoadedModel,
  padId: number,
  batch: number[][],
  dimensions: number,
  name: string,
): Promise<number[][]> {
  const rows = batch.length;
  const width = Math.max(1, ...batch.map((ids) => ids.length));
  const ids = new BigInt64Array(rows * width).fill(BigInt(padId));
  const mask = new BigInt64Array(rows * width);
  batch.forEach((tokens, row) => {
    tokens.forEach((id, col) => {
      ids[row * width + col] = BigInt(id);
      mask[row * width + col] = 1n;
    });
  });
  const { Tensor: OrtTensor } = model.ort;
  const feeds: Record<string, Tensor> = {
    input_ids: new OrtTensor('int64', ids, [rows, width]),
    attention_mask: new OrtTensor('int64', mask, [rows, width]),
  };
  // A single text is segment 0 throughout.
  if (model.takesTokenTypes)
    feeds.token_type_ids = new OrtTensor('int64', new BigInt64Array(rows * width), [rows, width]);
  const result = await model.session.run(feeds);
  const hidden = result[model.output];
  const size = hidden.dims.at(-1);
  if (hidden.dims.length !== 3 || hidden.dims[0] !== rows || hidden.dims[1] !== width || size !== dimensions) {
    throw new EmbedderError(
      'dimension_mismatch',
      `onnx:${name} produced ${size} dimensions, expected ${dimensions}` +
        ` (output ${model.output} of shape [${hidden.dims.join(', ')}] for ${rows} texts of ${width} tokens)`,
    );
  }
  const data = hidden.data as Float32Array;
  // Mean over the positions the mask keeps (float64 sums), then unit length.
  return batch.map((tokens, row) => {
    const v = new Array<number>(dimensions).fill(0);
    for (let t = 0; t < tokens.length; t++) {
      const at = (row * width + t) * dimensions;
      for (let d = 0; d < dimensions; d++) v[d] += data[at + d];
    }
    for (let d = 0; d < dimensions; d++) v[d] /= tokens.length;
    return normalize(v);
  });
}

let runtime: Promise<Ort> | null = null;

/** Imported on first use, not at the top: processes that never load this adapter skip the native runtime. */
function importRuntime(): Promise<Ort> {
  runtime ??= importPackage(() => import('onnxruntime-node'), 'onnxruntime-node').catch((err) => {
    runtime = null;
    throw err;
  });
  return runtime;
}

/** Fail before ONNX Runtime does, with the file name and what to put there. */
async function verifyWeights(file: string, expected: string | undefined): Promise<void> {
  try {
    await access(file);
  } catch {
    throw new EmbedderError(
      'model_missing',
      `ONNX weights not found: ${file}. Copy the model's ONNX export (the onnx/ folder of its ` +
        `Hugging Face repository, e.g. Xenova/all-MiniLM-L6-v2) there` +
        (expected ? ` (sha256 ${expected})` : '') +
        ', or use another embedder (use-lite, glove-sif, openai).',
    );
  }
  if (!expected) return;
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  const actual = hash.digest('hex');
  if (actual !== expected) {
    throw new EmbedderError(
      'checksum_mismatch',
      `ONNX weights ${file} have sha256 ${actual}, expected ${expected}; the file is corrupt or another export`,
    );
  }
}

function hiddenSize(modelDir: string): number {
  const file = path.join(modelDir, 'config.json');
  try {
    const size = (JSON.parse(readFileSync(file, 'utf8')) as { hidden_size?: number }).hidden_size;
    if (typeof size === 'number' && size > 0) return size;
  } catch (err) {
    throw new EmbedderError(
      'model_missing',
      `Cannot read ${file} (is MODELS_DIR right?): ${(err as Error).message}`,
      false,
      { cause: err },
    );
  }
  throw new EmbedderError('model_missing', `${file} has no hidden_size; pass dimensions explicitly`);
}

function wrapLoadError(err: unknown, what: string): EmbedderError {
  if (err instanceof EmbedderError) return err;
  const message = (err as Error).message ?? String(err);
  return new EmbedderError('model_missing', `Cannot load ${what}: ${message}`, false, { cause: err });
}
