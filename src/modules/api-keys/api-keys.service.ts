import type { Db } from '../../platform/db/index.ts';
import { requireApiKey, requirePermission, type Actor, type Permission } from '../../shared/actor.ts';
import { forbidden, notFound } from '../../shared/errors.ts';
import { newId } from '../../shared/ids.ts';
import { iso } from '../../shared/time.ts';
import type { NamespaceAccess } from '../namespaces/index.ts';
import { generateApiKey, hashSecret, keyPrefix } from './api-keys.keys.ts';
import type { ApiKeyRecord, CreateKeyBody } from './api-keys.schemas.ts';
import { insertNamespaceKey, listNamespaceKeys, revokeNamespaceKey, type ApiKeyRow } from './api-keys.store.ts';

export function toKeyRecord(r: ApiKeyRow): ApiKeyRecord {
  return {
    objectId: r.id,
    key_prefix: r.key_prefix,
    name: r.name,
    namespace_id: r.namespace_id!,
    organization_id: r.organization_id,
    environment: r.environment,
    permissions: r.permissions,
    is_active: r.is_active,
    createdAt: iso(r.created_at)!,
    lastUsedAt: iso(r.last_used_at) ?? null,
  };
}

/**
 * Namespace-scoped API keys (spec 4.7). Rules (docs/tenancy.md): the caller's key must
 * belong to the namespace's organization (else 404); a namespace key acts only on its own
 * namespace (else 403, whether or not the other namespace exists); a minted key never
 * carries a permission its minter lacks (no escalation).
 */
export function createApiKeysService(db: Db, namespaces: Pick<NamespaceAccess, 'exists'>) {
  async function namespaceInScope(actor: Actor, namespaceId: string): Promise<void> {
    // Keys are the application's: an end user's own token would mint itself a way to name others.
    requireApiKey(actor, 'manage API keys');
    if (actor.namespaceId && actor.namespaceId !== namespaceId) {
      throw forbidden('This API key is limited to its namespace', { namespace_id: actor.namespaceId });
    }
    if (!(await namespaces.exists(db, actor.organizationId, namespaceId))) throw notFound(`Namespace ${namespaceId}`);
  }

  return {
    /** Mint a key; the full key is in the result and nowhere else, ever (only its hash is stored). */
    async create(actor: Actor, namespaceId: string, body: CreateKeyBody): Promise<ApiKeyRecord & { key: string }> {
      requirePermission(actor, 'write');
      await namespaceInScope(actor, namespaceId);
      const permissions = [...new Set(body.permissions ?? [...actor.permissions])] as Permission[];
      const excess = permissions.filter((p) => !actor.permissions.has(p));
      if (excess.length) {
        throw forbidden(`A key cannot grant permissions its minter lacks: ${excess.join(', ')}`, {
          permissions: excess,
        });
      }
      const key = generateApiKey('ns');
      const row = await insertNamespaceKey(db, {
        id: newId(),
        organizationId: actor.organizationId,
        namespaceId,
        // The minter's user, so writes without external_user_id have an owner as with the minter's key.
        userId: actor.userId || null,
        name: body.name,
        environment: body.environment ?? 'production',
        permissions,
        keyHash: hashSecret(key),
        keyPrefix: keyPrefix(key),
      });
      // The namespace was deleted since the check above.
      if (!row) throw notFound(`Namespace ${namespaceId}`);
      return { ...toKeyRecord(row), key };
    },

    async list(actor: Actor, namespaceId: string): Promise<ApiKeyRecord[]> {
      requirePermission(actor, 'read');
      await namespaceInScope(actor, namespaceId);
      return (await listNamespaceKeys(db, actor.organizationId, namespaceId)).map(toKeyRecord);
    },

    /** Revoke at once: authentication checks is_active and revoked_at on every request. */
    async revoke(actor: Actor, namespaceId: string, keyId: string): Promise<void> {
      requirePermission(actor, 'delete');
      await namespaceInScope(actor, namespaceId);
      if (!(await revokeNamespaceKey(db, actor.organizationId, namespaceId, keyId))) throw notFound(`API key ${keyId}`);
    },
  };
}

export type ApiKeysService = ReturnType<typeof createApiKeysService>;
