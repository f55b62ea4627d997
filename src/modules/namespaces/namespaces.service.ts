import type { Db, Queryable } from '../../platform/db/index.ts';
import { requireApiKey, requirePermission, type Actor, type Permission } from '../../shared/actor.ts';
import { badRequest, forbidden, notFound, unprocessable } from '../../shared/errors.ts';
import { newId } from '../../shared/ids.ts';
import { receipt, type DeletionReceipt, type ReceiptPart } from '../../shared/receipt.ts';
import { iso } from '../../shared/time.ts';
import type {
  CreateNamespaceBody,
  DeleteNamespaceQuery,
  NamespaceCascade,
  NamespaceItem,
  UpdateNamespaceBody,
} from './namespaces.schemas.ts';
import {
  deleteNamespaceRow,
  getNamespace,
  insertNamespaceRow,
  listNamespaces,
  lockNamespace,
  purgeNamespaceRecords,
  updateNamespaceRow,
  type NamespaceRow,
} from './namespaces.store.ts';

/**
 * Namespace administration needs an organization-wide credential: a namespace key is
 * confined to its namespace and must not create, reshape or delete namespaces.
 */
export function requireOrganizationScope(actor: Actor, permission: Permission, what: string): void {
  requirePermission(actor, permission);
  // An end user's own token is no administrator: it acts only as that user (issue #17).
  requireApiKey(actor, what);
  if (actor.namespaceId)
    throw forbidden(`A namespace API key cannot ${what}; use an organization key`, { namespace_id: actor.namespaceId });
}

/** NamespaceItem (client contract) from a row. */
export function toNamespaceItem(r: NamespaceRow): NamespaceItem {
  return {
    objectId: r.id,
    name: r.name,
    organization_id: r.organization_id,
    environment_type: r.environment_type,
    is_active: r.is_active,
    rate_limits: r.rate_limits ?? {},
    default_policy: r.default_policy ?? {},
    memoriesCount: r.memories_count,
    storageCount: r.storage_bytes,
    createdAt: iso(r.created_at)!,
    updatedAt: iso(r.updated_at)!,
  };
}

/** Resolved DELETE flags: every one defaults to true (docs/tenancy.md). */
export function deleteFlags(q: DeleteNamespaceQuery) {
  if (
    q.delete_graph_nodes !== undefined &&
    q.delete_neo4j_nodes !== undefined &&
    q.delete_graph_nodes !== q.delete_neo4j_nodes
  ) {
    throw unprocessable('Conflicting fields: delete_graph_nodes and delete_neo4j_nodes disagree', {
      fields: ['delete_graph_nodes', 'delete_neo4j_nodes'],
    });
  }
  return {
    deleteMemories: q.delete_memories ?? true,
    deleteGraphNodes: q.delete_graph_nodes ?? q.delete_neo4j_nodes ?? true,
    removeAclReferences: q.remove_acl_references ?? true,
  };
}

/**
 * What the modules holding a namespace's data do when it is deleted, in the deleting
 * transaction (the namespace row is locked, so nothing is added meanwhile).
 */
export interface NamespaceContent {
  memories: {
    /** Delete the namespace's memories with what hangs off them; the receipt's counts. */
    deleteIn(tx: Queryable, organizationId: string, namespaceId: string): Promise<ReceiptPart>;
    /** Keep the namespace's memories but move them out of it; how many. */
    detachFrom(tx: Queryable, organizationId: string, namespaceId: string): Promise<number>;
    /** Remove one ACL entry from every memory of the organization; how many lists changed. */
    removeAclEntry(tx: Queryable, organizationId: string, entry: string): Promise<{ read: number; write: number }>;
  };
  sessions: {
    /** Delete the namespace's chat sessions with their messages (and jobs); how many. */
    deleteIn(
      tx: Queryable,
      organizationId: string,
      namespaceId: string,
    ): Promise<{ sessions: number; messages: number } & ReceiptPart>;
    /** Keep them (with the kept memories) but out of the namespace; how many sessions. */
    detachFrom(tx: Queryable, organizationId: string, namespaceId: string): Promise<number>;
  };
  /** The namespace's document uploads, deleted with its memories (after them). */
  documents?: {
    deleteIn(tx: Queryable, organizationId: string, namespaceId: string): Promise<ReceiptPart>;
  };
  graph: {
    countNodes(tx: Queryable, organizationId: string, namespaceId: string): Promise<number>;
    /** Nodes, their relationships and their links to memories. */
    countGraph(
      tx: Queryable,
      organizationId: string,
      namespaceId: string,
    ): Promise<{ nodes: number; edges: number; links: number }>;
    deleteNodes(tx: Queryable, organizationId: string, namespaceId: string): Promise<void>;
  };
}

const nameTaken = (name: string) =>
  badRequest(`A namespace named "${name}" already exists in this organization`, { field: 'name' });

