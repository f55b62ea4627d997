/**
 * The embedding port. Search and indexing depend on this interface only; adapters
 * (USE lite, GloVe SIF, OpenAI-compatible HTTP, local ONNX) live beside it.
 */

import { ModelError } from './model-error.ts';

/** A text embedder. Vectors are unit-length (L2-normalised) number arrays. */
export interface Embedder {
  /** Stable model id stored beside every vector, e.g. 'use-lite-512', 'glove-sif-100', 'openai:<model>' */
  readonly id: string;
  readonly dimensions: number;
  /** Max input length in (approximate) tokens before the caller should chunk. */
  readonly maxTokens: number;
  embed(texts: string[]): Promise<number[][]>;
}

/** The dense signals a deployment runs: a primary embedder and an optional second one. */
export interface Embedders {
  primary: Embedder;
  secondary?: Embedder;
}

/** Why an embedder failed; lets callers decide between retrying, degrading and alerting. */
export type EmbedderErrorCode =
  | 'model_missing' // a weights/tokenizer/cache file is absent
  | 'checksum_mismatch' // a weights file is present but is not the expected one
  | 'runtime_missing' // a native runtime (e.g. onnxruntime-node) cannot be loaded
  | 'dimension_mismatch' // the model returned vectors of an unexpected size
  | 'bad_response' // a remote endpoint answered with something unusable
  | 'http_error' // a remote endpoint answered with a non-retryable status
  | 'unavailable' // timeouts, connection errors, retries exhausted
  | 'invalid_input';

/** The one error type adapters throw, so callers can branch on `code` instead of messages. */
export class EmbedderError extends ModelError<EmbedderErrorCode> {
  override readonly name = 'EmbedderError';
}

/**
 * L2-normalise in place and return the array. Accumulates in float64 so float32 model
 * outputs come back with a norm of 1 to ~1e-15. A zero vector is returned unchanged
 * (callers decide what "no signal" means for them).
 */
export function normalize(v: number[]): number[] {
  let sum = 0;
  for (let i = 0; i < v.length; i++) sum += v[i] * v[i];
  if (sum === 0 || !Number.isFinite(sum)) return v;
  const inv = 1 / Math.sqrt(sum);
  for (let i = 0; i < v.length; i++) v[i] *= inv;
  return v;
}

/** Dot product; equals cosine similarity for the unit vectors embedders return. */
export function dot(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length) throw new RangeError(`dot: length ${a.length} != ${b.length}`);
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
}

/** Split `items` into consecutive slices of at most `size` (size >= 1). */
export function chunks<T>(items: T[], size: number): T[][] {
  const n = Math.max(1, Math.floor(size));
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += n) out.push(items.slice(i, i + n));
  return out;
}

/**
 * A deterministic unit vector derived from a string (FNV-1a seeded xorshift).
 * Used for texts a model has no signal for (empty, or no known tokens): identical
 * texts still match each other, unrelated ones are near-orthogonal, and the vector
 * stays unit-length, so pgvector's cosine never sees a zero vector (which yields NaN).
 */
export function fallbackVector(text: string, dimensions: number): number[] {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  let state = h || 1;
  const v = new Array<number>(dimensions);
  for (let i = 0; i < dimensions; i++) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    v[i] = state / 0xffffffff - 0.5;
  }
  return normalize(v);
}
