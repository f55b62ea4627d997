/**
 * Namespaces of an organization (client `namespace.*`, spec 4.6).
 *
 * `namespaceAccess` is what other modules need of them (stateless; each call takes the
 * connection or transaction it runs in); `createNamespacesModule` is the endpoints, built
 * after the modules whose data a namespace deletion removes (`content`).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../platform/db/index.ts';
import { resolveWriteNamespace } from './access.ts';
import { namespacesRoutes } from './namespaces.routes.ts';
import { instanceRoutes } from './instance.routes.ts';
import { createInstanceService } from './instance.service.ts';
import { createNamespacesService, type NamespaceContent } from './namespaces.service.ts';
import { namespaceExists } from './namespaces.store.ts';

export const namespaceAccess = {
  /** The namespace a write of this actor lands in (403/404 when it may not). */
  resolveWriteNamespace,
  /** Whether the namespace exists in the organization. */
  exists: namespaceExists,
};
export type NamespaceAccess = typeof namespaceAccess;

export function createNamespacesModule(deps: { db: Db; content: NamespaceContent }) {
  const service = createNamespacesService(deps);
  const instances = createInstanceService(deps);
  const routes: FastifyPluginAsyncZod = async (app) => {
    await app.register(namespacesRoutes(service));
    // Dedicated graph instances (namespace and organization): a documented 501 after the tenancy checks.
    await app.register(instanceRoutes(instances));
  };
  return { service, routes };
}

export type { NamespaceContent } from './namespaces.service.ts';
