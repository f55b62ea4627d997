import type { Db, Queryable } from '../../platform/db/index.ts';
import type { Logger } from '../../platform/log.ts';
import { isEndUser, requireOwnOrganization, requirePermission, type Actor } from '../../shared/actor.ts';
import { AppError, notFound, unprocessable } from '../../shared/errors.ts';
import { newId } from '../../shared/ids.ts';
import { iso } from '../../shared/time.ts';
import type { LoggedSearch } from '../search/index.ts';
import { requireSelf, type UserDirectory } from '../users/index.ts';
import { feedbackBody, type FeedbackBody } from './feedback.schemas.ts';
import { getFeedback, insertFeedback, insertSignals, lockSearchedUser, type FeedbackRow } from './feedback.store.ts';
import type { FeedbackSignal } from './boosts.ts';
import { signalOf } from './ranking.ts';

export interface FeedbackDeps {
  db: Db;
  log?: Logger;
  /** The query log (the search module's). */
  searches: {
    find(db: Queryable, organizationId: string, searchId: string): Promise<LoggedSearch | null>;
    /**
     * Waits for this process's query-log writes in flight: a search's row is written beside
     * its reply, so feedback sent the moment the reply arrived may come first.
     */
    settle(): Promise<void>;
  };
  users: Pick<UserDirectory, 'get' | 'findByExternalId'>;
  /** Search's feedback port in this process, told at once when a user receives a signal. */
  boosts?: Pick<FeedbackSignal, 'forget'>;
}

type SessionContext = Record<string, unknown> | undefined;

const ok = { code: 200, status: 'success', error: null } as const;

