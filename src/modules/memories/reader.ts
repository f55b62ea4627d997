import type { Queryable } from '../../platform/db/index.ts';
import { isEndUser, type Actor } from '../../shared/actor.ts';
import type { UserDirectory } from '../users/index.ts';

/**
 * An end user reading memories: they reach what they own (`userId`) or what a read ACL
 * shares with them by one of `entities` (flagged memories stay owner-only; readerSql).
 */
export interface Reader {
  userId: string;
  entities: string[];
}

/**
 * The reader an actor is limited to: an end user acting with a session or Bearer token alone
 * reaches only what they own or what an ACL shares with them; API keys are the application's
 * own credential and act across their organization (or namespace): undefined, no limit. One
 * rule for every read by id: the memory itself, its status, its batch's status and their
 * WebSocket streams.
 */
export async function endUserReader(
  users: Pick<UserDirectory, 'get'>,
  db: Queryable,
  actor: Actor,
): Promise<Reader | undefined> {
  if (!isEndUser(actor) || !actor.userId) return undefined;
  const user = await users.get(db, actor.organizationId, actor.userId);
  const entities = [`user:${actor.userId}`, `organization:${actor.organizationId}`];
  if (user?.external_id) entities.push(`external_user:${user.external_id}`);
  return { userId: actor.userId, entities };
}
