/** A status WebSocket (docs/realtime.md) as a client sees it, opened through `app.injectWS`. */
import type { WebSocket } from 'ws';
import type { TestApp } from './harness.ts';

/** Every message received (parsed), and how the server closed the stream. */
export interface Stream {
  ws: WebSocket;
  messages: any[];
  closed: Promise<{ code: number; reason: string }>;
}

export async function openStream(
  t: TestApp,
  path: string,
  headers: Record<string, string> = { 'x-api-key': t.key },
): Promise<Stream> {
  const messages: any[] = [];
  let closed!: Stream['closed'];
  const ws = await t.app.injectWS(
    path,
    { headers },
    {
      onInit: (w) => {
        w.on('message', (d) => messages.push(JSON.parse(d.toString())));
        closed = new Promise((resolve) =>
          w.on('close', (code, reason) => resolve({ code, reason: reason.toString() })),
        );
      },
    },
  );
  return { ws, messages, closed };
}