/** Feedback on searches (client `feedback.*`; docs/feedback.md). */
export function createFeedbackService(deps: FeedbackDeps) {
  const { db } = deps;

  /**
   * The search `searchId` as `actor` may see it, else 404: its organization's, a namespace
   * key's only in its namespace, an end user's token only their own searches.
   */
  async function visibleSearch(actor: Actor, searchId: string): Promise<LoggedSearch> {
    let s = await deps.searches.find(db, actor.organizationId, searchId);
    if (!s) {
      await deps.searches.settle();
      s = await deps.searches.find(db, actor.organizationId, searchId);
    }
    if (
      !s ||
      (actor.namespaceId && s.namespaceId !== actor.namespaceId) ||
      (isEndUser(actor) && s.userId !== actor.userId)
    )
      throw notFound(`Search ${searchId}`);
    return s;
  }

  /** The body's user and namespace fields, when given, must be the search's own. */
  async function checkMatches(actor: Actor, body: FeedbackBody, search: LoggedSearch): Promise<void> {
    const fields: string[] = [];
    if (body.namespace_id && body.namespace_id !== search.namespaceId) fields.push('namespace_id');
    if (body.user_id && body.user_id !== search.userId) fields.push('user_id');
    if (body.external_user_id) {
      const user = await deps.users.findByExternalId(db, actor.organizationId, body.external_user_id);
      if ((user?.id ?? null) !== search.userId) fields.push('external_user_id');
    }
    if (fields.length)
      throw unprocessable('The feedback names another user or namespace than the search it is about', { fields });
  }

  /** Every check of one feedback, in the order of the other writes: organization, namespace, user, then the search. */
  async function prepare(actor: Actor, body: FeedbackBody) {
    requireOwnOrganization(actor, body.organization_id);
    if (actor.namespaceId && body.namespace_id && body.namespace_id !== actor.namespaceId)
      throw new AppError(403, 'This API key is limited to its namespace', { namespace_id: actor.namespaceId });
    await requireSelf(deps.users, db, actor, { userId: body.user_id, externalUserId: body.external_user_id });
    const search = await visibleSearch(actor, body.search_id);
    await checkMatches(actor, body, search);
    const cited = [...new Set(body.feedbackData.citedMemoryIds ?? [])];
    const returned = new Set(search.resultIds);
    const unknown = cited.filter((m) => !returned.has(m));
    if (unknown.length)
      throw unprocessable('citedMemoryIds must be memories the search returned', {
        field: 'feedbackData.citedMemoryIds',
        not_in_results: unknown.slice(0, 20),
      });
    return { search, cited, signal: signalOf(body.feedbackData) };
  }

  /** Check and store one feedback: its row and its signals in one transaction, or nothing. */
  async function submitOne(actor: Actor, body: FeedbackBody, sessionContext: SessionContext) {
    const { search, cited, signal } = await prepare(actor, body);
    const userId = search.userId;
    const row = await db.transaction(async (tx) => {
      // The searched user may have been deleted since: their search went with them.
      if (userId && !(await lockSearchedUser(tx, actor.organizationId, userId))) throw notFound(`Search ${search.id}`);
      const stored = await insertFeedback(tx, {
        id: newId(),
        organization_id: actor.organizationId,
        namespace_id: search.namespaceId,
        user_id: userId,
        api_key_id: actor.apiKeyId,
        sent_by: actor.userId,
        search_id: search.id,
        feedback_type: body.feedbackData.feedbackType,
        feedback_source: body.feedbackData.feedbackSource,
        feedback_score: body.feedbackData.feedbackScore ?? null,
        signal,
        data: body.feedbackData,
        session_context: sessionContext ?? null,
      });
      if (userId)
        await insertSignals(tx, {
          organizationId: actor.organizationId,
          userId,
          feedbackId: stored.id,
          memoryIds: cited,
          signal,
        });
      return stored;
    });
    const signalled = userId && signal !== 0 ? cited.length : 0;
    if (userId && signalled) deps.boosts?.forget({ organizationId: actor.organizationId, userId });
    return { row, signalled };
  }

  return {
    /** POST /v1/feedback */
    async submit(actor: Actor, body: FeedbackBody) {
      requirePermission(actor, 'write');
      const { row, signalled } = await submitOne(actor, body, undefined);
      return {
        ...ok,
        message: 'Feedback recorded',
        feedback_id: row.id,
        details: { search_id: row.search_id, signal: row.signal, memories_signalled: signalled },
      };
    },

    /**
     * POST /v1/feedback/batch: each item validated and stored on its own (its own transaction),
     * a failed one reported by index with the status it alone would have had.
     */
    async submitBatch(actor: Actor, items: unknown[], sessionContext: SessionContext) {
      requirePermission(actor, 'write');
      const ids: string[] = [];
      const errors: { index: number; error: string; code: number; details?: unknown }[] = [];
      for (const [index, item] of items.entries()) {
        const parsed = feedbackBody.safeParse(item);
        if (!parsed.success) {
          const issues = parsed.error.issues.map((i) => ({ field: i.path.join('.') || null, message: i.message }));
          const list = issues.map((i) => `${i.field ?? 'item'}: ${i.message}`).join('; ');
          errors.push({ index, code: 422, error: `Invalid feedback: ${list}`, details: { issues } });
          continue;
        }
        try {
          ids.push((await submitOne(actor, parsed.data, sessionContext)).row.id);
        } catch (err) {
          if (!(err instanceof AppError)) deps.log?.error({ err, index }, 'storing a feedback item failed');
          const e = err instanceof AppError ? err : new AppError(500, 'Storing this feedback failed');
          errors.push({ index, code: e.code, error: e.message, ...(e.details ? { details: e.details } : {}) });
        }
      }
      return { feedbackIds: ids, errors, total: items.length };
    },

    /** GET /v1/feedback/{id}: the feedback as its sender may see it, else 404. */
    async get(actor: Actor, id: string) {
      requirePermission(actor, 'read');
      const row = await getFeedback(db, actor.organizationId, id);
      if (
        !row ||
        (actor.namespaceId && row.namespace_id !== actor.namespaceId) ||
        (isEndUser(actor) && row.user_id !== actor.userId)
      )
        throw notFound(`Feedback ${id}`);
      return { ...ok, message: 'Feedback found', feedback_id: row.id, details: null, feedback: toStored(row) };
    },
  };
}

/** A stored feedback on the wire. */
function toStored(row: FeedbackRow) {
  return {
    feedback_id: row.id,
    search_id: row.search_id,
    feedbackData: row.data,
    user_id: row.user_id,
    namespace_id: row.namespace_id,
    session_context: row.session_context,
    signal: Number(row.signal),
    created_at: iso(row.created_at)!,
  };
}

export type FeedbackService = ReturnType<typeof createFeedbackService>;
