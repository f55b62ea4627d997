/**
 * The upstream port and its HTTP adapter (undici). One POST per proxied call; the answer's
 * body is read as it arrives, never buffered here, so a stream passes through chunk by chunk.
 * Redirects are not followed (an upstream is exactly the configured URL), and nothing of the
 * caller's request but the body and the headers the proxy chose is sent.
 */
import { Agent, request } from 'undici';

export interface UpstreamRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
}

export interface UpstreamAnswer {
  status: number;
  /** Lower-case names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  /** The body as it arrives; a failure while reading it is an UpstreamUnavailable. */
  body: AsyncIterable<Uint8Array>;
  /** Stop reading and close the connection (the caller went away). */
  cancel(): void;
}

export interface Upstream {
  send(req: UpstreamRequest): Promise<UpstreamAnswer>;
  close(): Promise<void>;
}

/** No (complete) answer: refused, reset, or too slow (`timedOut`). */
export class UpstreamUnavailable extends Error {
  constructor(
    message: string,
    readonly timedOut: boolean,
  ) {
    super(message);
    this.name = 'UpstreamUnavailable';
  }
}

const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT']);

function unavailable(err: unknown, timeoutMs: number): UpstreamUnavailable {
  if (err instanceof UpstreamUnavailable) return err;
  const e = err as { code?: string; message?: string; cause?: { code?: string } };
  if (e.code && TIMEOUT_CODES.has(e.code)) return new UpstreamUnavailable(`no answer within ${timeoutMs} ms`, true);
  const code = e.code ?? e.cause?.code;
  return new UpstreamUnavailable(code ? `${code}: ${e.message ?? ''}`.trim() : String(e.message ?? err), false);
}

function flatHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) if (v !== undefined) out[k] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

/**
 * The undici adapter. `timeoutMs` bounds the wait for the answer's headers and every silence
 * inside its body (a stream may last as long as it keeps sending); connecting gets at most 10 s.
 */
export function createHttpUpstream(opts: { timeoutMs: number }): Upstream {
  const { timeoutMs } = opts;
  const agent = new Agent({
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
    connect: { timeout: Math.min(timeoutMs, 10_000) },
  });
  return {
    async send(req) {
      let res: Awaited<ReturnType<typeof request>>;
      try {
        res = await request(req.url, { method: 'POST', headers: req.headers, body: req.body, dispatcher: agent });
      } catch (err) {
        throw unavailable(err, timeoutMs);
      }
      const body = res.body;
      async function* chunks(): AsyncGenerator<Uint8Array> {
        try {
          for await (const chunk of body) yield chunk as Uint8Array;
        } catch (err) {
          throw unavailable(err, timeoutMs);
        }
      }
      return {
        status: res.statusCode,
        headers: flatHeaders(res.headers),
        body: chunks(),
        cancel: () => body.destroy(),
      };
    },
    close: () => agent.close(),
  };
}
