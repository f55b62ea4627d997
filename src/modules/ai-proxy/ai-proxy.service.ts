import type { Db } from '../../platform/db/index.ts';
import type { Logger } from '../../platform/log.ts';
import { requirePermission, type Actor } from '../../shared/actor.ts';
import { AppError, unprocessable } from '../../shared/errors.ts';
import { requireSelf } from '../users/index.ts';
import type { EngramHeaders, ProxyBody, UsageQuery } from './ai-proxy.schemas.ts';
import { recordUsage } from './ai-proxy.store.ts';
import { answerHeaders, readWhole, STREAM_HEADERS } from './answer.ts';
import {
  fitBytes,
  memoryContext,
  memoryPlan,
  requireOwnNamespace,
  type MemoryPlan,
  type MemorySearchPort,
  type MessageStorePort,
} from './memory.ts';
import { OPERATIONS, PROVIDERS, type Body, type Operation, type OperationSpec, type Usage } from './providers.ts';
import { tapStream } from './stream.ts';
import type { Targets } from './targets.ts';
import { UpstreamUnavailable, type Upstream } from './upstream.ts';
import { usageReport } from './usage-report.ts';

export interface AiProxyDeps {
  db: Db;
  log: Logger;
  targets: Targets;
  upstream: Upstream;
  search: MemorySearchPort;
  messages: MessageStorePort;
  users: Parameters<typeof requireSelf>[0];
  /** Memories added at most and their character budget; the stored messages' byte limit. */
  memory: { max: number; chars: number; maxContentBytes: number };
  now?: () => Date;
}

/** One proxied call as the route hands it over. */
export interface ProxyCall {
  operation: Operation;
  body: ProxyBody | null | undefined;
  headers: EngramHeaders;
  /** Google's model, from the path. */
  model?: string;
  /** Google's `alt` (sse), the only query parameter forwarded. */
  alt?: string;
}

/** The answer to send: whole (any status, the upstream's bytes) or streamed as it arrives. */
export type ProxyResult =
  | { kind: 'whole'; status: number; headers: Record<string, string>; body: Buffer }
  | {
      kind: 'stream';
      status: number;
      headers: Record<string, string>;
      body: AsyncIterable<Uint8Array>;
      cancel(): void;
    };

/** What the call's bookkeeping needs once the answer is known. */
interface Exchange {
  actor: Actor;
  spec: OperationSpec;
  model: string;
  plan: MemoryPlan | null;
  userText: string;
}

const notConfigured = (provider: string) =>
  new AppError(
    400,
    `The AI proxy for ${provider} is not configured on this server`,
    {
      provider,
      reason: 'provider_not_configured',
      settings: [`AI_${provider.toUpperCase()}_BASE_URL`, `AI_${provider.toUpperCase()}_API_KEY`],
    },
    false,
  );

/** The upstream gave no answer: 504 when it was too slow, 502 when it could not be reached. */
function unreachable(err: UpstreamUnavailable, provider: string): AppError {
  const code = err.timedOut ? 504 : 502;
  const what = err.timedOut ? 'did not answer in time' : 'could not be reached';
  // Nothing was stored for a 502, so the client may try again; a timed-out call may still be running upstream.
  return new AppError(code, `The ${provider} upstream ${what}: ${err.message}`, { provider }, !err.timedOut);
}

