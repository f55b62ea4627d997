import type { Db } from '../../platform/db/index.ts';
import { requireApiKey, requirePermission, type Actor, type Permission } from '../../shared/actor.ts';
import { AppError, notFound } from '../../shared/errors.ts';
import { requireOrganizationScope } from './namespaces.service.ts';
import { namespaceExists } from './namespaces.store.ts';

/** Where the 501 points: the page that says why (also in its details). */
export const INSTANCE_DOCS = 'docs/tenancy.md#dedicated-graph-instances';

type Operation = 'read' | 'write' | 'delete';

const PERMISSION: Record<Operation, Permission> = { read: 'read', write: 'write', delete: 'delete' };
const VERB: Record<Operation, string> = { read: 'read', write: 'set', delete: 'remove' };

/**
 * The honest answer to an instance configuration: 501, not retried (`x-should-retry: false`).
 * Engram keeps each namespace's graph in its own PostgreSQL tables (graph_nodes, graph_edges);
 * there is no external Neo4j to point a namespace or an organization at, and a stored
 * configuration nothing reads would claim otherwise.
 */
function notImplemented(scope: 'namespace' | 'organization'): AppError {
  return new AppError(
    501,
    `Dedicated graph instances are not supported: Engram keeps the knowledge graph in its own PostgreSQL store ` +
      `and connects to no external Neo4j instance, so there is no ${scope} instance configuration to read, set ` +
      `or remove (see ${INSTANCE_DOCS})`,
    { reason: 'not_supported', graph_store: 'postgresql', scope, docs: INSTANCE_DOCS },
    false,
  );
}

/**
 * `namespace.instance.*` and `organization.instance.*` (client). Authentication, permission and
 * tenancy are checked first, exactly as for the namespace itself, so only a caller allowed to ask
 * ever learns the 501: another organization's or an unknown namespace is a 404. Instance
 * configuration is administration: the application's key, and for anything but reading a
 * namespace's own, an organization-wide one.
 */
export function createInstanceService({ db }: { db: Db }) {
  return {
    async namespace(actor: Actor, namespaceId: string, op: Operation): Promise<never> {
      if (op === 'read') {
        requirePermission(actor, 'read');
        requireApiKey(actor, "read a namespace's instance configuration");
      } else requireOrganizationScope(actor, PERMISSION[op], `${VERB[op]} a namespace's instance configuration`);
      const visible =
        (!actor.namespaceId || actor.namespaceId === namespaceId) &&
        (await namespaceExists(db, actor.organizationId, namespaceId));
      if (!visible) throw notFound(`Namespace ${namespaceId}`);
      throw notImplemented('namespace');
    },

    async organization(actor: Actor, op: Operation): Promise<never> {
      requireOrganizationScope(actor, PERMISSION[op], `${VERB[op]} the organization's instance configuration`);
      throw notImplemented('organization');
    },
  };
}

export type InstanceService = ReturnType<typeof createInstanceService>;
