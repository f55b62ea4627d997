/**
 * Reranking by a Cohere-compatible `/rerank` endpoint: Cohere itself (v1 and v2), and the
 * servers that copied its shape (Jina, vLLM, llama.cpp server, Infinity) or a close variant
 * (Voyage answers in `data`; Hugging Face TEI takes `texts` and answers a plain array).
 *
 * Request `{model, query, documents: string[], top_n, return_documents: false}`; answer
 * `{results: [{index, relevance_score}], meta?}`. Accepted too: `score` for `relevance_score`,
 * `data` for `results`, and a bare array (TEI). TEI's own `/rerank` rejects a body without
 * `texts` with a 4xx that names the field: from then on this adapter sends TEI's body
 * `{query, texts, truncate: true}` to that URL, as openai-chat.ts falls back from json_schema.
 *
 * More documents than `maxDocuments` go out in several requests (concurrently, a few at a
 * time). A cross-encoder's score is absolute (one query-document pair at a time), so scores of
 * different requests are comparable and simply merged; with `topN`, each request asks for its
 * own best `topN` only, which always contains its share of the overall best `topN`.
 *
 * Errors: timeouts, connection failures, 429 and 5xx are a retryable 'unavailable' (with the
 * server's `Retry-After`); other statuses 'http_error'; an answer that is not the shape above,
 * names an unknown or repeated index, or has fewer results than asked, 'bad_response'.
 */
import { endpointUrl, errorMessage, postJson, retryableStatus, retryAfterMs } from './openai-http.ts';
import {
  checkRerankInput,
  fetchWithSignal,
  indexBatches,
  mapBounded,
  rankResults,
  RerankerError,
  underSignal,
  type Reranker,
  type RerankResult,
} from './reranker.ts';

/** Configuration for {@link createCohereReranker}. */
export interface CohereRerankerOptions {
  /**
   * Server root, API base or full URL: 'https://api.cohere.com' (→ /v1/rerank),
   * 'https://api.cohere.com/v2', 'https://api.jina.ai/v1', 'http://tei:8080/rerank'.
   */
  baseUrl: string;
  /** e.g. 'rerank-v3.5', 'jina-reranker-v2-base-multilingual', 'BAAI/bge-reranker-v2-m3' (TEI ignores it). */
  model: string;
  /** Sent as `Authorization: Bearer …` when set. */
  apiKey?: string;
  /** Per-request timeout, body included. */
  timeoutMs: number;
  /**
   * Documents per request (default 100). Cohere accepts 1,000; TEI's default
   * `--max-client-batch-size` is 32, so set 32 for a stock TEI.
   */
  maxDocuments?: number;
  /** Injectable for tests and proxies; defaults to the global fetch. */
  fetch?: typeof fetch;
}

const DEFAULT_MAX_DOCUMENTS = 100;
/** Requests in flight when documents exceed `maxDocuments`: enough to overlap, few enough for rate limits. */
const BATCH_CONCURRENCY = 4;

/** Build a reranker for a Cohere-compatible endpoint (id 'cohere:<model>'). */
export function createCohereReranker(options: CohereRerankerOptions): Reranker {
  const url = endpointUrl(options.baseUrl, 'rerank');
  const doFetch = options.fetch ?? fetch;
  const id = `cohere:${options.model}`;
  const maxDocuments = options.maxDocuments ?? DEFAULT_MAX_DOCUMENTS;
  if (!Number.isInteger(maxDocuments) || maxDocuments < 1)
    throw new RerankerError('invalid_input', `${id}: maxDocuments must be a positive integer`);
  // Cohere v2 dropped `return_documents` (it never returns them); v1, Jina and others default it to true.
  const sendReturnDocuments = !/\/v2\/rerank$/.test(url);
  let dialect: 'cohere' | 'tei' = 'cohere';

  function requestBody(query: string, documents: string[], topN: number | undefined): object {
    if (dialect === 'tei') return { query, texts: documents, truncate: true };
    const body: Record<string, unknown> = { model: options.model, query, documents };
    if (topN !== undefined) body.top_n = topN;
    if (sendReturnDocuments) body.return_documents = false;
    return body;
  }

  /** Scores of one request's documents; indexes are local to `documents`. */
  async function post(
    query: string,
    documents: string[],
    topN: number | undefined,
    signal: AbortSignal | undefined,
  ): Promise<RerankResult[]> {
    const { res, text } = await postJson(fetchWithSignal(doFetch, signal), url, requestBody(query, documents, topN), {
      apiKey: options.apiKey,
      timeoutMs: options.timeoutMs,
      unavailable: (reason, cause) => new RerankerError('unavailable', `${id}: POST ${url} ${reason}`, true, { cause }),
    });
    if (dialect === 'cohere' && (res.status === 400 || res.status === 422) && /\btexts\b/.test(text)) {
      dialect = 'tei';
      return post(query, documents, topN, signal);
    }
    if (!res.ok) {
      const retryable = retryableStatus(res.status);
      throw new RerankerError(
        retryable ? 'unavailable' : 'http_error',
        `${id}: POST ${url} answered ${res.status}: ${errorMessage(text)}`,
        retryable,
        { retryAfterMs: retryAfterMs(res.headers.get('retry-after')) },
      );
    }
    return parseResults(text, documents.length, Math.min(topN ?? documents.length, documents.length));
  }

  /** The answer's results, checked: known indexes, each once, finite scores, at least `expected` of them. */
  function parseResults(text: string, count: number, expected: number): RerankResult[] {
    const bad = (why: string) =>
      new RerankerError('bad_response', `${id}: ${why}; answer began: ${text.slice(0, 200)}`);
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw bad('the answer is not JSON');
    }
    const list = Array.isArray(json) ? json : resultList(json);
    if (!Array.isArray(list)) throw bad('no "results" array in the answer');
    const seen = new Set<number>();
    const out: RerankResult[] = [];
    for (const item of list as unknown[]) {
      const { index, relevance_score, score } = (item ?? {}) as Record<string, unknown>;
      const value = relevance_score ?? score;
      if (typeof index !== 'number' || !Number.isInteger(index) || index < 0 || index >= count)
        throw bad(`result index ${JSON.stringify(index)} is not one of the ${count} documents sent`);
      if (seen.has(index)) throw bad(`document ${index} is scored twice`);
      if (typeof value !== 'number' || !Number.isFinite(value)) throw bad(`document ${index} has no numeric score`);
      seen.add(index);
      out.push({ index, score: value });
    }
    if (out.length < expected) throw bad(`${out.length} results for ${expected} expected`);
    return out;
  }

  return {
    id,
    async rerank(query, documents, { topN, signal } = {}) {
      checkRerankInput(id, query, documents, topN);
      if (documents.length === 0) return [];
      return underSignal(signal, async () => {
        const batches = indexBatches(documents.length, maxDocuments);
        const scored = await mapBounded(batches, BATCH_CONCURRENCY, async (batch) => {
          const local = await post(
            query,
            batch.map((i) => documents[i]),
            topN === undefined ? undefined : Math.min(topN, batch.length),
            signal,
          );
          return local.map((r) => ({ index: batch[r.index], score: r.score }));
        });
        return rankResults(scored.flat(), topN);
      });
    },
  };
}

/** `results` (Cohere, Jina, vLLM, llama.cpp) or `data` (Voyage). */
function resultList(json: unknown): unknown {
  if (typeof json !== 'object' || json === null) return undefined;
  const { results, data } = json as { results?: unknown; data?: unknown };
  return results ?? data;
}
