/**
 * API keys: namespace-scoped keys minted and revoked over the API (spec 4.7), and the key
 * records authentication and the operator tools read (docs/tenancy.md).
 */
import type { Db } from '../../platform/db/index.ts';
import type { NamespaceAccess } from '../namespaces/index.ts';
import { apiKeysRoutes } from './api-keys.routes.ts';
import { createApiKeysService } from './api-keys.service.ts';
import { findActiveKeyByHash, insertApiKey, keyHashExists, revokeApiKeyById, touchApiKey } from './api-keys.store.ts';

export function createApiKeysModule(deps: { db: Db; namespaces: Pick<NamespaceAccess, 'exists'> }) {
  const service = createApiKeysService(deps.db, deps.namespaces);
  return { service, routes: apiKeysRoutes(service) };
}

/** Key records by hash, for authentication and the operator tools (stateless; each call takes its connection). */
export const apiKeyStore = {
  findActiveByHash: findActiveKeyByHash,
  /** Record a key's use (at most once a minute is kept). */
  touch: touchApiKey,
  insert: insertApiKey,
  hashExists: keyHashExists,
  /** Revoke any organization's key by id (operators only). */
  revokeById: revokeApiKeyById,
};
export type ApiKeyStore = typeof apiKeyStore;

export { generateApiKey, keyPrefix, type KeyKind } from './api-keys.keys.ts';
export type { ApiKeyRow } from './api-keys.store.ts';
