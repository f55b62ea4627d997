/**
 * Local sentence-transformers models (ONNX, transformers.js layout) from `MODELS_DIR`,
 * run by @huggingface/transformers on onnxruntime-node. Remote loading is switched off:
 * the product reads model files only from its dependencies or MODELS_DIR (ARCHITECTURE §7).
 *
 * Layout: <modelsDir>/<model>/{config.json, tokenizer.json, tokenizer_config.json, …,
 * onnx/model.onnx (fp32) | onnx/model_quantized.onnx (q8)}. Output = mean pooling over the
 * attention mask, then L2 normalisation, i.e. the sentence-transformers recipe.
 */
import { createHash } from 'node:crypto';
import { createReadStream, readFileSync } from 'node:fs';
import { access } from 'node:fs/promises';
import path from 'node:path';
import type { PreTrainedModel, PreTrainedTokenizer, Tensor } from '@huggingface/transformers';
import { chunks, EmbedderError, fallbackVector, type Embedder } from './embedder.ts';

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
}

/** An ONNX sentence embedder; `loadTokenizer()` works even when the weights are absent. */
export interface OnnxSentenceEmbedder extends Embedder {
  /** Verify the weights and load tokenizer + model now (idempotent). */
  load(): Promise<void>;
  /** Load only the tokenizer (no weights needed), e.g. to count tokens for chunking. */
  loadTokenizer(): Promise<void>;
  /** Number of tokens of `text` including [CLS]/[SEP], before truncation. */
  countTokens(text: string): Promise<number>;
}

/** Checksums from ../shared/models/README.md (Xenova/all-MiniLM-L6-v2 exports). */
const KNOWN_WEIGHTS: Record<string, Record<'q8' | 'fp32', string>> = {
  'all-MiniLM-L6-v2': {
    fp32: '759c3cd2b7fe7e93933ad23c4c9181b7396442a2ed746ec7c1d46192c469c46e',
    q8: 'afdb6f1a0e45b715d0bb9b11772f032c399babd23bfc31fed1c170afc848bdb1',
  },
};

type Transformers = typeof import('@huggingface/transformers');

/** Build an ONNX sentence embedder (id 'onnx:<model>:<dtype>'). Reads config.json synchronously. */
export function createOnnxSentenceEmbedder(options: OnnxSentenceOptions): OnnxSentenceEmbedder {
  const dtype = options.dtype ?? 'q8';
  const maxLength = options.maxLength ?? 256;
  const modelDir = path.join(options.modelsDir, options.model);
  const weightsFile = path.join(modelDir, 'onnx', dtype === 'q8' ? 'model_quantized.onnx' : 'model.onnx');
  const expectedSha = options.sha256 ?? KNOWN_WEIGHTS[options.model]?.[dtype];
  const dimensions = options.dimensions ?? hiddenSize(modelDir);
  let tokenizer: Promise<PreTrainedTokenizer> | null = null;
  let model: Promise<PreTrainedModel> | null = null;

  function getTokenizer(): Promise<PreTrainedTokenizer> {
    tokenizer ??= (async () => {
      const tf = await transformers(options.modelsDir);
      return tf.AutoTokenizer.from_pretrained(options.model);
    })().catch((err) => {
      tokenizer = null;
      throw wrapLoadError(err, `tokenizer of ${options.model} in ${modelDir}`);
    });
    return tokenizer;
  }

  function getModel(): Promise<PreTrainedModel> {
    model ??= (async () => {
      await verifyWeights(weightsFile, expectedSha);
      const tf = await transformers(options.modelsDir);
      return tf.AutoModel.from_pretrained(options.model, { dtype });
    })().catch((err) => {
      model = null;
      throw wrapLoadError(err, `model ${options.model} (${dtype})`);
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
      const tok = await getTokenizer();
      return tok(text).input_ids.dims.at(-1) as number;
    },
    async embed(texts) {
      if (texts.length === 0) return [];
      const [tok, mdl, tf] = await Promise.all([getTokenizer(), getModel(), transformers(options.modelsDir)]);
      const out: number[][] = [];
      for (const batch of chunks(texts, options.batchSize ?? 32)) {
        const inputs = tok(batch, { padding: true, truncation: true, max_length: maxLength });
        // A model's call is untyped in transformers.js; a feature-extraction model answers with
        // its hidden states.
        const { last_hidden_state } = (await mdl(inputs)) as { last_hidden_state: Tensor };
        const pooled = tf.mean_pooling(last_hidden_state, inputs.attention_mask).normalize(2, -1);
        const rows = pooled.tolist() as number[][];
        rows.forEach((v, k) => {
          if (v.length !== dimensions) {
            throw new EmbedderError(
              'dimension_mismatch',
              `onnx:${options.model} produced ${v.length} dimensions, expected ${dimensions}`,
            );
          }
          // An empty text pools over [CLS][SEP] only; keep the port's "unit vector" promise regardless.
          out.push(v.every((x) => x === 0) ? fallbackVector(batch[k], dimensions) : v);
        });
      }
      return out;
    },
  };
}

let runtime: Promise<Transformers> | null = null;

/**
 * Import transformers.js once and pin it offline. `env` is the library's global, so every
 * call re-points `localModelPath` at this embedder's modelsDir just before loading.
 */
async function transformers(modelsDir: string): Promise<Transformers> {
  runtime ??= import('@huggingface/transformers').catch((err) => {
    runtime = null;
    throw new EmbedderError(
      'runtime_missing',
      `Cannot load @huggingface/transformers / onnxruntime-node ` +
        `(native binary for ${process.platform}-${process.arch}): ${(err as Error).message}`,
      false,
      { cause: err },
    );
  });
  const tf = await runtime;
  tf.env.allowRemoteModels = false;
  tf.env.allowLocalModels = true;
  tf.env.useFSCache = false; // nothing to cache offline, and node_modules may be read-only
  tf.env.localModelPath = modelsDir.endsWith('/') ? modelsDir : `${modelsDir}/`;
  return tf;
}

/** Fail before ONNX Runtime does, with the file name and what to put there. */
async function verifyWeights(file: string, expected: string | undefined): Promise<void> {
  try {
    await access(file);
  } catch {
    throw new EmbedderError(
      'model_missing',
      `ONNX weights not found: ${file}. Copy the transformers.js export of the model there` +
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
