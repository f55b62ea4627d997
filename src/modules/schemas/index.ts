/**
 * User graph schemas (client `schemas.*`): custom node and relationship types with their
 * properties, limits and scopes, and the default memory policy they carry.
 */
import type { Db, Queryable } from '../../platform/db/index.ts';
import { AppError } from '../../shared/errors.ts';
import type { NamespaceAccess } from '../namespaces/index.ts';
import { schemasRoutes } from './schemas.routes.ts';
import { createSchemasService, getActiveSchema, type ActiveSchema } from './schemas.service.ts';
import { recordSchemaUse } from './schemas.store.ts';

export function createSchemasModule(deps: { db: Db; namespaces: Pick<NamespaceAccess, 'resolveWriteNamespace'> }) {
  const service = createSchemasService(deps.db, deps.namespaces);
  return {
    service,
    routes: schemasRoutes(service),
    /**
     * The usable schema a write names, as the caller may see it (404 unknown or invisible,
     * 422 not active): the write-time check.
     */
    activeFor: getActiveSchema,
    /**
     * For background work (trusted, organization-wide): the usable schema, or null when it is
     * unknown, deleted or not usable (a memory stored earlier may name one that went since).
     * Any other error (the store) propagates, so the job step fails and is retried.
     */
    async activeInOrganization(db: Queryable, organizationId: string, schemaId: string): Promise<ActiveSchema | null> {
      try {
        return await getActiveSchema(db, organizationId, schemaId);
      } catch (err) {
        if (err instanceof AppError && (err.code === 404 || err.code === 422)) return null;
        throw err;
      }
    },
    /** Note that a schema shaped a stored graph (usage counts). */
    recordUse: recordSchemaUse,
  };
}
export type SchemasModule = ReturnType<typeof createSchemasModule>;

export { assertNodesMatchSchema } from './validate.ts';
export { patternBudget, type PatternBudget } from './validate.pattern.ts';
export type { ActiveSchema } from './schemas.service.ts';
export type { UserGraphSchema } from './schemas.schemas.ts';
