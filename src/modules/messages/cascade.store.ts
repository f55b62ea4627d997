/** What user, delete-all and namespace deletions do to chat sessions (their messages go by the foreign key). */
import type { Queryable } from '../../platform/db/index.ts';

export interface RemovedSessions {
  sessions: number;
  messages: number;
}

async function removeWhere(tx: Queryable, where: string, params: unknown[]): Promise<RemovedSessions> {
  const [counts] = await tx.query<{ sessions: number; messages: number }>(
    `SELECT count(*)::int AS sessions, COALESCE(sum(message_count), 0)::int AS messages FROM chat_sessions
     WHERE ${where}`,
    params,
  );
  await tx.query(`DELETE FROM chat_sessions WHERE ${where}`, params); // messages go by the foreign key
  return counts;
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
