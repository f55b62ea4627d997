/**
 * Sending a fuzzed request to the in-process app and checking the answer: no 5xx, a 4xx is the
 * error envelope, every answer within a time bound; a failure names the request and quotes what
 * the server logged about it (its error and stack).
 */
import assert from 'node:assert/strict';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import type { LightMyRequestResponse } from 'fastify';
import type { Operation } from './fuzz-openapi.ts';
import type { FuzzRequest } from './fuzz-requests.ts';
import { toJsonText } from './fuzz-values.ts';
import type { World } from './fuzz-world.ts';

/** The request as text: the body rendered as it is sent, secrets left as placeholders. */
export function render(req: FuzzRequest): { url: string; body?: string } {
  const url = req.path + req.query;
  if (req.payload === undefined) return { url };
  const form = req.contentType?.includes('x-www-form-urlencoded') && req.payload && typeof req.payload === 'object';
  const body = form
    ? new URLSearchParams(
        Object.entries(req.payload as object).map(([k, v]) => [k, typeof v === 'string' ? v : toJsonText(v)]),
      ).toString()
    : toJsonText(req.payload);
  return { url, body };
}

const clip = (s: string, n = 400) => (s.length > n ? `${s.slice(0, n)}… (${s.length} chars)` : s);

export function describeRequest(op: Operation, req: FuzzRequest): string {
  const { url, body } = render(req);
  return [
    `${op.method} ${clip(url, 300)}`,
    `headers: ${JSON.stringify(req.headers).slice(0, 300)}`,
    `content-type: ${req.contentType ?? '(none)'}${req.copies > 1 ? `, sent ${req.copies} times at once` : ''}`,
    `body: ${body === undefined ? '(none)' : clip(JSON.stringify(body))}`,
  ].join('\n  ');
}

/** Send `req` to `op` (its copies at once); no answer within `timeoutMs` is a failure (a hang). */
export async function send(world: World, op: Operation, req: FuzzRequest, timeoutMs: number) {
  const { url, body } = render(req);
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers))
    headers[k] = v.replace(/\$(org|ns|foreign|revoked|session|admin)\b/g, (s) => world.secrets[s] ?? s);
  if (req.contentType !== undefined) headers['content-type'] = req.contentType;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms (a hang)`)), timeoutMs);
  });
  const logFrom = world.logs.length;
  try {
    const sending = Array.from({ length: req.copies }, () =>
      world.app.inject({ method: op.method, url, headers, payload: body }),
    );
    const answers = await Promise.race([Promise.all(sending), timeout]);
    return { answers, logFrom };
  } finally {
    clearTimeout(timer);
  }
}

/** What the server logged about a request: its errors (with stack), by request id or else since it began. */
export function serverLog(world: World, res: LightMyRequestResponse, logFrom: number): string {
  const id = res.headers['x-request-id'];
  const mine = world.logs.slice(logFrom).filter((l) => l.level >= 40);
  const byId = mine.filter((l) => l.reqId === id);
  return (byId.length ? byId : mine)
    .slice(-3)
    .map((l) => {
      const stack = String(l.err?.stack ?? l.err?.message ?? '')
        .split('\n')
        .slice(0, 8)
        .join('\n      ');
      return `${l.msg}: ${stack}`;
    })
    .join('\n    ');
}

const DECODE: Record<string, (b: Buffer) => Buffer> = {
  br: brotliDecompressSync,
  gzip: gunzipSync,
  deflate: inflateSync,
};

/** The body as text, decompressed when the fuzz asked for a compressed answer. */
function bodyText(res: LightMyRequestResponse): string {
  const decode = DECODE[String(res.headers['content-encoding'])];
  return decode ? decode(res.rawPayload).toString('utf8') : res.body;
}

/**
 * The invariants of every answer: no 5xx but those the operation documents (`documented`, e.g. a
 * 501 for what is not supported), and a 4xx (or documented 5xx) carries the error envelope.
 */
export function checkAnswer(
  world: World,
  res: LightMyRequestResponse,
  logFrom: number,
  documented: number[] = [],
): void {
  const status = res.statusCode;
  const text = bodyText(res);
  const logged = serverLog(world, res, logFrom) || '(nothing)';
  const why = `answered ${status}: ${clip(text, 600)}\n  server log:\n    ${logged}`;
  assert.ok(status < 500 || documented.includes(status), `server error — ${why}`);
  if (status < 400) return;
  assert.match(String(res.headers['content-type']), /^application\/json/, `4xx without JSON — ${why}`);
  let body: any;
  assert.doesNotThrow(() => (body = JSON.parse(text)), `4xx body is not JSON — ${why}`);
  assert.equal(body?.code, status, `envelope code ≠ status — ${why}`);
  assert.equal(body.status, 'error', `envelope status ≠ "error" — ${why}`);
  assert.ok(typeof body.error === 'string' && body.error.length > 0, `envelope error is not a message — ${why}`);
  assert.ok('details' in body, `envelope without details — ${why}`);
  assert.ok(body.details === null || typeof body.details === 'object', `envelope details not object/null — ${why}`);
}
