/**
 * Latency of the graph-transform endpoints for the rerank benchmark, over HTTP like a client:
 * POST /v1/graph/transform one text at a time (and the artifact's size), a batch transform of
 * `texts`, and POST /v1/graph/rerank of a query against document strings or pre-computed
 * artifacts. Sequential calls after a warm-up, client-side wall time, p50/p95.
 *
 * The server's transform runs on the query-side embedder, which caches embeddings by text
 * (QUERY_EMBEDDING_CACHE_SIZE): a text sent twice costs nothing the second time. So every timed
 * call here sends texts (and queries) the server has not seen before in this phase; otherwise
 * the numbers would measure the cache, not the transform.
 */
import { percentile } from '../stats.ts';

/** A JSON POST with the API key; the parsed answer, its size in bytes and the wall time. */
export type Post = (path: string, body: unknown) => Promise<{ json: any; bytes: number; ms: number }>;

export function poster(baseUrl: string, apiKey: string): Post {
  return async (path, body) => {
    const t0 = performance.now();
    const res = await fetch(`${baseUrl}${path}`, {
      method: 'POST',
      headers: { 'X-API-Key': apiKey, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    const text = await res.text();
    const ms = performance.now() - t0;
    // The response text is what a report needs when an endpoint misbehaves, so it goes in the error.
    if (!res.ok) throw new Error(`POST ${path} answered ${res.status}: ${text.slice(0, 800)}`);
    return { json: JSON.parse(text), bytes: Buffer.byteLength(text), ms };
  };
}

/** p50/p95/mean of a sample, rounded for the summary. */
export function summary(ms: number[]) {
  const r = (x: number) => Math.round(x * 100) / 100;
  return {
    n: ms.length,
    p50_ms: r(percentile(ms, 50)),
    p95_ms: r(percentile(ms, 95)),
    mean_ms: r(ms.reduce((a, b) => a + b, 0) / Math.max(1, ms.length)),
  };
}

/** `n` items of `pool` starting at `from`, wrapping around (a small pool only repeats, never fails). */
export const take = <T>(pool: T[], from: number, n: number): T[] =>
  Array.from({ length: n }, (_, i) => pool[(from + i) % pool.length]);

/**
 * POST /v1/graph/transform with one `text` per call: `warmup` calls on `warmupTexts`, then one timed
 * call per text of `texts`. The artifact size is the response body (the single-text answer is the
 * artifact itself); band vectors are its signal_embeddings.
 */
export async function timeTransform(post: Post, domainId: string, texts: string[], warmupTexts: string[]) {
  for (const text of warmupTexts) await post('/v1/graph/transform', { text, domain_id: domainId });
  const ms: number[] = [];
  const bytes: number[] = [];
  const server: number[] = [];
  let shape: { embedding_dims: number; band_vectors: number; band_dims: number; bands: string[] } | undefined;
  for (const text of texts) {
    const r = await post('/v1/graph/transform', { text, domain_id: domainId });
    ms.push(r.ms);
    bytes.push(r.bytes);
    server.push(Number(r.json.meta?.timing_ms?.total_ms ?? NaN));
    const bands = Object.keys(r.json.signal_embeddings ?? {});
    shape ??= {
      embedding_dims: r.json.embedding?.length ?? 0,
      band_vectors: bands.length,
      band_dims: r.json.signal_embeddings?.[bands[0]]?.length ?? 0,
      bands,
    };
  }
  return {
    ...summary(ms),
    server_total_p50_ms: percentile(server, 50),
    artifact_bytes_p50: percentile(bytes, 50),
    artifact_bytes_max: Math.max(...bytes),
    ...shape,
  };
}

/** Artifacts of `texts` by batch transform (`texts`, at most 100 per call), with the time per text. */
export async function batchArtifacts(post: Post, domainId: string, texts: string[]) {
  const artifacts: any[] = [];
  let ms = 0;
  for (let i = 0; i < texts.length; i += 100) {
    const r = await post('/v1/graph/transform', { texts: texts.slice(i, i + 100), domain_id: domainId });
    if (!Array.isArray(r.json.artifacts))
      throw new Error(`batch transform without artifacts: ${JSON.stringify(r.json).slice(0, 500)}`);
    artifacts.push(...r.json.artifacts);
    ms += r.ms;
  }
  return { artifacts, ms_total: Math.round(ms), ms_per_text: Math.round((ms / texts.length) * 100) / 100 };
}

/**
 * POST /v1/graph/rerank, sequentially: `warmup` calls then `calls` timed ones. Call i asks
 * `queries[i]` about `docsOf(i)` (a function, so each call can bring documents the server has not
 * embedded yet). Returns the latencies, the request size and what the server says it did.
 */
export async function timeRerank(
  post: Post,
  opts: {
    domainId: string;
    queries: string[];
    docsOf: (call: number) => unknown[];
    warmup: number;
    calls: number;
    topK?: number;
  },
) {
  const body = (i: number) => ({
    query: opts.queries[i % opts.queries.length],
    documents: opts.docsOf(i),
    domain_id: opts.domainId,
    top_k: opts.topK ?? 10,
  });
  for (let i = 0; i < opts.warmup; i++) await post('/v1/graph/rerank', body(i));
  const ms: number[] = [];
  const documentsMs: number[] = [];
  const methods = new Set<string>();
  let requestBytes = 0;
  for (let i = opts.warmup; i < opts.warmup + opts.calls; i++) {
    const b = body(i);
    requestBytes = Math.max(requestBytes, Buffer.byteLength(JSON.stringify(b)));
    const r = await post('/v1/graph/rerank', b);
    ms.push(r.ms);
    documentsMs.push(Number(r.json.meta?.timing_ms?.documents_ms ?? NaN));
    methods.add(String(r.json.meta?.method_used));
  }
  return {
    ...summary(ms),
    documents: opts.docsOf(0).length,
    server_documents_p50_ms: percentile(documentsMs, 50),
    request_bytes_max: requestBytes,
    method_used: [...methods],
  };
}

/**
 * The latency phase: transform of 100 texts one at a time (10 others first as warm-up), a batch
 * transform of 100 more, then rerank of 100 documents 20 times (after 10 warm-up calls) as strings
 * (new texts each call) and as those batch artifacts. `texts` should hold ≥ 3,210 texts (fewer
 * repeat, and a repeat is a cache hit); `queries` ≥ 61 queries the server has not embedded yet.
 */
export async function endpointLatency(
  post: Post,
  texts: string[],
  queries: string[],
  domainId = 'scifact',
  /** Timed rerank calls per kind (after half as many warm-ups); each call over strings transforms 100 new texts. */
  calls = 20,
) {
  const transform = await timeTransform(post, domainId, take(texts, 0, 100), take(texts, 100, 10));
  const batch = await batchArtifacts(post, domainId, take(texts, 110, 100));
  const common = { domainId, warmup: Math.ceil(calls / 2), calls };
  const strings = await timeRerank(post, {
    ...common,
    queries: take(queries, 0, 30),
    docsOf: (i) => take(texts, 210 + i * 100, 100),
  });
  // 100 artifacts as JSON can exceed the server's body limit (BODY_LIMIT_BYTES, 10 MiB by default):
  // a 413 is recorded and the measurement repeated with half as many, so the run still says what fits.
  const refused: string[] = [];
  let artifacts: Awaited<ReturnType<typeof timeRerank>> | undefined;
  for (let n = batch.artifacts.length; !artifacts && n >= 1; n = Math.floor(n / 2)) {
    const docs = batch.artifacts.slice(0, n);
    artifacts = await timeRerank(post, { ...common, queries: take(queries, 30, 30), docsOf: () => docs }).catch(
      (err: Error) => {
        if (!/answered 413/.test(err.message)) throw err;
        refused.push(`${n} artifacts, ${Buffer.byteLength(JSON.stringify(docs))} bytes of JSON: ${err.message}`);
        console.error(`!!! rerank refused ${refused[refused.length - 1]}`);
        return undefined;
      },
    );
  }
  if (!artifacts) throw new Error(`rerank refused even one artifact: ${refused.join('; ')}`);
  // Artifacts are int8 inside and go out dequantized: the same documents should rank the same either way.
  const top = async (documents: unknown[]) =>
    (
      await post('/v1/graph/rerank', { query: queries[60], documents, domain_id: domainId, top_k: 10 })
    ).json.results.map((r: { index: number }) => r.index);
  const n = artifacts.documents;
  const [a, b] = [await top(take(texts, 110, n)), await top(batch.artifacts.slice(0, n))];
  const same = JSON.stringify(a) === JSON.stringify(b);
  if (!same) console.error(`!!! rerank of strings and of their artifacts disagree: ${JSON.stringify([a, b])}`);
  return {
    transform,
    batch_transform: { texts: batch.artifacts.length, ms_per_text: batch.ms_per_text },
    rerank_strings: strings,
    rerank_artifacts: { ...artifacts, same_top10_as_strings: same, refused },
  };
}
