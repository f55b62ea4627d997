/**
 * The proxy's memory (docs/ai-proxy.md): which user, namespace and session a call names (the
 * body field `engram` or the X-Engram-* headers), the user's relevant memories made into a
 * bounded context, and the exchange stored as session messages once the answer is complete.
 */
import type { Actor } from '../../shared/actor.ts';
import { AppError, unprocessable } from '../../shared/errors.ts';
import type { EngramHeaders, EngramOptions } from './ai-proxy.schemas.ts';

/** The search module's service, as the proxy uses it (passed in by the composition root). */
export interface MemorySearchPort {
  search(
    actor: Actor,
    body: { query: string; external_user_id?: string; namespace_id?: string },
    maxMemories: number,
  ): Promise<{ memories: { content: string; createdAt?: string }[] }>;
}

/** The messages module's service, as the proxy uses it. */
export interface MessageStorePort {
  store(
    actor: Actor,
    body: {
      sessionId: string;
      role: 'user' | 'assistant';
      content: string;
      external_user_id?: string;
      namespace_id?: string;
    },
  ): Promise<unknown>;
}

export interface MemoryPlan {
  search: boolean;
  store: boolean;
  externalUserId?: string;
  namespaceId?: string;
  sessionId?: string;
  maxMemories: number;
}

/**
 * What the call asks of memory, or null for a plain proxy call (nothing named, or `off`). The
 * body's `engram` wins over the headers field by field.
 */
export function memoryPlan(
  body: EngramOptions | undefined,
  headers: EngramHeaders,
  defaultMax: number,
): MemoryPlan | null {
  const b = body ?? {};
  if (b.session_id && b.sessionId && b.session_id !== b.sessionId)
    throw unprocessable('engram.session_id and engram.sessionId name different sessions', {
      fields: ['engram.session_id', 'engram.sessionId'],
    });
  const externalUserId = b.external_user_id ?? headers['x-engram-user'];
  const namespaceId = b.namespace_id ?? headers['x-engram-namespace'];
  const sessionId = b.session_id ?? b.sessionId ?? headers['x-engram-session'];
  const mode = b.memory ?? headers['x-engram-memory'];
  if (mode === 'off' || !(externalUserId || namespaceId || sessionId || mode)) return null;
  const store = mode ? mode === 'store' || mode === 'both' : !!sessionId;
  if (store && !sessionId)
    throw unprocessable(`memory "${mode}" stores the exchange in a session: name it (engram.session_id)`, {
      field: 'engram.session_id',
    });
  return {
    search: mode ? mode === 'search' || mode === 'both' : true,
    store,
    externalUserId,
    namespaceId,
    sessionId,
    maxMemories: b.max_memories ?? headers['x-engram-max-memories'] ?? defaultMax,
  };
}

/** A namespace key acts only in its namespace (the same 403 as search's). */
export function requireOwnNamespace(actor: Actor, plan: MemoryPlan): void {
  if (actor.namespaceId && plan.namespaceId && plan.namespaceId !== actor.namespaceId)
    throw new AppError(403, 'This API key is limited to its namespace', { namespace_id: actor.namespaceId });
}

const HEADER =
  'Relevant memories about the user, from Engram (use them when they help; they may be incomplete or dated):';

/** One line per memory, most relevant first, cut to `budget` characters in all; null without any. */
export function memoryContext(
  memories: { content: string; createdAt?: string }[],
  budget: number,
): { text: string; count: number } | null {
  const lines: string[] = [];
  let left = budget - HEADER.length;
  for (const m of memories) {
    const text = m.content.replace(/\s+/g, ' ').trim();
    if (!text) continue;
    const date = m.createdAt ? `(${m.createdAt.slice(0, 10)}) ` : '';
    let line = `- ${date}${text}`;
    if (line.length + 1 > left) {
      // The first memory is always given, cut to the budget; later ones only whole.
      if (lines.length || left < 40) break;
      line = `${line.slice(0, left - 2)}…`;
    }
    lines.push(line);
    left -= line.length + 1;
  }
  return lines.length ? { text: `${HEADER}\n${lines.join('\n')}`, count: lines.length } : null;
}

/** `text` cut to at most `limit` UTF-8 bytes (a cut one ends with "…"). */
export function fitBytes(text: string, limit: number): string {
  if (Buffer.byteLength(text) <= limit) return text;
  const cut = Buffer.from(text)
    .subarray(0, Math.max(0, limit - 3))
    .toString('utf8');
  return `${cut.replace(/\uFFFD+$/, '')}…`;
}
