import http from 'node:http';
import { after, before } from 'node:test';
import type { AddressInfo } from 'node:net';

/** One request as the fake server saw it. */
export interface Seen<Body> {
  url: string;
  auth: string | undefined;
  body: Body;
}

/** The answer to a request ('hang' never answers: exercises client timeouts). A string body is sent as is. */
export type Reply<Body> = (
  seen: Seen<Body>,
  attempt: number,
) => { status: number; body: unknown; headers?: Record<string, string> } | 'hang';

/**
 * A local server speaking a JSON-over-HTTP provider API (OpenAI-style) for adapter tests:
 * records every request in `seen` and answers with the reply the test currently holds.
 */
export function fakeJsonServer<Body>(currentReply: () => Reply<Body>) {
  const seen: Seen<Body>[] = [];
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const s: Seen<Body> = { url: req.url ?? '', auth: req.headers.authorization, body: JSON.parse(raw) };
      seen.push(s);
      const r = currentReply()(s, seen.length);
      if (r === 'hang') return;
      res.writeHead(r.status, { 'content-type': 'application/json', ...r.headers });
      res.end(typeof r.body === 'string' ? r.body : JSON.stringify(r.body));
    });
  });
  return {
    seen,
    /** Listen on a free loopback port; resolves to the base URL. */
    async start(): Promise<string> {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    },
    stop(): void {
      server.closeAllConnections();
      server.close();
    },
  };
}

/** fakeJsonServer started before and stopped after the enclosing suite; `url()` once started. */
export function useFakeJsonServer<Body>(currentReply: () => Reply<Body>) {
  const fake = fakeJsonServer(currentReply);
  let baseUrl = '';
  before(async () => {
    baseUrl = await fake.start();
  });
  after(() => fake.stop());
  return { seen: fake.seen, url: () => baseUrl };
}
