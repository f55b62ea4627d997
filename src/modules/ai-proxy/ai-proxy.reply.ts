import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyReply } from 'fastify';
import type { ProxyResult } from './ai-proxy.service.ts';

/**
 * Send a proxy result. A whole answer goes through Fastify (compressed like any reply); a
 * streamed one is written straight to the socket as each chunk arrives (the reply is hijacked:
 * no hook may hold it back or compress it into one block), with the headers already set on
 * the reply (request id, rate limit). When the caller goes away the upstream is cancelled.
 */
export function sendProxyResult(reply: FastifyReply, result: ProxyResult): FastifyReply {
  if (result.kind === 'whole') return reply.code(result.status).headers(result.headers).send(result.body);
  reply.hijack();
  const res = reply.raw;
  const set = Object.entries(reply.getHeaders()).filter(
    (e): e is [string, string | number | string[]] => e[1] !== undefined,
  );
  res.writeHead(result.status, { ...Object.fromEntries(set), ...result.headers });
  res.flushHeaders();
  res.on('close', () => {
    if (!res.writableFinished) result.cancel();
  });
  pipeline(Readable.from(result.body, { objectMode: false }), res).catch((err: unknown) =>
    reply.log.debug({ err }, 'a proxied stream ended early'),
  );
  return reply;
}
