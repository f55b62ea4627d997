/**
 * One local server on 127.0.0.1 speaking the three providers' formats for the AI proxy's tests,
 * each under its own base path (the env for it: `fakeAiEnv`):
 *   /openai/v1/chat/completions, /openai/v1/responses   (JSON, or SSE `data:` lines + `data: [DONE]`)
 *   /anthropic/v1/messages                                (JSON, or SSE with `event:` lines)
 *   /google/v1beta/models/{m}:generateContent | :streamGenerateContent  (JSON; SSE with alt=sse, else a JSON array)
 * It records every request (path, headers, parsed body). A stream can be held after its first
 * event until the test releases it (`holdStreams`), so a test can see the first event arrive
 * through the proxy while the upstream has not finished; `override` answers the next request
 * instead (an error status, a hang).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SeenCall {
  path: string;
  query: string;
  headers: http.IncomingHttpHeaders;
  body: any;
}

export const REPLY = ['Hello', ' from', ' the upstream.'];
export const USAGE = { openai: [11, 7], responses: [13, 5], anthropic: [17, 9], google: [19, 6] } as const;

type Override = (call: SeenCall, res: http.ServerResponse) => void;

const json = (res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
};

export type StreamKind = 'chat' | 'responses' | 'anthropic' | 'google-sse' | 'google-array';

/** The events of each streamed answer (already framed), in order. */
export function streamEvents(kind: StreamKind, call: SeenCall) {
  const text = REPLY.join('');
  if (kind === 'chat') {
    const chunk = (delta: object, extra: object = {}) =>
      `data: ${JSON.stringify({ object: 'chat.completion.chunk', choices: [{ index: 0, delta }], ...extra })}\n\n`;
    const tokens = { prompt_tokens: USAGE.openai[0], completion_tokens: USAGE.openai[1] };
    const usage = call.body?.stream_options?.include_usage
      ? [`data: ${JSON.stringify({ choices: [], usage: tokens })}\n\n`]
      : [];
    return [
      chunk({ role: 'assistant', content: '' }),
      ...REPLY.map((t) => chunk({ content: t })),
      ...usage,
      'data: [DONE]\n\n',
    ];
  }
  if (kind === 'responses') {
    const ev = (type: string, data: object) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
    const response = {
      output: [{ type: 'message', role: 'assistant', content: [{ type: 'output_text', text }] }],
      usage: { input_tokens: USAGE.responses[0], output_tokens: USAGE.responses[1] },
    };
    return [
      ev('response.created', { response: { status: 'in_progress' } }),
      ...REPLY.map((t) => ev('response.output_text.delta', { delta: t })),
      ev('response.completed', { response }),
    ];
  }
  if (kind === 'anthropic') {
    const ev = (type: string, data: object) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
    return [
      ev('message_start', {
        message: { role: 'assistant', usage: { input_tokens: USAGE.anthropic[0], output_tokens: 1 } },
      }),
      ev('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
      ...REPLY.map((t) => ev('content_block_delta', { index: 0, delta: { type: 'text_delta', text: t } })),
      ev('content_block_stop', { index: 0 }),
      ev('message_delta', { delta: { stop_reason: 'end_turn' }, usage: { output_tokens: USAGE.anthropic[1] } }),
      ev('message_stop', {}),
    ];
  }
  const element = (t: string, i: number) => ({
    candidates: [{ content: { role: 'model', parts: [{ text: t }] } }],
    usageMetadata: {
      promptTokenCount: USAGE.google[0],
      candidatesTokenCount: i === REPLY.length - 1 ? USAGE.google[1] : i + 1,
    },
  });
  if (kind === 'google-sse') return REPLY.map((t, i) => `data: ${JSON.stringify(element(t, i))}\r\n\r\n`);
  return REPLY.map(
    (t, i) => `${i ? ',\r\n' : '['}${JSON.stringify(element(t, i))}${i === REPLY.length - 1 ? ']' : ''}`,
  );
}

/** The whole (non-streamed) answer of each provider. */
function wholeAnswer(kind: 'chat' | 'responses' | 'anthropic' | 'google', model: string) {
  const text = REPLY.join('');
  if (kind === 'chat')
    return {
      object: 'chat.completion',
      model,
      choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
      usage: { prompt_tokens: USAGE.openai[0], completion_tokens: USAGE.openai[1], total_tokens: 18 },
    };
  if (kind === 'responses')
    return {
      object: 'response',
      model,
      output: [{ type: 'message', role: 'assistant', content: [{ type: 'output_text', text }] }],
      usage: { input_tokens: USAGE.responses[0], output_tokens: USAGE.responses[1] },
    };
  if (kind === 'anthropic')
    return {
      type: 'message',
      role: 'assistant',
      model,
      content: [{ type: 'text', text }],
      usage: { input_tokens: USAGE.anthropic[0], output_tokens: USAGE.anthropic[1] },
    };
  return {
    candidates: [{ content: { role: 'model', parts: [{ text }] }, finishReason: 'STOP' }],
    usageMetadata: { promptTokenCount: USAGE.google[0], candidatesTokenCount: USAGE.google[1] },
  };
}

export function fakeAiUpstream() {
  const seen: SeenCall[] = [];
  const overrides: Override[] = [];
  let hold: Promise<void> | null = null;
  /** Streams begun and streams finished (all their events written). */
  const streams = { begun: 0, finished: 0 };

  async function stream(res: http.ServerResponse, events: string[], type: string) {
    streams.begun++;
    res.writeHead(200, { 'content-type': type, 'x-request-id': 'up-req-1' });
    res.on('error', () => undefined); // the proxy hung up: the rest goes nowhere
    const gate = hold;
    for (const [i, e] of events.entries()) {
      if (res.destroyed) break;
      res.write(e);
      if (i === 0 && gate) await gate;
      else await new Promise((r) => setTimeout(r, 5));
    }
    streams.finished++;
    res.end();
  }

  function route(call: SeenCall, res: http.ServerResponse) {
    const p = call.path;
    const model = String(call.body?.model ?? '');
    if (p === '/openai/v1/chat/completions')
      return call.body?.stream
        ? stream(res, streamEvents('chat', call), 'text/event-stream')
        : json(res, 200, wholeAnswer('chat', model), { 'x-request-id': 'up-req-1' });
    if (p === '/openai/v1/responses')
      return call.body?.stream
        ? stream(res, streamEvents('responses', call), 'text/event-stream')
        : json(res, 200, wholeAnswer('responses', model));
    if (p === '/anthropic/v1/messages')
      return call.body?.stream
        ? stream(res, streamEvents('anthropic', call), 'text/event-stream; charset=utf-8')
        : json(res, 200, wholeAnswer('anthropic', model), { 'request-id': 'up-req-2' });
    const g = /^\/google\/v1beta\/models\/([^/:]+):(generateContent|streamGenerateContent)$/.exec(p);
    if (g && g[2] === 'generateContent') return json(res, 200, wholeAnswer('google', g[1]));
    if (g && call.query.includes('alt=sse')) return stream(res, streamEvents('google-sse', call), 'text/event-stream');
    if (g) return stream(res, streamEvents('google-array', call), 'application/json; charset=UTF-8');
    return json(res, 404, { error: { message: `no route ${p}` } });
  }

  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const [path, query = ''] = (req.url ?? '').split('?');
      let body: unknown = raw;
      try {
        body = JSON.parse(raw);
      } catch {
        // kept as text
      }
      const call: SeenCall = { path, query, headers: req.headers, body };
      seen.push(call);
      const override = overrides.shift();
      if (override) override(call, res);
      else void route(call, res);
    });
  });

  let baseUrl = '';
  return {
    seen,
    streams,
    /** The last request the upstream received. */
    last: () => seen[seen.length - 1],
    /** Answer the next request with `fn` instead. */
    override(fn: Override) {
      overrides.push(fn);
    },
    /** Hold every stream after its first event until the returned release is called (or 10 s pass). */
    holdStreams(): () => void {
      let release!: () => void;
      hold = new Promise<void>((r) => {
        release = r;
        setTimeout(r, 10_000).unref();
      });
      return () => {
        release();
        hold = null;
      };
    },
    async start(): Promise<string> {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      return baseUrl;
    },
    /** The proxy's configuration for this upstream (our upstream keys are fixed test values). */
    env(): Record<string, string> {
      return {
        AI_OPENAI_BASE_URL: `${baseUrl}/openai/v1`,
        AI_OPENAI_API_KEY: UPSTREAM_KEYS.openai,
        AI_ANTHROPIC_BASE_URL: `${baseUrl}/anthropic`,
        AI_ANTHROPIC_API_KEY: UPSTREAM_KEYS.anthropic,
        AI_GOOGLE_BASE_URL: `${baseUrl}/google/v1beta`,
        AI_GOOGLE_API_KEY: UPSTREAM_KEYS.google,
      };
    },
    stop(): void {
      server.closeAllConnections();
      server.close();
    },
  };
}

export const UPSTREAM_KEYS = { openai: 'sk-upstream-openai', anthropic: 'sk-ant-upstream', google: 'goog-upstream' };

/** Minimal request bodies of each proxied route. */
export const requests = {
  chat: (extra: object = {}) => ({
    model: 'gpt-test',
    messages: [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Where should we go on holiday?' },
    ],
    ...extra,
  }),
  responses: (extra: object = {}) => ({ model: 'gpt-resp', input: 'Where should we go on holiday?', ...extra }),
  anthropic: (extra: object = {}) => ({
    model: 'claude-test',
    max_tokens: 100,
    messages: [{ role: 'user', content: [{ type: 'text', text: 'Where should we go on holiday?' }] }],
    ...extra,
  }),
  google: (extra: object = {}) => ({
    contents: [{ role: 'user', parts: [{ text: 'Where should we go on holiday?' }] }],
    ...extra,
  }),
};
