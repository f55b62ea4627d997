import type { Queryable } from '../../platform/db/index.ts';
import type { Actor } from '../../shared/actor.ts';
import { AppError, unprocessable } from '../../shared/errors.ts';
import type { UserDirectory } from '../users/index.ts';

/** What ownership reads of the user directory. */
export type OwnerDirectory = Pick<UserDirectory, 'get' | 'resolveExternal' | 'resolveExternalMany'>;

export interface Owner {
  userId: string;
  externalUserId: string | null;
}

/**
 * Whose memory this is: the deprecated internal `user_id` wins over `external_user_id`
 * (client docs); with neither, the caller. An external id is created on first sight. Run in
 * the writing transaction: the user found is key-share locked until it commits.
 */
export async function resolveOwner(
  users: OwnerDirectory,
  db: Queryable,
  actor: Actor,
  userId?: string,
  externalUserId?: string,
): Promise<Owner> {
  if (userId) {
    const user = await users.get(db, actor.organizationId, userId, true);
    if (!user) throw new AppError(404, `User ${userId} not found`);
    if (externalUserId && user.external_id !== externalUserId) {
      throw unprocessable('Conflicting fields: user_id and external_user_id name different users', {
        fields: ['user_id', 'external_user_id'],
      });
    }
    return { userId: user.id, externalUserId: user.external_id };
  }
  if (externalUserId) {
    const user = await users.resolveExternal(db, actor.organizationId, externalUserId);
    return { userId: user.id, externalUserId };
  }
  const me = actor.userId ? await users.get(db, actor.organizationId, actor.userId, true) : undefined;
  if (!me)
    throw unprocessable('No user: send external_user_id (this credential has no user of its own)', {
      fields: ['external_user_id'],
    });
  return { userId: me.id, externalUserId: me.external_id };
}

/**
 * resolveOwner for many writes (a batch group), inside their transaction: their external
 * users in two statements, created on first sight (again, when one was deleted since the batch
 * first resolved it: what a fresh write would do) and key-share locked, so none can be deleted
 * before the group commits; the rare others (deprecated user_id, the caller's own user, a user
 * deleted between those two statements) one lookup per distinct user. An owner that cannot be
 * resolved (an unknown user_id: 404) is that item's AppError, in its place; other items go on.
 */
export async function resolveOwners(
  users: OwnerDirectory,
  db: Queryable,
  actor: Actor,
  items: { userId?: string; externalUserId?: string }[],
): Promise<(Owner | AppError)[]> {
  const external = await users.resolveExternalMany(
    db,
    actor.organizationId,
    items.filter((x) => !x.userId && x.externalUserId).map((x) => x.externalUserId!),
  );
  const others = new Map<string, Owner | AppError>();
  const out: (Owner | AppError)[] = [];
  for (const x of items) {
    const user = !x.userId && x.externalUserId ? external.get(x.externalUserId) : undefined;
    if (user) {
      out.push({ userId: user.id, externalUserId: x.externalUserId! });
      continue;
    }
    // One at a time: the statements share the transaction's connection anyway.
    const key = `${x.userId ?? ''}\u0000${x.externalUserId ?? ''}`;
    if (!others.has(key)) {
      const owner = await resolveOwner(users, db, actor, x.userId, x.externalUserId).catch((err: unknown) => {
        if (err instanceof AppError) return err;
        throw err;
      });
      others.set(key, owner);
    }
    out.push(others.get(key)!);
  }
  return out;
}

const PREFIXES = ['external_user', 'user', 'namespace', 'organization', 'workspace', 'role'];

/** `prefix:id` entries; a bare id means `external_user:` (client contract). */
export function normaliseAclEntry(entry: string): string {
  const i = entry.indexOf(':');
  if (i > 0 && PREFIXES.includes(entry.slice(0, i))) return entry;
  return `external_user:${entry}`;
}

/** Stored ACL lists: the given ones, else private to the owner (spec 2.4 default). */
export function aclLists(
  owner: Owner,
  acl?: { read?: string[]; write?: string[] },
): { read: string[]; write: string[] } {
  const own = [`user:${owner.userId}`, ...(owner.externalUserId ? [`external_user:${owner.externalUserId}`] : [])];
  const list = (given?: string[]) => [...new Set([...own, ...(given ?? []).map(normaliseAclEntry)])];
  return { read: list(acl?.read), write: list(acl?.write) };
}
