/**
 * What the caller gets of an upstream's answer: its status and body as sent, and only the
 * headers that describe them (type, retry advice, rate limits, the upstream's request id),
 * marked as the upstream's with `x-engram-upstream`.
 */
import type { AnswerReader, Usage } from './provider-kit.ts';
import { UpstreamUnavailable, type UpstreamAnswer } from './upstream.ts';

/** The largest whole (non-streamed) answer read; beyond it the call is a 502. */
const MAX_WHOLE_BYTES = 32 * 1024 * 1024;

const PASSED = new Set(['content-type', 'retry-after', 'retry-after-ms', 'x-should-retry']);
const PASSED_PREFIXES = ['x-ratelimit-', 'anthropic-ratelimit-'];
const REQUEST_IDS = ['x-request-id', 'request-id'];

/** Headers of a streamed answer: no caching, and no buffering by a reverse proxy in front of us. */
export const STREAM_HEADERS = { 'cache-control': 'no-cache', 'x-accel-buffering': 'no' } as const;

export function answerHeaders(
  upstream: Record<string, string>,
  provider: string,
  memories: number,
): Record<string, string> {
  const out: Record<string, string> = { 'x-engram-upstream': provider, 'x-engram-memories': String(memories) };
  for (const [k, v] of Object.entries(upstream))
    if (PASSED.has(k) || PASSED_PREFIXES.some((p) => k.startsWith(p))) out[k] = v;
  const id = REQUEST_IDS.map((k) => upstream[k]).find(Boolean);
  if (id) out['x-upstream-request-id'] = id;
  return out;
}

/** The whole answer, read with `reader` when it is a JSON success (`reader` null: not read). */
export async function readWhole(
  answer: UpstreamAnswer,
  reader: AnswerReader | null,
): Promise<{ bytes: Buffer; usage: Usage; text: string }> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of answer.body) {
    size += chunk.byteLength;
    if (size > MAX_WHOLE_BYTES) {
      answer.cancel();
      throw new UpstreamUnavailable(`the answer is larger than ${MAX_WHOLE_BYTES} bytes`, false);
    }
    chunks.push(chunk);
  }
  const bytes = Buffer.concat(chunks);
  if (reader && /json/.test(answer.headers['content-type'] ?? '')) {
    try {
      const parsed: unknown = JSON.parse(bytes.toString('utf8'));
      for (const item of Array.isArray(parsed) ? parsed : [parsed]) reader.whole(item);
    } catch {
      // Said JSON and was not: passed on as it is, with no tokens read.
    }
  }
  return { bytes, ...(reader ? reader.result() : { usage: { input: 0, output: 0 }, text: '' }) };
}
