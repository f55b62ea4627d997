import type { Db } from '../../platform/db/index.ts';
import type { Publish } from '../../platform/events/index.ts';
import { enqueueAll, type NewJob } from '../../platform/jobs/index.ts';
import { SummarizerError, type Summarizer } from '../../platform/models/summarizer.ts';
import { mayAccessOwned, requireOwnOrganization, requirePermission, type Actor } from '../../shared/actor.ts';
import { AppError, notFound, unprocessable } from '../../shared/errors.ts';
import { newId } from '../../shared/ids.ts';
import { iso } from '../../shared/time.ts';
import { resolveOwner, type MemoryWriter, type OwnerDirectory } from '../memories/index.ts';
import type { NamespaceAccess } from '../namespaces/index.ts';
import { requireSelf } from '../users/index.ts';
import { contextForLlm, agentNote } from './context.ts';
import { messageText, toMessage } from './messages.shape.ts';
import { MESSAGE_MEMORIZE, SESSION_SUMMARIZE, SUMMARY_EVERY } from './messages.jobs.ts';
import type { StoreMessageBody } from './messages.schemas.ts';
import { SESSION_MESSAGE, SESSION_QUEUED, SESSION_UPDATED } from './session-events.ts';
import {
  analyzingMemories,
  findSession,
  insertMessage,
  listMessages,
  lockOrCreateSession,
  queueUnprocessed,
  stateCounts,
  updateSession,
  type MessageRow,
  type SessionRow,
} from './messages.store.ts';
import { refreshSummaries } from './summaries.ts';

export interface MessagesDeps {
  db: Db;
  /** The memory write's own checks, run on a message before it is stored (its memory is made later). */
  memories: Pick<MemoryWriter, 'checkLinked'>;
  users: OwnerDirectory & Parameters<typeof requireSelf>[0];
  namespaces: Pick<NamespaceAccess, 'resolveWriteNamespace'>;
  summarizer: Summarizer;
  /** Records a session's changes as events, in the transaction that makes them (its status streams). */
  publish: Publish;
  maxContentBytes: number;
}

/** The summarizer failed on a request's behalf: a 503 (a model error), retryable when its adapter says so. */
function summarizerFailed(err: unknown): never {
  if (err instanceof SummarizerError)
    throw new AppError(503, `Summarizing the session failed: ${err.message}`, { reason: err.code }, err.retryable);
  throw err;
}

/** The owner and place fields of a message, as the memory write reads them. */
const memoryPlace = (body: StoreMessageBody) => ({
  user_id: body.user_id,
  external_user_id: body.external_user_id,
  namespace_id: body.namespace_id,
  metadata: body.metadata,
  type: 'text' as const,
});

/** Turns offered to context_for_llm (it keeps what fits its budget). */
const CONTEXT_TURNS = 50;

const MEMORY_FIELDS = ['context', 'policy', 'memory_policy', 'graph_generation', 'relationships_json'] as const;

