/**
 * A small HTTP client of an Engram server, for the CLI and the MCP stdio bridge: the same
 * routes, credentials and error envelope as any client of the API, and nothing of the server's
 * own code (these run on a developer's machine against a server elsewhere). Not the official
 * client: that one is a dev dependency, used by the contract tests.
 */

export interface EngramTarget {
  /** The server's base URL, e.g. http://127.0.0.1:8080 */
  baseUrl: string;
  /** An API key (X-API-Key) … */
  apiKey?: string;
  /** … or an OAuth access token (Authorization: Bearer). */
  bearer?: string;
  /** Per-request timeout, ms (default 60 s). */
  timeoutMs?: number;
}

/** A non-2xx answer, with the server's error envelope (code, status, error, details) when it sent one. */
export class EngramHttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    message: string,
  ) {
    super(message);
    this.name = 'EngramHttpError';
  }
}

export interface RequestOptions {
  /** Query-string parameters; undefined values are left out. */
  query?: Record<string, string | number | boolean | undefined>;
  /** A JSON body (objects and arrays are serialised) or raw form data (document uploads). */
  body?: unknown;
  signal?: AbortSignal;
}

/** The server's message from an error envelope, else the status text. */
function messageOf(status: number, body: unknown): string {
  if (body && typeof body === 'object') {
    const b = body as { error?: unknown; message?: unknown; detail?: unknown };
    for (const m of [b.error, b.message, b.detail]) if (typeof m === 'string' && m) return `${status}: ${m}`;
  }
  return `${status}: request failed`;
}

/** One request; resolves with the parsed JSON (or text) of a 2xx answer, throws EngramHttpError otherwise. */
export async function engramRequest<T = unknown>(
  target: EngramTarget,
  method: string,
  path: string,
  opts: RequestOptions = {},
): Promise<T> {
  const url = new URL(path.replace(/^\//, ''), target.baseUrl.endsWith('/') ? target.baseUrl : `${target.baseUrl}/`);
  for (const [k, v] of Object.entries(opts.query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
  const headers: Record<string, string> = { accept: 'application/json' };
  if (target.apiKey) headers['x-api-key'] = target.apiKey;
  if (target.bearer) headers.authorization = `Bearer ${target.bearer}`;
  let body: BodyInit | undefined;
  if (opts.body instanceof FormData) body = opts.body;
  else if (opts.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(opts.body);
  }
  const timeout = AbortSignal.timeout(target.timeoutMs ?? 60_000);
  const res = await fetch(url, {
    method,
    headers,
    body,
    signal: opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout,
  });
  const text = await res.text();
  let parsed: unknown = text;
  if ((res.headers.get('content-type') ?? '').includes('json') && text) {
    try {
      parsed = JSON.parse(text);
    } catch {
      // keep the text: a proxy's HTML error page, say
    }
  }
  if (!res.ok) throw new EngramHttpError(res.status, parsed, messageOf(res.status, parsed));
  return parsed as T;
}

/** The target from the environment: ENGRAM_URL (default http://127.0.0.1:8080), ENGRAM_API_KEY, ENGRAM_TOKEN. */
export function targetFromEnv(env: NodeJS.ProcessEnv = process.env): EngramTarget {
  return {
    baseUrl: env.ENGRAM_URL || 'http://127.0.0.1:8080',
    apiKey: env.ENGRAM_API_KEY || undefined,
    bearer: env.ENGRAM_TOKEN || undefined,
  };
}