/** Namespaces of an organization (client `namespace.*`, spec 4.6). */
export function createNamespacesService({ db, content }: { db: Db; content: NamespaceContent }) {
  /** A namespace the actor may see: its organization's, and only its own for a namespace key. */
  async function visible(actor: Actor, id: string): Promise<NamespaceRow> {
    const row =
      actor.namespaceId && actor.namespaceId !== id ? undefined : await getNamespace(db, actor.organizationId, id);
    if (!row) throw notFound(`Namespace ${id}`);
    return row;
  }

  return {
    async create(actor: Actor, body: CreateNamespaceBody): Promise<NamespaceItem> {
      requireOrganizationScope(actor, 'write', 'create namespaces');
      const row = await insertNamespaceRow(db, newId(), actor.organizationId, body);
      if (!row) throw nameTaken(body.name);
      return toNamespaceItem(row);
    },

    async list(actor: Actor, limit: number, skip: number) {
      requirePermission(actor, 'read');
      const { rows, total } = await listNamespaces(db, actor.organizationId, actor.namespaceId, limit, skip);
      return { items: rows.map(toNamespaceItem), total };
    },

    async get(actor: Actor, id: string): Promise<NamespaceItem> {
      requirePermission(actor, 'read');
      return toNamespaceItem(await visible(actor, id));
    },

    async update(actor: Actor, id: string, body: UpdateNamespaceBody): Promise<NamespaceItem> {
      requireOrganizationScope(actor, 'write', 'change namespaces');
      // The row comes from the update itself: a deletion between the update and a second
      // read made that read find nothing (a 500, issue #17); now it is simply a 404.
      const row = await updateNamespaceRow(db, actor.organizationId, id, body);
      if (row === 'name_taken') throw nameTaken(body.name!);
      if (!row) throw notFound(`Namespace ${id}`);
      return toNamespaceItem(row);
    },

    /**
     * DELETE /v1/namespace/{id}: in one transaction, with the namespace row locked so no
     * memory can be added meanwhile: delete (or detach) its memories, strip
     * `namespace:<id>` from the ACLs of every other memory of the organization, delete its
     * keys and the row. All or nothing, so `memories_failed` is 0 whenever the call succeeds.
     */
    async delete(
      actor: Actor,
      id: string,
      q: DeleteNamespaceQuery,
    ): Promise<NamespaceCascade & { deleted: DeletionReceipt }> {
      requireOrganizationScope(actor, 'delete', 'delete namespaces');
      const flags = deleteFlags(q);
      return db.transaction(async (tx) => {
        const org = actor.organizationId;
        if (!(await lockNamespace(tx, org, id))) throw notFound(`Namespace ${id}`);
        const { memories, graph, sessions, documents } = content;
        const graphBefore = await graph.countGraph(tx, org, id);
        if (flags.deleteGraphNodes) await graph.deleteNodes(tx, org, id);
        const deleted = flags.deleteMemories ? await memories.deleteIn(tx, org, id) : {};
        // Kept memories must leave the namespace first: the foreign key forbids dangling ids.
        const detached = flags.deleteMemories ? 0 : await memories.detachFrom(tx, org, id);
        // Sessions follow the memories they were made into: deleted with them, or detached with them.
        const removed = flags.deleteMemories ? await sessions.deleteIn(tx, org, id) : { sessions: 0, messages: 0 };
        if (!flags.deleteMemories) await sessions.detachFrom(tx, org, id);
        // Uploads go with the namespace row by its cascade either way: counted and cleaned up here.
        const uploads = (await documents?.deleteIn(tx, org, id)) ?? {};
        const records = await purgeNamespaceRecords(tx, org, id, flags.deleteMemories);
        const acl = flags.removeAclReferences
          ? await memories.removeAclEntry(tx, org, `namespace:${id}`)
          : { read: 0, write: 0 };
        const { apiKeysDeleted } = await deleteNamespaceRow(tx, org, id);
        // A node exists only through its memories: deleting them prunes their nodes even with
        // delete_graph_nodes=false (docs/tenancy.md), so the count is what is gone, either way.
        const graphAfter = await graph.countGraph(tx, org, id);
        const gone = {
          graph_nodes: graphBefore.nodes - graphAfter.nodes,
          relationships: graphBefore.edges - graphAfter.edges,
          graph_links: graphBefore.links - graphAfter.links,
        };
        return {
          memories_deleted: deleted.memories ?? 0,
          memories_failed: 0,
          memories_detached: detached,
          graph_nodes_deleted: gone.graph_nodes,
          neo4j_nodes_deleted: gone.graph_nodes,
          acl_read_cleaned: acl.read,
          acl_write_cleaned: acl.write,
          api_keys_deleted: apiKeysDeleted,
          sessions_deleted: removed.sessions,
          messages_deleted: removed.messages,
          // The namespace's graph counts replace the memories' own: nodes of the namespace go
          // with delete_graph_nodes before its memories do, which then find fewer to prune.
          deleted: receipt(
            { ...deleted, graph_nodes: 0, relationships: 0, graph_links: 0 },
            removed,
            uploads,
            records,
            gone,
            { api_keys: apiKeysDeleted },
          ),
        };
      });
    },
  };
}

export type NamespacesService = ReturnType<typeof createNamespacesService>;