/** Chat sessions and their messages (client `messages.*`; docs/messages.md). */
export function createMessagesService(deps: MessagesDeps) {
  const { db } = deps;

  /**
   * The session `key` as `actor` may see it, else 404 (never saying whether it exists): an end
   * user sees only their own sessions, a namespace key only those of its namespace.
   */
  async function visibleSession(actor: Actor, key: string): Promise<SessionRow> {
    const s = await findSession(db, actor.organizationId, key);
    if (!s || !mayAccessOwned(actor, s)) throw notFound(`Session ${key}`);
    return s;
  }

  async function statusOf(s: SessionRow) {
    const { counts, errors } = await stateCounts(db, s.id);
    const processing = { unprocessed: 0, queued: 0, analyzing: 0, completed: 0, failed: 0 };
    for (const c of counts) {
      const m = toMessage({ state: c.state, memory_status: c.memory_status } as MessageRow, '');
      processing[m.processing_status] += c.n;
    }
    return {
      session_id: s.session_key,
      title: s.title,
      message_count: s.message_count,
      processing,
      errors: errors.map((e) => ({ objectId: e.id, error: e.error })),
      summarized_count: s.summarized_count,
      last_summary_at: iso(s.summaries_updated_at) ?? null,
      summary_error: s.summary_error,
      created_at: iso(s.created_at)!,
      updated_at: iso(s.updated_at)!,
    };
  }

  return {
    /** POST /v1/messages */
    async store(actor: Actor, body: StoreMessageBody) {
      requirePermission(actor, 'write');
      requireOwnOrganization(actor, body.organization_id);
      const key = body.sessionId ?? body.session_id;
      if (!key) throw unprocessable('sessionId is required', { field: 'sessionId' });
      if (body.sessionId && body.session_id && body.sessionId !== body.session_id)
        throw unprocessable('sessionId and session_id name different sessions', {
          fields: ['sessionId', 'session_id'],
        });
      const text = messageText(body.content);
      if (!text.trim()) throw unprocessable('content must not be empty', { field: 'content' });
      const bytes = Buffer.byteLength(text);
      if (bytes > deps.maxContentBytes)
        throw unprocessable(`content is ${bytes} bytes; the limit is ${deps.maxContentBytes}`, {
          field: 'content',
          bytes,
          limit: deps.maxContentBytes,
        });
      const selector = { userId: body.user_id, externalUserId: body.external_user_id };
      await requireSelf(deps.users, db, actor, selector);
      const process = body.process_messages ?? true;
      const memoryOptions = Object.fromEntries(MEMORY_FIELDS.flatMap((f) => (body[f] ? [[f, body[f]]] : [])));
      // What the memory write would refuse is the caller's 4xx now, not a failed message later.
      if (process) await deps.memories.checkLinked(actor, { ...memoryOptions, ...memoryPlace(body), content: text });
      const { session, message } = await db.transaction(async (tx) => {
        const owner = await resolveOwner(deps.users, tx, actor, selector.userId, selector.externalUserId);
        const namespaceId = await deps.namespaces.resolveWriteNamespace(tx, actor, body.namespace_id);
        const session = await lockOrCreateSession(tx, {
          id: newId(),
          organizationId: actor.organizationId,
          namespaceId,
          userId: owner.userId,
          key,
        });
        // Another user's (or namespace's) session is not there for this caller.
        if (session.user_id !== owner.userId || session.namespace_id !== namespaceId || !mayAccessOwned(actor, session))
          throw notFound(`Session ${key}`);
        const seq = session.message_count + 1;
        const message = await insertMessage(
          tx,
          {
            id: newId(),
            session_id: session.id,
            organization_id: actor.organizationId,
            seq,
            role: body.role,
            content: body.content,
            text,
            metadata: body.metadata ?? {},
            memory_options: memoryOptions,
            state: process ? 'queued' : 'unprocessed',
          },
          body.title,
        );
        const jobs: NewJob[] = [];
        const payload = { session_id: session.id };
        if (process) jobs.push({ kind: MESSAGE_MEMORIZE, organizationId: actor.organizationId, payload });
        if (seq % SUMMARY_EVERY === 0)
          jobs.push({ kind: SESSION_SUMMARIZE, organizationId: actor.organizationId, payload });
        if (jobs.length) await enqueueAll(tx, jobs);
        await deps.publish(tx, { kind: SESSION_MESSAGE, organizationId: actor.organizationId, sessionId: session.id });
        return { session, message };
      });
      return toMessage(message, session.session_key);
    },

    /** GET /v1/messages/sessions/{id}: newest first, with the summaries and a ready context. */
    async history(actor: Actor, key: string, page: { limit: number; skip: number }) {
      requirePermission(actor, 'read');
      const s = await visibleSession(actor, key);
      const messages = await listMessages(db, s.id, page.limit, page.skip);
      // The context's latest turns: this page when it is the newest 50 or more, else read.
      const recent =
        page.skip === 0 && page.limit >= CONTEXT_TURNS ? messages : await listMessages(db, s.id, CONTEXT_TURNS, 0);
      return {
        sessionId: s.session_key,
        title: s.title,
        messages: messages.map((m) => toMessage(m, s.session_key)),
        total_count: s.message_count,
        summaries: s.summaries as never,
        context_for_llm: contextForLlm(s.summaries, recent),
      };
    },

    /** GET …/compress: the stored summaries when they cover every message, else computed now. */
    async compress(actor: Actor, key: string) {
      requirePermission(actor, 'read');
      let s = await visibleSession(actor, key);
      const fromCache = s.summaries !== null && s.summarized_count >= s.message_count;
      if (!fromCache)
        s = (await refreshSummaries(db, deps.summarizer, deps.publish, s.id).catch(summarizerFailed)) ?? s;
      if (!s.summaries) throw new AppError(409, `Session ${key} has no messages to summarise yet`);
      return {
        session_id: s.session_key,
        summaries: s.summaries as never,
        from_cache: fromCache,
        ai_agent_note: agentNote(s),
        message_count: s.message_count,
      };
    },

    /** GET …/status */
    async status(actor: Actor, key: string) {
      requirePermission(actor, 'read');
      return statusOf(await visibleSession(actor, key));
    },

    /**
     * The status as GET …/status answers it, with what a live stream of it listens for: the
     * session's own events (by its id) and those of the memories its messages are becoming
     * (the analyzing ones: the others change only by a new message or a re-queue, both session events).
     */
    async live(actor: Actor, key: string) {
      requirePermission(actor, 'read');
      const s = await visibleSession(actor, key);
      const [status, memoryIds] = await Promise.all([statusOf(s), analyzingMemories(db, s.id)]);
      return { status, sessionId: s.id, memoryIds };
    },

    /** POST …/process: queue what is not a memory yet (stored with process_messages false, or failed). */
    async process(actor: Actor, key: string) {
      requirePermission(actor, 'write');
      const s = await visibleSession(actor, key);
      const ids = await db.transaction(async (tx) => {
        const queued = await queueUnprocessed(tx, s.id);
        if (queued.length) {
          await enqueueAll(tx, [
            { kind: MESSAGE_MEMORIZE, organizationId: s.organization_id, payload: { session_id: s.id } },
          ]);
          await deps.publish(tx, { kind: SESSION_QUEUED, organizationId: s.organization_id, sessionId: s.id });
        }
        return queued;
      });
      return { session_id: s.session_key, queued: ids.length, message_ids: ids };
    },

    /** PATCH …: title, and metadata merged. */
    async update(actor: Actor, key: string, patch: { title?: string; metadata?: Record<string, unknown> }) {
      requirePermission(actor, 'write');
      const s = await visibleSession(actor, key);
      const row = await db.transaction(async (tx) => {
        const updated = await updateSession(tx, s.id, patch);
        await deps.publish(tx, { kind: SESSION_UPDATED, organizationId: s.organization_id, sessionId: s.id });
        return updated;
      });
      return {
        session_id: row.session_key,
        title: row.title,
        metadata: row.metadata,
        updated_at: iso(row.updated_at)!,
      };
    },
  };
}

export type MessagesService = ReturnType<typeof createMessagesService>;
