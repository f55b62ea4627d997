/**
 * The reranking port. Search depends on this interface only: it hands the fused candidates
 * (in fused order) to a reranker and reorders them by the scores it gets back. Adapters live
 * beside it: `reranker.cohere.ts` (any Cohere-compatible `/rerank` endpoint: Cohere, Jina,
 * Voyage, vLLM, llama.cpp, Infinity, Hugging Face TEI) and `reranker.openai.ts` (an
 * OpenAI-compatible chat model used as a pointwise judge).
 *
 * Adapters do not retry on their own: reranking sits on the search request path, so the caller
 * decides between one retry (`retryable`, `retryAfterMs`) and degrading to the fused order.
 */

import { ModelError } from './model-error.ts';

/** One reranked candidate: its position in the `documents` given to `rerank`, and its score. */
export interface RerankResult {
  index: number;
  /** Higher is more relevant; comparable within one call (Cohere-style models: 0–1). */
  score: number;
}

/** Per-call options. */
export interface RerankOptions {
  /** Return only the best `topN` (a positive integer); all documents when absent. */
  topN?: number;
  /** Aborts the call; the promise then rejects with the signal's reason, as `fetch` does. */
  signal?: AbortSignal;
}

/** A reranker: scores `documents` against `query`. */
export interface Reranker {
  /** Stable id for logs and provenance, e.g. 'cohere:rerank-v3.5', 'llm:gpt-4o-mini'. */
  readonly id: string;
  /**
   * Results sorted by score, best first (ties keep the input order, i.e. the fused order),
   * each index into `documents` at most once; `[]` for no documents, without a call.
   */
  rerank(query: string, documents: string[], options?: RerankOptions): Promise<RerankResult[]>;
}

/** Why a reranker failed; lets the caller decide between retrying, degrading and alerting. */
export type RerankerErrorCode =
  | 'unavailable' // timeouts, connection errors, 429, 5xx: retryable
  | 'http_error' // the endpoint answered with a non-retryable status (400, 401, 404…)
  | 'bad_response' // the endpoint answered with something unusable
  | 'invalid_input'; // the call itself is wrong (blank query, bad topN)

/** The one error type reranker adapters throw, so callers branch on `code` instead of messages. */
export class RerankerError extends ModelError<RerankerErrorCode> {
  override readonly name = 'RerankerError';
}

/** Throw 'invalid_input' for a call no endpoint could answer usefully. */
export function checkRerankInput(id: string, query: string, documents: string[], topN: number | undefined): void {
  if (typeof query !== 'string' || !query.trim()) throw new RerankerError('invalid_input', `${id}: the query is empty`);
  if (!Array.isArray(documents) || documents.some((d) => typeof d !== 'string'))
    throw new RerankerError('invalid_input', `${id}: documents must be an array of strings`);
  if (topN !== undefined && (!Number.isInteger(topN) || topN < 1))
    throw new RerankerError('invalid_input', `${id}: topN must be a positive integer, got ${topN}`);
}

/** Best first; ties keep input order, so equal scores never shuffle the fused order. */
export function rankResults(results: RerankResult[], topN?: number): RerankResult[] {
  const sorted = [...results].sort((a, b) => b.score - a.score || a.index - b.index);
  return topN === undefined ? sorted : sorted.slice(0, topN);
}

/**
 * `doFetch` that also honours the caller's signal. postJson sets its own timeout signal, so the
 * two are combined rather than one replacing the other.
 */
export function fetchWithSignal(doFetch: typeof fetch, signal: AbortSignal | undefined): typeof fetch {
  if (!signal) return doFetch;
  return (input, init) =>
    doFetch(input, { ...init, signal: init?.signal ? AbortSignal.any([init.signal, signal]) : signal });
}

/**
 * Run `fn` over `items` with at most `limit` calls in flight, results in input order. The first
 * failure rejects the whole and stops new calls from starting (calls in flight finish unobserved).
 */
export async function mapBounded<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  let failed = false;
  const worker = async () => {
    while (!failed && next < items.length) {
      const i = next++;
      try {
        out[i] = await fn(items[i]);
      } catch (err) {
        failed = true;
        throw err;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  return out;
}

/**
 * Run a call under the caller's signal: refuse to start when already aborted, and report an
 * abort as the signal's reason rather than as the adapter's retryable 'unavailable' (the caller
 * gave up; nothing is wrong with the endpoint).
 */
export async function underSignal<T>(signal: AbortSignal | undefined, call: () => Promise<T>): Promise<T> {
  signal?.throwIfAborted();
  try {
    return await call();
  } catch (err) {
    if (signal?.aborted) throw signal.reason;
    throw err;
  }
}

/** Split 0..count-1 into consecutive runs of at most `size` indexes. */
export function indexBatches(count: number, size: number): number[][] {
  const out: number[][] = [];
  for (let start = 0; start < count; start += size)
    out.push(Array.from({ length: Math.min(size, count - start) }, (_, k) => start + k));
  return out;
}
