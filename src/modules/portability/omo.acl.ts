/**
 * An imported object's ACL in its new organization (docs/omo.md, "ACL"). Entries naming the
 * exporting organization's own ids are mapped or dropped, never kept pointing at ids that mean
 * nothing (or something else) here.
 */
import type { Queryable } from '../../platform/db/index.ts';
import type { NamespaceAccess } from '../namespaces/index.ts';
import type { UserDirectory } from '../users/index.ts';
import { normaliseAclEntry } from '../memories/index.ts';
import type { OmoSource } from './omo.mapping.ts';

export interface AclContext {
  db: Queryable;
  organizationId: string;
  users: Pick<UserDirectory, 'get'>;
  namespaces: Pick<NamespaceAccess, 'exists'>;
}

/** Lookups shared by every object of one import (an id is looked up once). */
export function aclMapper(ctx: AclContext) {
  const users = new Map<string, Promise<boolean>>();
  const namespaces = new Map<string, Promise<boolean>>();
  const userHere = (id: string) => {
    if (!users.has(id))
      users.set(
        id,
        ctx.users.get(ctx.db, ctx.organizationId, id).then((u) => !!u),
      );
    return users.get(id)!;
  };
  const namespaceHere = (id: string) => {
    if (!namespaces.has(id)) namespaces.set(id, ctx.namespaces.exists(ctx.db, ctx.organizationId, id));
    return namespaces.get(id)!;
  };

  /** One entry, or null when it is dropped. */
  async function entry(raw: string, source: OmoSource, namespaceId: string | null): Promise<string | null> {
    const e = normaliseAclEntry(raw);
    const i = e.indexOf(':');
    const prefix = e.slice(0, i);
    const id = e.slice(i + 1);
    switch (prefix) {
      case 'external_user':
        // The exported owner: the new owner's own entries are added by the write itself.
        return id === source.externalUserId ? null : e;
      case 'user':
        if (id === source.userId) return null;
        return (await userHere(id)) ? e : null;
      case 'organization':
        if (id === ctx.organizationId) return e;
        return id === source.organizationId ? `organization:${ctx.organizationId}` : null;
      case 'namespace':
        if (id === source.namespaceId) return namespaceId ? `namespace:${namespaceId}` : null;
        return (await namespaceHere(id)) ? e : null;
      default:
        // workspace: and role: are labels Engram does not resolve: kept as they are.
        return e;
    }
  }

  /**
   * The list mapped: the exporting owner's entries dropped (the write adds the new owner's),
   * the exporting organization and the memory's own namespace mapped to where it lands,
   * internal user and namespace ids kept only when they exist here, the rest kept.
   */
  return async (list: string[] | undefined, source: OmoSource, namespaceId: string | null) => {
    const out: string[] = [];
    for (const raw of list ?? []) {
      const e = await entry(raw, source, namespaceId);
      if (e !== null && !out.includes(e)) out.push(e);
    }
    return out;
  };
}
