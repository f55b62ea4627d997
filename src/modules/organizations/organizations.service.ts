import type { Queryable } from '../../platform/db/index.ts';
import { newId } from '../../shared/ids.ts';
import { ALL_PERMISSIONS, type Permission } from '../../shared/actor.ts';
import { hashSecret } from '../../shared/secrets.ts';
import { apiKeyStore, generateApiKey, keyPrefix, type ApiKeyRow } from '../api-keys/index.ts';
import { userDirectory } from '../users/index.ts';
import { insertNamespace, insertOrganization } from './organizations.store.ts';

export interface CreatedOrganization {
  organizationId: string;
  defaultNamespaceId: string;
  ownerUserId: string;
  apiKey: ApiKeyRow;
  /** The full key: the only moment it exists outside the caller's hands. */
  key: string;
}

/**
 * A new organization with its default namespace, an owner (developer) user and an
 * organization-wide key with every permission. Run inside the caller's transaction.
 */
export async function createOrganization(
  tx: Queryable,
  name: string,
  opts: { key?: string } = {},
): Promise<CreatedOrganization> {
  const org = await insertOrganization(tx, newId(), name);
  const defaultNamespaceId = newId();
  await insertNamespace(tx, defaultNamespaceId, org.id, 'default');
  const owner = await userDirectory.insert(tx, {
    organizationId: org.id,
    externalId: null,
    type: 'developerUser',
    displayName: `${name} owner`,
  });
  const key = opts.key ?? generateApiKey('org');
  const apiKey = await addOrganizationKey(tx, org.id, owner.id, key, 'organization key');
  return { organizationId: org.id, defaultNamespaceId, ownerUserId: owner.id, apiKey, key };
}

/** Store an organization-wide key (all permissions) for `userId`. */
export function addOrganizationKey(
  tx: Queryable,
  organizationId: string,
  userId: string,
  key: string,
  name: string,
  permissions: Permission[] = [...ALL_PERMISSIONS],
): Promise<ApiKeyRow> {
  return apiKeyStore.insert(tx, {
    id: newId(),
    organizationId,
    namespaceId: null,
    userId,
    name,
    environment: 'production',
    permissions,
    keyHash: hashSecret(key),
    keyPrefix: keyPrefix(key),
  });
}
