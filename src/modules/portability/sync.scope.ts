import type { Queryable } from '../../platform/db/index.ts';
import { isEndUser, requireOwnOrganization, requirePermission, type Actor } from '../../shared/actor.ts';
import { AppError } from '../../shared/errors.ts';
import { requireSelf, type UserDirectory } from '../users/index.ts';

/**
 * What a sync reads: the organization, a namespace within it, and possibly one reader. With a
 * reader, their own memories and those whose read list names them (not flagged), exactly as
 * search finds them; without one, every memory of the organization (or namespace).
 */
export interface SyncScope {
  organizationId: string;
  namespaceId: string | null;
  reader: { userId: string | null; entities: string[] } | null;
}

/** The selectors a sync request may carry (delta query, tiers body). */
export interface ScopeSelectors {
  user_id?: string;
  external_user_id?: string;
  namespace_id?: string;
  organization_id?: string;
}

/**
 * The caller's scope: a namespace key stays in its namespace (naming another is a 403), an
 * end user's own token reads as that user only (naming another is a 403), the deprecated
 * internal `user_id` wins over `external_user_id`, and an API key naming no user reads the
 * whole organization (or namespace). Another organization is never named: 422.
 */
export async function resolveSyncScope(
  users: Pick<UserDirectory, 'get' | 'findByExternalId'>,
  db: Queryable,
  actor: Actor,
  q: ScopeSelectors,
): Promise<SyncScope> {
  requirePermission(actor, 'read');
  requireOwnOrganization(actor, q.organization_id);
  if (actor.namespaceId && q.namespace_id && q.namespace_id !== actor.namespaceId) {
    throw new AppError(403, 'This API key is limited to its namespace', { namespace_id: actor.namespaceId });
  }
  await requireSelf(users, db, actor, { userId: q.user_id, externalUserId: q.external_user_id });
  const organizationId = actor.organizationId;
  const namespaceId = actor.namespaceId ?? q.namespace_id ?? null;
  let user: { id: string; external_id: string | null } | undefined;
  if (q.user_id) user = await users.get(db, organizationId, q.user_id);
  else if (q.external_user_id) user = await users.findByExternalId(db, organizationId, q.external_user_id);
  else if (isEndUser(actor)) user = await users.get(db, organizationId, actor.userId);
  else return { organizationId, namespaceId, reader: null };
  // An unknown internal id reads nothing; an unknown external id still reads what is shared with it.
  if (!user && q.user_id) return { organizationId, namespaceId, reader: { userId: null, entities: [] } };
  const externalId = user?.external_id ?? q.external_user_id;
  const entities = [`organization:${organizationId}`];
  if (user) entities.push(`user:${user.id}`);
  if (externalId) entities.push(`external_user:${externalId}`);
  if (namespaceId) entities.push(`namespace:${namespaceId}`);
  return { organizationId, namespaceId, reader: { userId: user?.id ?? null, entities } };
}

/**
 * The scope as SQL over a table with the memory's scope columns (`memories` or
 * `memory_tombstones`, alias `a`); pushes its parameters. `owned` picks one half of a reader's
 * scope: true their own memories, false those shared with them, undefined both.
 */
export function scopeSql(a: string, scope: SyncScope, params: unknown[], owned?: boolean): string {
  const p = (v: unknown) => (params.push(v), `$${params.length}`);
  const where = [`${a}.organization_id = ${p(scope.organizationId)}`];
  if (scope.namespaceId) where.push(`${a}.namespace_id = ${p(scope.namespaceId)}`);
  const r = scope.reader;
  if (r) {
    // Each half pushes only the parameters it uses (an unused parameter has no type: an error).
    const own = () => (r.userId ? `${a}.user_id = ${p(r.userId)}` : 'false');
    const shared = () => `(${a}.acl_read && ${p(r.entities)}::text[] AND ${a}.risk <> 'flagged')`;
    if (owned === true) where.push(own());
    else if (owned === false) where.push(`NOT (${own()}) AND ${shared()}`);
    else where.push(`(${own()} OR ${shared()})`);
  }
  return where.join(' AND ');
}

/**
 * `part(where)` over memories `m` for the whole scope: one part, or for a reader the union of
 * their own memories and those shared with them, each read by its own index (the owner's feed
 * index; the shared memories' read-list index). Each part orders and limits itself.
 */
export function scopeUnion(scope: SyncScope, params: unknown[], part: (where: string) => string): string {
  if (!scope.reader) return part(scopeSql('m', scope, params));
  const own = part(scopeSql('m', scope, params, true));
  const shared = part(`m.is_shared AND ${scopeSql('m', scope, params, false)}`);
  return `${own} UNION ALL ${shared}`;
}
