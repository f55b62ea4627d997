import type { Queryable } from '../../platform/db/index.ts';
import { isEndUser, type Actor } from '../../shared/actor.ts';
import { AppError } from '../../shared/errors.ts';
import type { UserRow } from './users.store.ts';

/** The user a request names by a selector: internal `user_id` and/or `external_user_id`. */
export interface UserSelector {
  userId?: string | null;
  externalUserId?: string | null;
}

/**
 * An end user acting through their own token (session or Bearer, no API key) acts as
 * themselves: a selector may name only them (issue #17, finding 6). 403 otherwise, decided
 * before any lookup of the named user, so the answer is the same whether that user exists
 * and nothing is created for them. API keys (alone or beside a token) may name anyone of
 * their organization. Called wherever a service turns a selector into a user.
 */
export async function requireSelf(
  users: { get(db: Queryable, organizationId: string, id: string): Promise<UserRow | undefined> },
  db: Queryable,
  actor: Actor,
  named: UserSelector,
): Promise<void> {
  if (!isEndUser(actor)) return;
  const fields: string[] = [];
  if (named.userId && named.userId !== actor.userId) fields.push('user_id');
  if (named.externalUserId) {
    const me = actor.userId ? await users.get(db, actor.organizationId, actor.userId) : undefined;
    if (named.externalUserId !== me?.external_id) fields.push('external_user_id');
  }
  if (fields.length) {
    throw new AppError(
      403,
      "An end-user token acts as its own user: naming another user needs the application's API key",
      { fields },
    );
  }
}
