/**
 * OMO export and import (docs/omo.md). Export reads what the caller may read, as GET
 * /v1/memory/{id} does; import stores through the memories module's writer, so an imported
 * memory is embedded, processed and reported (events, webhooks) like any other.
 */
import type { Db } from '../../platform/db/index.ts';
import type { Logger } from '../../platform/log.ts';
import { requirePermission, type Actor } from '../../shared/actor.ts';
import { GRAPH_LIMITS, type GraphExport } from '../graph/index.ts';
import { endUserReader, type MemoryWriter } from '../memories/index.ts';
import type { NamespaceAccess } from '../namespaces/index.ts';
import type { UserDirectory } from '../users/index.ts';
import { toOmo, type OmoOutput } from './omo.mapping.ts';
import { createOmoImport } from './omo.import.ts';
import { readableMemories } from './omo.store.ts';

export interface OmoDeps {
  db: Db;
  log?: Logger;
  /** The memories module's write path (validation, graph plan, embedding, rows, events, jobs). */
  writer: Pick<MemoryWriter, 'prepareEach' | 'storeAll'>;
  users: Pick<UserDirectory, 'get' | 'findByExternalId'>;
  namespaces: Pick<NamespaceAccess, 'resolveWriteNamespace' | 'exists'>;
  /** Each memory's nodes and relationships (the graph module's). */
  graph: GraphExport;
}

export function createOmoService(deps: OmoDeps) {
  const { db } = deps;
  return {
    /**
     * POST /v1/omo/export: the memories among `ids` the caller may read, as OMO v1 objects in
     * the order asked for (a repeated id once); the others are `notFound`, whatever the reason
     * (unknown, another tenant's, outside a namespace key's namespace, not shared with an end user).
     */
    async exportMemories(actor: Actor, ids: string[]): Promise<{ memories: OmoOutput[]; notFound: string[] }> {
      requirePermission(actor, 'read');
      const unique = [...new Set(ids)];
      const reader = await endUserReader(deps.users, db, actor);
      const scope = { organizationId: actor.organizationId, namespaceId: actor.namespaceId };
      const rows = new Map((await readableMemories(db, scope, unique, reader)).map((r) => [r.id, r]));
      const graphs = await deps.graph.graphsOfMemories(db, actor.organizationId, [...rows.keys()], {
        nodes: GRAPH_LIMITS.nodes,
        edges: GRAPH_LIMITS.relationships,
      });
      return {
        memories: unique.filter((id) => rows.has(id)).map((id) => toOmo(rows.get(id)!, graphs.get(id))),
        notFound: unique.filter((id) => !rows.has(id)),
      };
    },

    /** POST /v1/omo/import (omo.import.ts). */
    importMemories: createOmoImport(deps),
  };
}

export type OmoService = ReturnType<typeof createOmoService>;
