/**
 * The console's only way to the server: the public HTTP API with the user's credential — an
 * API key (X-API-Key) or the access token of an OAuth login (Authorization: Bearer) — kept in
 * sessionStorage so it ends with the tab. Errors arrive as the API's error envelope.
 */
const KEY = 'engram.apiKey';
const TOKEN = 'engram.accessToken';

export const session = {
  key: () => sessionStorage.getItem(KEY),
  token: () => sessionStorage.getItem(TOKEN),
  signedIn: () => !!(sessionStorage.getItem(KEY) || sessionStorage.getItem(TOKEN)),
  signIn: (key) => {
    sessionStorage.removeItem(TOKEN);
    sessionStorage.setItem(KEY, key);
  },
  signInWithToken: (token) => {
    sessionStorage.removeItem(KEY);
    sessionStorage.setItem(TOKEN, token);
  },
  signOut: () => {
    sessionStorage.removeItem(KEY);
    sessionStorage.removeItem(TOKEN);
  },
  /** The credential header of every call: the given key, else the stored token, else the stored key. */
  headers(key) {
    if (key !== undefined) return { 'X-API-Key': key };
    const token = sessionStorage.getItem(TOKEN);
    return token ? { Authorization: `Bearer ${token}` } : { 'X-API-Key': sessionStorage.getItem(KEY) ?? '' };
  },
  /** The WebSocket's first message (docs/realtime.md): the same credential as the HTTP calls. */
  authMessage() {
    const token = sessionStorage.getItem(TOKEN);
    return token ? { type: 'auth', access_token: token } : { type: 'auth', api_key: sessionStorage.getItem(KEY) };
  },
};

export class ApiError extends Error {
  constructor(status, body) {
    super(body?.error || body?.message || `HTTP ${status}`);
    this.status = status;
    this.body = body;
  }
}

/** Call the API: `query` becomes the query string (empty values left out), `body` is sent as JSON. */
export async function api(method, path, { query, body, form, key } = {}) {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined && v !== '') params.set(k, String(v));
  const url = params.size ? `${path}?${params}` : path;
  const headers = session.headers(key);
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
 * Live status of a batch, document, session (or a memory) over the WebSocket: a browser cannot
 * set headers on it, so the key (or access token) goes in the first message (docs/realtime.md).
 * `onStatus` gets each status message — the body of the resource's REST status route; the
 * server closes the socket once the resource settles. `onError` gets a refusal (the API's error
 * envelope: 404 for an id these credentials cannot see). Returns a function that stops.
 */
export function watchStatus(kind, id, onStatus, onError) {
  const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
  const path = kind === 'memory' ? encodeURIComponent(id) : `${kind}/${encodeURIComponent(id)}`;
  const ws = new WebSocket(`${proto}//${location.host}/ws/memory-status/${path}`);
  ws.onopen = () => ws.send(JSON.stringify(session.authMessage()));
  ws.onmessage = (e) => {
    const msg = JSON.parse(e.data);
    if (msg.type === 'status') onStatus(msg);
    else if (msg.type === 'error') onError?.(new ApiError(msg.code, msg));
  };
  return () => ws.close();
}
