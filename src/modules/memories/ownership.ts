import type { Queryable } from '../../platform/db/index.ts';
import type { Actor } from '../../shared/actor.ts';
import { AppError, unprocessable } from '../../shared/errors.ts';
import type { UserDirectory, UserRow } from '../users/index.ts';

/** What ownership reads of the user directory. */
export type OwnerDirectory = Pick<UserDirectory, 'get' | 'resolveExternal' | 'resolveExternalMany'>;

export interface Owner {
  userId: string;
  externalUserId: string | null;
}

/**
 * Whose memory this is: the deprecated internal `user_id` wins over `external_user_id`
 * (client docs); with neither, the caller. An external id is created on first sight.
 */
export async function resolveOwner(
  users: OwnerDirectory,
  db: Queryable,
  actor: Actor,
  userId?: string,
  externalUserId?: string,
): Promise<Owner> {
  if (userId) {
    const user = await users.get(db, actor.organizationId, userId);
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
  const me = actor.userId ? await users.get(db, actor.organizationId, actor.userId) : undefined;
  if (!me)
    throw unprocessable('No user: send external_user_id (this credential has no user of its own)', {
      fields: ['external_user_id'],
    });
  return { userId: me.id, externalUserId: me.external_id };
}

/**
 * resolveOwner for many writes (a batch group): their external users in two statements (none
 * when the caller resolved them already: `known`), the rare others (deprecated user_id, the
 * caller's own user, a known user deleted meanwhile) one lookup per distinct user.
 */
export async function resolveOwners(
  users: OwnerDirectory,
  db: Queryable,
  actor: Actor,
  items: { userId?: string; externalUserId?: string }[],
  known?: Map<string, UserRow>,
): Promise<Owner[]> {
  const external =
    known ??
    (await users.resolveExternalMany(
      db,
      actor.organizationId,
      items.filter((x) => !x.userId && x.externalUserId).map((x) => x.externalUserId!),
    ));
  const others = new Map<string, Promise<Owner>>();
  const out: Owner[] = [];
  for (const x of items) {
    const user = !x.userId && x.externalUserId ? external.get(x.externalUserId) : undefined;
    if (user) {
      out.push({ userId: user.id, externalUserId: x.externalUserId! });
      continue;
    }
    const key = `${x.userId ?? ''}\u0000${x.externalUserId ?? ''}`;
    if (!others.has(key)) others.set(key, resolveOwner(users, db, actor, x.userId, x.externalUserId));
    out.push(await others.get(key)!);
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
