import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  raw: string;
  body: any;
  /** performance.now() when the request had arrived in full. */
  receivedAt: number;
}

/**
 * A local webhook receiver: records every POST and answers with the status `respond`
 * returns for it (default 200), so tests can make it fail, recover or keep failing.
 */
export async function startReceiver(respond: (r: Received, n: number) => number = () => 200) {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const r: Received = {
        path: req.url ?? '/',
        headers: req.headers,
        raw,
        body: raw ? JSON.parse(raw) : null,
        receivedAt: performance.now(),
      };
      received.push(r);
      const n = received.filter((x) => x.path === r.path).length;
      res.writeHead(respond(r, n), { 'content-type': 'text/plain' }).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path: string) => `http://127.0.0.1:${port}${path}`,
    received,
    at: (path: string) => received.filter((r) => r.path === path),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
