import pg from 'pg';

/**
 * LISTEN on a dedicated `pg.Client` (a pooled connection cannot hold a subscription).
 * Connects on the first `listen`; after a connection loss it reconnects with a short delay
 * and re-subscribes. Notifications sent while disconnected are lost, which is why
 * listeners treat them as wake-ups and also poll; after a reconnection every subscriber is
 * woken once with an empty payload, so it need not wait for its next poll to catch up.
 */
export function createPgListener(url: string) {
  const subscribers = new Map<string, Set<(payload: string) => void>>();
  let client: pg.Client | null = null;
  let connecting: Promise<pg.Client> | null = null;
  let closed = false;
  let retry: NodeJS.Timeout | null = null;
  let connectedBefore = false;

  const quote = (channel: string) => `"${channel.replace(/"/g, '""')}"`;

  function scheduleReconnect() {
    client = null;
    connecting = null;
    if (closed || retry || subscribers.size === 0) return;
    retry = setTimeout(() => {
      retry = null;
      connect().catch(() => scheduleReconnect());
    }, 1000);
    retry.unref();
  }

  async function connect(): Promise<pg.Client> {
    if (client) return client;
    if (connecting) return connecting;
    connecting = (async () => {
      const c = new pg.Client({ connectionString: url });
      c.on('error', () => {}); // reported through 'end'
      c.on('end', () => {
        if (client === c || connecting) scheduleReconnect();
      });
      c.on('notification', (n) => {
        for (const fn of subscribers.get(n.channel) ?? []) fn(n.payload ?? '');
      });
      await c.connect();
      for (const channel of subscribers.keys()) await c.query(`LISTEN ${quote(channel)}`);
      client = c;
      connecting = null;
      // Anything notified while the connection was down is lost: wake every subscriber once.
      if (connectedBefore) for (const fns of subscribers.values()) for (const fn of fns) fn('');
      connectedBefore = true;
      return c;
    })();
    return connecting;
  }

  return {
    async listen(channel: string, fn: (payload: string) => void): Promise<() => Promise<void>> {
      const first = !subscribers.has(channel);
      if (first) subscribers.set(channel, new Set());
      subscribers.get(channel)!.add(fn);
      const c = await connect();
      if (first) await c.query(`LISTEN ${quote(channel)}`);
      return async () => {
        const set = subscribers.get(channel);
        set?.delete(fn);
        if (set && set.size === 0) {
          subscribers.delete(channel);
          await client?.query(`UNLISTEN ${quote(channel)}`).catch(() => {});
        }
      };
    },
    async close(): Promise<void> {
      closed = true;
      if (retry) clearTimeout(retry);
      const c = client ?? (connecting ? await connecting.catch(() => null) : null);
      client = null;
      connecting = null;
      await c?.end().catch(() => {});
    },
  };
}
