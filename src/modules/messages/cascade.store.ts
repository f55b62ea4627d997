/** What user, delete-all and namespace deletions do to chat sessions (their messages go by the foreign key). */
import type { Queryable } from '../../platform/db/index.ts';
import { deleteEventsOf } from '../../platform/events/index.ts';
import { deleteIdleJobsOf } from '../../platform/jobs/index.ts';

export interface RemovedSessions {
  sessions: number;
  messages: number;
  /** Their memorize and summarize jobs no worker held. */
  jobs: number;
  /** Their events (session.*: the status streams' routing, docs/realtime.md). */
  events: number;
}

async function removeWhere(tx: Queryable, where: string, params: unknown[]): Promise<RemovedSessions> {
  const found = await tx.query<{ id: string; organization_id: string }>(
    `SELECT id, organization_id FROM chat_sessions WHERE ${where} ORDER BY id FOR UPDATE`,
    params,
  );
  if (found.length === 0) return { sessions: 0, messages: 0, jobs: 0, events: 0 };
  const ids = found.map((g) => g.id);
  // The rows, not message_count: the receipt counts what is removed.
  const [{ n: messages }] = await tx.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM chat_messages WHERE session_id = ANY($1)',
    [ids],
  );
  await tx.query('DELETE FROM chat_sessions WHERE id = ANY($1)', [ids]); // messages go by the foreign key
  const jobs = await deleteIdleJobsOf(tx, found[0].organization_id, ids);
  const events = await deleteEventsOf(tx, found[0].organization_id, { sessionIds: ids });
  return { sessions: ids.length, messages, jobs, events };
}

/** A user's sessions, in one namespace or (null) everywhere. */
export function deleteUserSessions(tx: Queryable, organizationId: string, userId: string, namespaceId: string | null) {
  return namespaceId
    ? removeWhere(tx, 'organization_id = $1 AND user_id = $2 AND namespace_id = $3', [
        organizationId,
        userId,
        namespaceId,
      ])
    : removeWhere(tx, 'organization_id = $1 AND user_id = $2', [organizationId, userId]);
}

export function deleteNamespaceSessions(tx: Queryable, organizationId: string, namespaceId: string) {
  return removeWhere(tx, 'organization_id = $1 AND namespace_id = $2', [organizationId, namespaceId]);
}

/** Keep the namespace's sessions (with its kept memories) but move them out of it; how many. */
export async function detachNamespaceSessions(tx: Queryable, organizationId: string, namespaceId: string) {
  const rows = await tx.query(
    'UPDATE chat_sessions SET namespace_id = NULL WHERE organization_id = $1 AND namespace_id = $2 RETURNING id',
    [organizationId, namespaceId],
  );
  return rows.length;
}
