/**
 * Pieces every adapter of an OpenAI-compatible HTTP API shares (embeddings, chat completions):
 * where the endpoint is, what the server said went wrong, and when it asked us to come back.
 */

/** Accept a server root, an API base ending in /v<n>, or the full endpoint URL (`path` e.g. 'embeddings'). */
export function endpointUrl(baseUrl: string, path: string): string {
  const base = baseUrl.replace(/\/+$/, '');
  if (base.endsWith(`/${path}`)) return base;
  if (/\/v\d+$/.test(base)) return `${base}/${path}`;
  return `${base}/v1/${path}`;
}

/** The server's own error text (OpenAI: {error: {message}}; TEI and others: {error} or {message}), shortened. */
export function errorMessage(body: string): string {
  try {
    const parsed = JSON.parse(body) as { error?: { message?: string } | string; message?: string };
    const msg = typeof parsed.error === 'string' ? parsed.error : (parsed.error?.message ?? parsed.message);
    if (msg) return msg.slice(0, 300);
  } catch {
    // not JSON: fall through to the raw text
  }
  return body.slice(0, 300) || '(empty body)';
}

/** `Retry-After` (seconds or an HTTP date) in milliseconds. */
export function retryAfterMs(header: string | null): number | undefined {
  if (!header) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return seconds * 1000;
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

/**
 * POST a JSON body with the usual headers (Bearer key when given) and read the whole answer.
 * The timeout covers the body too, so a server that stalls mid-response counts as unavailable.
 * A request that never got a complete answer (timeout, refused, reset) is thrown as the
 * adapter's own retryable error, made by `unavailable` from a short reason.
 */
export async function postJson(
  doFetch: typeof fetch,
  url: string,
  body: unknown,
  opts: { apiKey?: string; timeoutMs: number; unavailable: (reason: string, cause: unknown) => Error },
): Promise<{ res: Response; text: string }> {
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  if (opts.apiKey) headers.authorization = `Bearer ${opts.apiKey}`;
  try {
    const res = await doFetch(url, {
      method: 'POST',
      headers,
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(opts.timeoutMs),
    });
    return { res, text: await res.text() };
  } catch (err) {
    const timedOut = (err as Error).name === 'TimeoutError';
    throw opts.unavailable(
      timedOut ? `timed out after ${opts.timeoutMs} ms` : `failed: ${(err as Error).message}`,
      err,
    );
  }
}

/** Whether an HTTP status is worth retrying (rate limits, timeouts, server errors). */
export const retryableStatus = (status: number) => status === 429 || status === 408 || status >= 500;
