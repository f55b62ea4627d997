/**
 * The console's only way to the server: the public HTTP API with the user's key (X-API-Key),
 * kept in sessionStorage so it ends with the tab. Errors arrive as the API's error envelope.
 */
const KEY = 'engram.apiKey';

export const session = {
  key: () => sessionStorage.getItem(KEY),
  signIn: (key) => sessionStorage.setItem(KEY, key),
  signOut: () => sessionStorage.removeItem(KEY),
};

export class ApiError extends Error {
  constructor(status, body) {
    super(body?.error || body?.message || `HTTP ${status}`);
    this.status = status;
    this.body = body;
  }
}

/** Call the API: `query` becomes the query string (empty values left out), `body` is sent as JSON. */
export async function api(method, path, { query, body, form, key = session.key() } = {}) {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined && v !== '') params.set(k, String(v));
  const url = params.size ? `${path}?${params}` : path;
  const headers = { 'X-API-Key': key ?? '' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const res = await fetch(url, {
    method,
    headers,
    body: form ?? (body === undefined ? undefined : JSON.stringify(body)),
  });
  const text = await res.text();
  let json = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = { error: text };
  }
  if (!res.ok && res.status !== 207) throw new ApiError(res.status, json);
  return json;
}

/**
 * Live status of a batch (or a memory) over the WebSocket: a browser cannot set headers on
 * it, so the key goes in the first message (docs/realtime.md). `onStatus` gets each status
 * message; the server closes the socket after the terminal one. Returns a function that stops.
 */
export function watchStatus(kind, id, onStatus, onClose) {
  const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
  const path = kind === 'batch' ? `batch/${encodeURIComponent(id)}` : encodeURIComponent(id);
  const ws = new WebSocket(`${proto}//${location.host}/ws/memory-status/${path}`);
  ws.onopen = () => ws.send(JSON.stringify({ type: 'auth', api_key: session.key() }));
  ws.onmessage = (e) => {
    const msg = JSON.parse(e.data);
    if (msg.type === 'status') onStatus(msg);
  };
  ws.onclose = (e) => onClose?.(e.code);
  return () => ws.close();
}
