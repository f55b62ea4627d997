import type { Db } from '../../platform/db/index.ts';
import { requirePermission, type Actor } from '../../shared/actor.ts';
import { AppError, unprocessable } from '../../shared/errors.ts';
import { requireSelf, type UserDirectory } from '../users/index.ts';
import { canonicalCategory } from './compat.ts';
import { encodeCursor, listMemoriesQuery, type ListMemoriesQuery } from './listing.schemas.ts';
import { listMemories } from './listing.store.ts';
import { toMemoryObject, type MemoryObject } from './memory-object.ts';
import { endUserReader } from './reader.ts';

export interface ListingDeps {
  db: Db;
  users: Pick<UserDirectory, 'get' | 'findByExternalId'>;
}

export interface MemoryPage {
  memories: MemoryObject[];
  nextCursor: string | null;
}

/** GET /v1/memory: memories newest first, a page at a time (docs/memories.md, "Listing"). */
export function createListingService({ db, users }: ListingDeps) {
  /** The owner a query names: user_id wins; an unknown user is `undefined` (nothing to list). */
  async function namedOwner(actor: Actor, q: ListMemoriesQuery): Promise<string | null | undefined> {
    if (q.user_id) return (await users.get(db, actor.organizationId, q.user_id))?.id;
    if (q.external_user_id) return (await users.findByExternalId(db, actor.organizationId, q.external_user_id))?.id;
    return null;
  }

  return {
    /**
     * The same reach as reading a memory by id: the organization (a namespace key, its
     * namespace; naming another is a 403 as in search), and for an end user's own token what
     * they own or an ACL shares with them (naming anyone else is a 403, requireSelf).
     */
    async list(actor: Actor, q: ListMemoriesQuery): Promise<MemoryPage> {
      requirePermission(actor, 'read');
      if (actor.namespaceId && q.namespace_id && q.namespace_id !== actor.namespaceId)
        throw new AppError(403, 'This API key is limited to its namespace', { namespace_id: actor.namespaceId });
      await requireSelf(users, db, actor, { userId: q.user_id, externalUserId: q.external_user_id });
      const ownerId = await namedOwner(actor, q);
      if (ownerId === undefined) return { memories: [], nextCursor: null };
      // The named filters win over the same keys of the metadata JSON; fact and facts are one category.
      const metadata: Record<string, unknown> = { ...(q.metadata ?? {}) };
      if (q.category !== undefined) metadata.category = q.category;
      if (q.role !== undefined) metadata.role = q.role;
      if (metadata.category !== undefined) metadata.category = canonicalCategory(metadata.category);
      const rows = await listMemories(
        db,
        { organizationId: actor.organizationId, namespaceId: actor.namespaceId ?? q.namespace_id ?? null },
        {
          ownerId,
          reader: await endUserReader(users, db, actor),
          metadata,
          createdAfter: q.created_after ?? null,
          createdBefore: q.created_before ?? null,
          after: q.cursor ?? null,
          limit: q.limit,
        },
      );
      const page = rows.slice(0, q.limit);
      const last = page[page.length - 1];
      return {
        memories: page.map((r) => toMemoryObject(r)),
        nextCursor: rows.length > q.limit && last ? encodeCursor({ createdAt: last.created_key, id: last.id }) : null,
      };
    },
  };
}

export type ListingService = ReturnType<typeof createListingService>;

/**
 * A listing query from another front door (GraphQL): the same fields and bounds as
 * GET /v1/memory's query string, and the same 422 naming the field that is wrong.
 */
export function parseListQuery(raw: Record<string, unknown>): ListMemoriesQuery {
  const parsed = listMemoriesQuery.safeParse(Object.fromEntries(Object.entries(raw).filter(([, v]) => v != null)));
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const field = issue.path.join('.');
  throw unprocessable(`${field}: ${issue.message}`, { field, issues: parsed.error.issues });
}
