/**
 * How a tool reaches the API: one function, `(method, path, {query, body}) → {status, body}`,
 * so the tools are written once for both transports. Over HTTP (/mcp) it is `app.inject` into
 * this server's own routes with the caller's credential headers, so authentication, tenancy,
 * validation and errors are exactly the API's; over stdio it is fetch against a server by URL
 * (src/cli/mcp-stdio.ts).
 */
import type { FastifyInstance } from 'fastify';

export interface ApiResult {
  status: number;
  body: unknown;
}

export interface ApiRequest {
  query?: Record<string, string | number | boolean | undefined>;
  /** JSON (serialised by the executor), or FormData for a document upload (fetch executor only). */
  body?: unknown;
}

export type Executor = (method: string, path: string, opts?: ApiRequest) => Promise<ApiResult>;

/** The request headers that carry a credential, forwarded as they came. */
const CREDENTIAL_HEADERS = ['x-api-key', 'x-session-token', 'authorization'] as const;

export function credentialHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const h of CREDENTIAL_HEADERS) {
    const v = headers[h];
    if (typeof v === 'string') out[h] = v;
  }
  return out;
}

/** An executor over `app.inject`: each call is a request to the API as the MCP caller. */
export function injectExecutor(app: FastifyInstance, headers: Record<string, string>): Executor {
  return async (method, path, opts = {}) => {
    const query: Record<string, string> = {};
    for (const [k, v] of Object.entries(opts.query ?? {})) if (v !== undefined) query[k] = String(v);
    const hasBody = opts.body !== undefined;
    const res = await app.inject({
      method: method as 'GET',
      url: path,
      query,
      headers: { ...headers, accept: 'application/json', ...(hasBody ? { 'content-type': 'application/json' } : {}) },
      payload: hasBody ? JSON.stringify(opts.body) : undefined,
    });
    let body: unknown = res.body;
    if ((res.headers['content-type'] ?? '').toString().includes('json') && res.body) {
      try {
        body = JSON.parse(res.body);
      } catch {
        // keep the text
      }
    }
    return { status: res.statusCode, body };
  };
}
