/**
 * Where a search looks (search.store.ts SearchScope), from the caller's credential and the body:
 * the organization, the namespace the key is limited to, the user searched (an end user's own token
 * searches as them only), the memories shared with that reader, and the memory-level filters.
 */
import type { Queryable } from '../../platform/db/index.ts';
import { requireOwnOrganization, type Actor } from '../../shared/actor.ts';
import { AppError } from '../../shared/errors.ts';
import { canonicalCategory, normaliseAclEntry } from '../memories/index.ts';
import { requireSelf, type UserDirectory } from '../users/index.ts';
import type { SearchBody } from './search.schemas.ts';
import { sharedWith, type SearchScope } from './search.store.ts';
import { asOfDate } from './truth-stage.ts';

export interface ScopeDeps {
  db: Queryable;
  users: Pick<UserDirectory, 'get' | 'findByExternalId'>;
  /** Share of a thread neighbour's score a memory borrows (0: no search borrows). */
  neighbourWeight: number;
}

/**
 * The search's scope, and whether its candidates borrow from their thread neighbours (not
 * when a memory-level filter is given: neighbours are not re-checked against it; nor for a
 * structured graph query, which asks for its matches, and a match's neighbour is not one).
 */
export async function resolveScope(
  deps: ScopeDeps,
  actor: Actor,
  body: SearchBody,
): Promise<{ scope: SearchScope; neighbours: boolean } | null> {
  // 422 like add and batch: the organization comes from the credential.
  requireOwnOrganization(actor, body.organization_id);
  if (actor.namespaceId && body.namespace_id && body.namespace_id !== actor.namespaceId) {
    throw new AppError(403, 'This API key is limited to its namespace', { namespace_id: actor.namespaceId });
  }
  // An end user's own token searches as them only (403 for anyone else, existing or not).
  await requireSelf(deps.users, deps.db, actor, { userId: body.user_id, externalUserId: body.external_user_id });
  // user_id (deprecated, internal) wins over external_user_id; with neither, the caller.
  let user: { id: string; external_id: string | null } | undefined;
  if (body.user_id) user = await deps.users.get(deps.db, actor.organizationId, body.user_id);
  else if (body.external_user_id)
    user = await deps.users.findByExternalId(deps.db, actor.organizationId, body.external_user_id);
  else if (actor.userId) user = await deps.users.get(deps.db, actor.organizationId, actor.userId);
  const externalId = user?.external_id ?? (body.user_id ? undefined : body.external_user_id);
  if (!user && !externalId) return null; // an unknown user has no memories
  const namespaceId = actor.namespaceId ?? body.namespace_id ?? null;
  // What ACLs may name this reader by (spec 2.4); an external id shared with before the
  // user's first memory still counts.
  const entities = [`organization:${actor.organizationId}`];
  if (user) entities.push(`user:${user.id}`);
  if (externalId) entities.push(`external_user:${externalId}`);
  if (namespaceId) entities.push(`namespace:${namespaceId}`);
  const metadata = body.metadata ? { ...body.metadata } : null;
  if (metadata?.category !== undefined) metadata.category = canonicalCategory(metadata.category) as string;
  const requireReaders = body.search_acl?.read?.map(normaliseAclEntry) ?? null;
  const expands =
    deps.neighbourWeight > 0 &&
    !metadata &&
    !requireReaders?.length &&
    !body.omo_filter &&
    !body.search_override &&
    !body.as_of;
  const shared = await sharedWith(deps.db, {
    organizationId: actor.organizationId,
    namespaceId,
    entities,
    ownerId: user?.id ?? null,
  });
  if (!user && !shared.length) return null;
  return {
    scope: {
      organizationId: actor.organizationId,
      namespaceId,
      userId: user?.id ?? null,
      sharedIds: shared,
      metadata,
      requireReaders,
      safety: body.omo_filter ?? null,
      asOf: asOfDate(body.as_of),
    },
    neighbours: expands && !!user,
  };
}
