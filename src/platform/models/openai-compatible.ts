/**
 * Embeddings from any OpenAI-compatible `/v1/embeddings` endpoint: OpenAI itself, or
 * self-hosted servers such as vLLM, Hugging Face TEI or Ollama (e.g. Qwen3-Embedding).
 * Request `{model, input: string[]}`; response `{data: [{index, embedding: number[]}]}`.
 */
import { endpointUrl, errorMessage, postJson, retryableStatus, retryAfterMs } from './openai-http.ts';
import { chunks, EmbedderError, fallbackVector, normalize, type Embedder } from './embedder.ts';

/** Configuration for {@link createOpenAICompatibleEmbedder}. */
export interface OpenAICompatibleOptions {
  /** Server root or API base: 'http://host:8000', 'https://api.openai.com/v1' or a full '…/embeddings' URL. */
  baseUrl: string;
  model: string;
  /** Expected vector size; every response is checked against it. */
  dimensions: number;
  /** Sent as `Authorization: Bearer …` when set. */
  apiKey?: string;
  /** Per-attempt timeout (default 30 s). */
  timeoutMs?: number;
  /** Texts per request (default 64; OpenAI accepts up to 2048, small servers far fewer). */
  batchSize?: number;
  /** Retries after a 429/5xx/network error/timeout (default 3, so at most 4 attempts). */
  maxRetries?: number;
  /** First backoff delay; doubles per retry, with jitter (default 250 ms). */
  retryBaseMs?: number;
  /** Also send `dimensions` (models with adjustable output size, e.g. text-embedding-3-*). */
  sendDimensions?: boolean;
  /** Input limit of the served model in tokens (default 8192). */
  maxTokens?: number;
  /** Injectable for tests and proxies; defaults to the global fetch. */
  fetch?: typeof fetch;
}

/** Longest server-requested wait we honour from `Retry-After`, so a caller is never parked for minutes. */
const MAX_RETRY_AFTER_MS = 5_000;

/** Build an embedder for an OpenAI-compatible endpoint (id 'openai:<model>'). */
export function createOpenAICompatibleEmbedder(options: OpenAICompatibleOptions): Embedder {
  const url = embeddingsUrl(options.baseUrl);
  const doFetch = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? 30_000;
  const maxRetries = options.maxRetries ?? 3;
  const retryBaseMs = options.retryBaseMs ?? 250;
  const name = `openai:${options.model}`;
  if (!Number.isInteger(options.dimensions) || options.dimensions <= 0) {
    throw new EmbedderError('invalid_input', `${name}: dimensions must be a positive integer`);
  }

  async function attempt(input: string[]): Promise<number[][]> {
    const body: Record<string, unknown> = { model: options.model, input };
    if (options.sendDimensions) body.dimensions = options.dimensions;
    const { res, text } = await postJson(doFetch, url, body, {
      apiKey: options.apiKey,
      timeoutMs,
      unavailable: (reason, cause) =>
        new EmbedderError('unavailable', `${name}: POST ${url} ${reason}`, true, { cause }),
    });
    if (!res.ok) {
      const retryable = retryableStatus(res.status);
      throw new EmbedderError(
        retryable ? 'unavailable' : 'http_error',
        `${name}: POST ${url} answered ${res.status}: ${errorMessage(text)}`,
        retryable,
        { retryAfterMs: retryAfterMs(res.headers.get('retry-after')) },
      );
    }
    return parseVectors(text, input.length);
  }

  function parseVectors(text: string, expected: number): number[][] {
    let data: unknown;
    try {
      data = (JSON.parse(text) as { data?: unknown }).data;
    } catch {
      throw new EmbedderError('bad_response', `${name}: response is not JSON: ${text.slice(0, 200)}`);
    }
    if (!Array.isArray(data) || data.length !== expected) {
      throw new EmbedderError(
        'bad_response',
        `${name}: expected ${expected} embeddings in "data", got ${Array.isArray(data) ? data.length : typeof data}`,
      );
    }
    const rows = data as { index?: unknown; embedding?: unknown }[];
    const out: number[][] = new Array<number[]>(expected);
    for (const [position, row] of rows.entries()) {
      // `index` says which input a row belongs to; servers may reorder, some omit it.
      const index = typeof row.index === 'number' ? row.index : position;
      const v = row.embedding;
      if (!Number.isInteger(index) || index < 0 || index >= expected || out[index]) {
        throw new EmbedderError('bad_response', `${name}: invalid or duplicate embedding index ${String(row.index)}`);
      }
      if (!Array.isArray(v) || !v.every((x) => typeof x === 'number' && Number.isFinite(x))) {
        throw new EmbedderError(
          'bad_response',
          `${name}: embedding ${index} is not an array of numbers (base64 encoding is not supported)`,
        );
      }
      if (v.length !== options.dimensions) {
        throw new EmbedderError(
          'dimension_mismatch',
          `${name}: the server returned ${v.length}-dimensional vectors but ${options.dimensions} are configured; ` +
            `set the configured dimensions to ${v.length} (stored vectors of another size cannot be compared)`,
        );
      }
      out[index] = normalize(v as number[]);
    }
    return out;
  }

  async function withRetries(input: string[]): Promise<number[][]> {
    for (let retry = 0; ; retry++) {
      try {
        return await attempt(input);
      } catch (err) {
        if (!(err instanceof EmbedderError) || !err.retryable || retry >= maxRetries) {
          if (err instanceof EmbedderError && err.retryable && maxRetries > 0) {
            err.message += ` (gave up after ${retry + 1} attempts)`;
          }
          throw err;
        }
        const jitter = 0.5 + Math.random() / 2; // spread retries of concurrent callers
        const backoff = retryBaseMs * 2 ** retry * jitter;
        const wait = Math.min(Math.max(backoff, err.retryAfterMs ?? 0), MAX_RETRY_AFTER_MS);
        await new Promise((resolve) => setTimeout(resolve, wait));
      }
    }
  }

  return {
    id: name,
    dimensions: options.dimensions,
    maxTokens: options.maxTokens ?? 8192,
    async embed(texts) {
      const out: number[][] = new Array<number[]>(texts.length);
      // OpenAI rejects empty strings in `input`; blank texts get the local fallback instead.
      const live: { text: string; at: number }[] = [];
      texts.forEach((text, at) => {
        if (text.trim() === '') out[at] = fallbackVector(text, options.dimensions);
        else live.push({ text, at });
      });
      for (const batch of chunks(live, options.batchSize ?? 64)) {
        const vectors = await withRetries(batch.map((b) => b.text));
        batch.forEach((b, k) => (out[b.at] = vectors[k]));
      }
      return out;
    },
  };
}

/** Accept a server root, an API base ending in /v<n>, or the full endpoint URL. */
export function embeddingsUrl(baseUrl: string): string {
  return endpointUrl(baseUrl, 'embeddings');
}
