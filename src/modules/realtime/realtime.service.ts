import type { Db } from '../../platform/db/index.ts';
import type { Logger } from '../../platform/log.ts';
import { EVENTS_CHANNEL, type EventNotice } from '../../platform/events/index.ts';
import type { Actor } from '../../shared/actor.ts';
import { envelope } from '../../platform/http/errors.ts';
import { AppError } from '../../shared/errors.ts';
import { readCredentials } from '../auth/index.ts';
import {
  concerns,
  statusReader,
  type Reading,
  type Resource,
  type Routes,
  type StatusPorts,
} from './realtime.sources.ts';

export type { Resource, StatusPorts } from './realtime.sources.ts';

/** The slice of a `ws` WebSocket the hub uses (tests and the route pass the real one). */
export interface StatusSocket {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  on(event: 'message', fn: (data: Buffer) => void): unknown;
  on(event: 'close', fn: () => void): unknown;
  once(event: 'message', fn: (data: Buffer) => void): unknown;
}

type Headers = Record<string, string | string[] | undefined>;

interface Watcher {
  actor: Actor;
  resource: Resource;
  id: string;
  socket: StatusSocket;
  /** The ids of the events that concern it, as of its latest read (a session's memories change). */
  routes: Routes;
  last: string;
  /** Pushes of one watcher run one at a time; a notice arriving meanwhile schedules one more. */
  running: boolean;
  again: boolean;
  timer: NodeJS.Timeout;
}

export interface RealtimeDeps {
  db: Db;
  log: Logger;
  status: StatusPorts;
  authenticate(headers: Headers): Promise<Actor>;
  /** Re-read interval, in case a NOTIFY was missed (reconnects). */
  pollMs: number;
  /** How long a socket without header credentials has to send its auth message. */
  authTimeoutMs: number;
}

const OPEN = 1;
/** Close codes (docs/realtime.md): 4000 + the HTTP status of the problem. */
const closeCode = (err: unknown) =>
  err instanceof AppError && err.code >= 400 && err.code < 500 ? 4000 + err.code : 1011;

/**
 * Live status streams (`/ws/memory-status/...`). A socket authenticates like an HTTP request
 * (headers, or a first `{"type":"auth", ...}` message), may only watch a memory, batch, document
 * or session its credentials can read (another tenant's id is "not found"), gets the current
 * status at once, then one message per change, and is closed (1000) once the resource settles.
 * Changes arrive as NOTIFYs of committed events from any process; a slow poll covers missed
 * notices. What each resource reads, and which events concern it: realtime.sources.ts.
 */
export function createRealtime(deps: RealtimeDeps) {
  const { db, log } = deps;
  const read = statusReader(deps.status);
  const watchers = new Set<Watcher>();
  let listening: Promise<() => Promise<void>> | null = null;

  /** A notification carries one notice, or an array of them (a batch group's events). */
  function onNotice(payload: string): void {
    let parsed: EventNotice | EventNotice[];
    try {
      // Our own format: platform/events writes these notifications.
      parsed = JSON.parse(payload) as EventNotice | EventNotice[];
    } catch {
      return;
    }
    const notices = Array.isArray(parsed) ? parsed : [parsed];
    // A watcher is pushed once per notification, however many of its notices it carries.
    for (const w of watchers) {
      const hit = notices.some((n) => w.actor.organizationId === n.organization_id && concerns(w.routes, n));
      if (hit) void push(w);
    }
  }

  function send(w: Watcher, reading: Reading): void {
    w.routes = reading.routes;
    const text = JSON.stringify(reading.message);
    if (text === w.last || w.socket.readyState !== OPEN) return;
    w.last = text;
    w.socket.send(text);
    if (reading.settled) finish(w, 1000, 'done');
  }

  async function push(w: Watcher): Promise<void> {
    if (w.running) {
      w.again = true;
      return;
    }
    w.running = true;
    try {
      do {
        w.again = false;
        send(w, await read(w.actor, w.resource, w.id));
      } while (w.again && watchers.has(w));
    } catch (err) {
      // The resource was deleted (404) or the key revoked meanwhile: tell the client and stop.
      fail(w.socket, err);
      finish(w, closeCode(err), 'error');
    } finally {
      w.running = false;
    }
  }

  function finish(w: Watcher, code: number, reason: string): void {
    clearInterval(w.timer);
    watchers.delete(w);
    if (w.socket.readyState === OPEN) w.socket.close(code, reason);
  }

  function fail(socket: StatusSocket, err: unknown): void {
    const e = err instanceof AppError ? err : new AppError(500, 'Internal error');
    if (!(err instanceof AppError)) log.error({ err }, 'websocket status stream failed');
    if (socket.readyState === OPEN)
      socket.send(
        // The HTTP error envelope's fields (details null when there are none), after the type.
        JSON.stringify({ type: 'error', ...envelope(e.code, e.message, e.details) }),
      );
  }

  /** Credentials from the upgrade request's headers, else from the first message. */
  function credentials(socket: StatusSocket, headers: Headers): Promise<Headers> {
    const c = readCredentials(headers);
    if (c.apiKey || c.sessionToken || c.bearer) return Promise.resolve(headers);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () =>
          reject(
            new AppError(
              401,
              'No credentials: send them as headers or as the first message {"type":"auth","api_key":"..."}',
            ),
          ),
        deps.authTimeoutMs,
      );
      socket.once('message', (data) => {
        clearTimeout(timer);
        try {
          // The client's JSON: any value; only an object's fields are read.
          const parsed: unknown = JSON.parse(data.toString());
          const m: Record<string, unknown> =
            typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : {};
          const h: Headers = {};
          if (m.api_key) h['x-api-key'] = String(m.api_key);
          if (m.session_token) h['x-session-token'] = String(m.session_token);
          const bearer = m.access_token ?? m.token;
          if (bearer) h.authorization = `Bearer ${bearer}`;
          resolve(h);
        } catch {
          reject(new AppError(400, 'The first message must be JSON: {"type":"auth","api_key":"..."}'));
        }
      });
    });
  }

  return {
    /** Serve one socket: authenticate, check access, then stream until terminal or closed. */
    async watch(socket: StatusSocket, headers: Headers, resource: Resource, id: string): Promise<void> {
      let closed = false;
      socket.on('close', () => {
        closed = true;
        for (const w of watchers) if (w.socket === socket) finish(w, 1000, 'closed');
      });
      try {
        const actor = await deps.authenticate(await credentials(socket, headers));
        // A failed LISTEN is retried by the next socket instead of being remembered.
        listening ??= db.listen(EVENTS_CHANNEL, onNotice).catch((err) => {
          listening = null;
          throw err;
        });
        await listening;
        const first = await read(actor, resource, id);
        if (closed) return;
        const w: Watcher = {
          actor,
          resource,
          id,
          socket,
          routes: first.routes,
          last: '',
          running: false,
          again: false,
          timer: setInterval(() => void push(w), deps.pollMs),
        };
        w.timer.unref();
        watchers.add(w);
        send(w, first);
        // A change between the first read and the registration is caught by this re-read.
        void push(w);
      } catch (err) {
        fail(socket, err);
        if (socket.readyState === OPEN) socket.close(closeCode(err), 'rejected');
      }
    },

    /** Close every stream (server shutdown: 1001 "going away") and stop listening. */
    async close(): Promise<void> {
      for (const w of [...watchers]) finish(w, 1001, 'server shutting down');
      if (listening) await (await listening)().catch(() => {});
      listening = null;
    },
  };
}

export type Realtime = ReturnType<typeof createRealtime>;