/** The AI proxy (docs/ai-proxy.md): forward, add memories, record usage, store the exchange. */
export function createAiProxyService(deps: AiProxyDeps) {
  const { db, log } = deps;
  const now = deps.now ?? (() => new Date());
  /** Streams in flight: cancelled and waited for on close. */
  const streams = new Set<{ cancel(): void; ended: Promise<void> }>();

  async function record(x: Exchange, error: boolean, usage: Usage): Promise<void> {
    await recordUsage(db, {
      organizationId: x.actor.organizationId,
      day: now().toISOString().slice(0, 10),
      provider: x.spec.provider,
      model: x.model,
      apiKeyId: x.actor.apiKeyId,
      namespaceId: x.actor.namespaceId,
      userId: x.actor.userId || null,
      error,
      inputTokens: usage.input,
      outputTokens: usage.output,
    }).catch((err: unknown) => log.error({ err }, 'recording AI proxy usage failed'));
  }

  /** The last user message and the reply as messages of the plan's session; false when it failed. */
  async function storeExchange(x: Exchange, reply: string): Promise<boolean> {
    const plan = x.plan!;
    const limit = deps.memory.maxContentBytes;
    const place = { sessionId: plan.sessionId!, external_user_id: plan.externalUserId, namespace_id: plan.namespaceId };
    try {
      if (x.userText.trim())
        await deps.messages.store(x.actor, { ...place, role: 'user', content: fitBytes(x.userText, limit) });
      if (reply.trim())
        await deps.messages.store(x.actor, { ...place, role: 'assistant', content: fitBytes(reply, limit) });
      return true;
    } catch (err) {
      log.warn({ err, session: plan.sessionId }, 'storing an AI proxy exchange failed');
      return false;
    }
  }

  /** Usage, then the exchange when asked for and the answer is a complete success. */
  async function finish(x: Exchange, o: { error: boolean; complete: boolean; usage: Usage; text: string }) {
    await record(x, o.error, o.usage);
    if (!x.plan?.store || o.error || !o.complete) return undefined;
    return storeExchange(x, o.text);
  }

  /** The plan's checks, then its memories added to the body. */
  async function withMemories(x: Exchange, body: Body): Promise<{ body: Body; count: number }> {
    const plan = x.plan;
    if (!plan) return { body, count: 0 };
    requireOwnNamespace(x.actor, plan);
    await requireSelf(deps.users, db, x.actor, { externalUserId: plan.externalUserId });
    if (!plan.search || !x.userText.trim()) return { body, count: 0 };
    const query = x.userText.trim().slice(-10_000);
    const found = await deps.search.search(
      x.actor,
      { query, external_user_id: plan.externalUserId, namespace_id: plan.namespaceId },
      plan.maxMemories,
    );
    const context = memoryContext(found.memories, deps.memory.chars);
    return context ? { body: x.spec.inject(body, context.text), count: context.count } : { body, count: 0 };
  }

  function streamed(x: Exchange, answer: Awaited<ReturnType<Upstream['send']>>, headers: Record<string, string>) {
    let ended!: () => void;
    const entry = { cancel: () => undefined as void, ended: new Promise<void>((r) => (ended = r)) };
    const sse = (answer.headers['content-type'] ?? '').startsWith('text/event-stream');
    const tap = tapStream(answer, x.spec.reader(), {
      sse,
      provider: x.spec.provider,
      done: async (o) => {
        try {
          await finish(x, { error: o.failed, complete: o.complete, usage: o.usage, text: o.text });
        } finally {
          streams.delete(entry);
          ended();
        }
      },
    });
    entry.cancel = tap.cancel;
    streams.add(entry);
    return {
      kind: 'stream' as const,
      status: answer.status,
      headers: { ...headers, ...STREAM_HEADERS },
      body: tap.body,
      cancel: tap.cancel,
    };
  }

  return {
    /** POST /v1/ai/…: one provider call, answered as the upstream answered. */
    async proxy(actor: Actor, call: ProxyCall): Promise<ProxyResult> {
      requirePermission(actor, 'write');
      const spec = OPERATIONS[call.operation];
      const target = deps.targets[spec.provider];
      if (!target) throw notConfigured(spec.provider);
      if (!call.body) throw unprocessable(`A JSON body is required: the ${spec.provider} request`, { field: 'body' });
      const { engram, ...rest } = call.body;
      const plan = memoryPlan(engram, call.headers, deps.memory.max);
      const model = call.model ?? (typeof rest.model === 'string' ? rest.model : 'unknown');
      const x: Exchange = { actor, spec, model, plan, userText: plan ? spec.lastUserText(rest) : '' };
      const { body, count } = await withMemories(x, rest);
      const forwarded = spec.prepare?.(body) ?? body;
      const url = `${target.baseUrl}${spec.path(call.model)}${call.alt ? `?alt=${encodeURIComponent(call.alt)}` : ''}`;
      const headers = {
        ...target.headers(call.headers),
        'content-type': 'application/json',
        'accept-encoding': 'identity',
        'user-agent': 'Engram AI proxy',
      };
      try {
        const answer = await deps.upstream.send({ url, headers, body: JSON.stringify(forwarded) });
        const out = answerHeaders(answer.headers, spec.provider, count);
        const ok = answer.status >= 200 && answer.status < 300;
        const type = answer.headers['content-type'] ?? '';
        if (ok && (type.startsWith('text/event-stream') || call.operation === 'stream_generate'))
          return streamed(x, answer, out);
        const whole = await readWhole(answer, ok ? x.spec.reader() : null);
        const stored = await finish(x, { error: !ok, complete: ok, usage: whole.usage, text: whole.text });
        if (stored !== undefined) out['x-engram-stored'] = String(stored);
        return { kind: 'whole', status: answer.status, headers: out, body: whole.bytes };
      } catch (err) {
        if (!(err instanceof UpstreamUnavailable)) throw err;
        await record(x, true, { input: 0, output: 0 });
        throw unreachable(err, spec.provider);
      }
    },

    /** GET /v1/ai/usage: the caller's organization (a namespace key: its namespace; an end user: their own). */
    async usage(actor: Actor, query: UsageQuery) {
      requirePermission(actor, 'read');
      return usageReport(db, actor, query, { now: now(), configured: PROVIDERS.filter((p) => !!deps.targets[p]) });
    },

    /** Cancel the streams in flight and wait for their bookkeeping (before the store closes). */
    async close(): Promise<void> {
      const open = [...streams];
      for (const s of open) s.cancel();
      await Promise.race([Promise.all(open.map((s) => s.ended)), new Promise((r) => setTimeout(r, 5000).unref())]);
      await deps.upstream.close();
    },
  };
}

export type AiProxyService = ReturnType<typeof createAiProxyService>;
