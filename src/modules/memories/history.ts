/**
 * A memory's history (GET /v1/memory/{id}/history): the versions PUT kept and its supersession
 * and duplicate links, newest first. Readable by whoever may read the memory; the linked
 * memories are named, not shown (the reader may not be allowed to read them).
 */
import type { Db } from '../../platform/db/index.ts';
import { requirePermission, type Actor } from '../../shared/actor.ts';
import { notFound } from '../../shared/errors.ts';
import { iso } from '../../shared/time.ts';
import type { UserDirectory } from '../users/index.ts';
import { linksOf, versionsOf } from './history.store.ts';
import { getMemory } from './memories.store.ts';
import { endUserReader } from './reader.ts';

export function createHistory(deps: { db: Db; users: Pick<UserDirectory, 'get' | 'findByExternalId'> }) {
  const { db } = deps;
  return {
    async history(actor: Actor, id: string) {
      requirePermission(actor, 'read');
      const reader = await endUserReader(deps.users, db, actor);
      const row = await getMemory(db, { organizationId: actor.organizationId, namespaceId: actor.namespaceId }, id, {
        reader,
      });
      if (!row) throw notFound(`Memory ${id}`);
      const [versions, links] = await Promise.all([versionsOf(db, id), linksOf(db, actor.organizationId, id)]);
      const retiredBy = links
        .filter((l) => l.kind === 'supersedes' && l.prior_id === id)
        .sort((a, b) => +a.valid_to! - +b.valid_to!)[0];
      return {
        memory_id: id,
        superseded_by: retiredBy?.memory_id ?? null,
        valid_to: iso(retiredBy?.valid_to ?? null) ?? null,
        versions: [
          {
            version: (versions[0]?.version ?? 0) + 1,
            current: true,
            content: row.content,
            type: row.type,
            metadata: row.metadata,
            context: row.context,
            valid_from: iso(versions.length ? row.updated_at : row.created_at)!,
            valid_to: null,
          },
          ...versions.map((v) => ({
            version: v.version,
            current: false,
            content: v.content,
            type: v.type,
            metadata: v.metadata,
            context: v.context,
            valid_from: iso(v.version === 1 ? row.created_at : v.valid_from)!,
            valid_to: iso(v.valid_to)!,
          })),
        ],
        links: links.map((l) => {
          const newer = l.memory_id === id;
          const relation =
            l.kind === 'supersedes'
              ? newer
                ? ('supersedes' as const)
                : ('superseded_by' as const)
              : newer
                ? ('duplicate_of' as const)
                : ('duplicated_by' as const);
          return {
            relation,
            memory_id: newer ? l.prior_id : l.memory_id,
            valid_to: iso(l.valid_to) ?? null,
            reason: l.reason,
            created_at: iso(l.created_at)!,
          };
        }),
      };
    },
  };
}
export type MemoryHistory = ReturnType<typeof createHistory>;
