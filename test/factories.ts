import { randomBytes } from 'node:crypto';
import type { Db } from '../src/platform/db/index.ts';
import { newId } from '../src/shared/ids.ts';
import type { Permission } from '../src/shared/actor.ts';
import { createOrganization } from '../src/modules/organizations/organizations.service.ts';
import { generateApiKey, hashSecret, keyPrefix } from '../src/modules/api-keys/api-keys.keys.ts';
import { insertApiKey, revokeApiKey } from '../src/modules/api-keys/api-keys.store.ts';
import { insertSession } from '../src/modules/auth/sessions.store.ts';
import { insertNamespace } from '../src/modules/organizations/organizations.store.ts';
import { resolveExternalUser } from '../src/modules/users/users.store.ts';

export function makeOrg(db: Db, name = `org-${randomBytes(3).toString('hex')}`) {
  return db.transaction((tx) => createOrganization(tx, name));
}

export async function makeNamespace(db: Db, orgId: string, name = `ns-${randomBytes(3).toString('hex')}`) {
  const id = newId();
  await insertNamespace(db, id, orgId, name);
  return id;
}

/** A key of `orgId`, organization-wide unless `namespaceId` is given. */
export async function makeKey(
  db: Db,
  orgId: string,
  opts: { namespaceId?: string; permissions?: Permission[]; userId?: string | null } = {},
) {
  const key = generateApiKey(opts.namespaceId ? 'ns' : 'org');
  const row = await insertApiKey(db, {
    id: newId(),
    organizationId: orgId,
    namespaceId: opts.namespaceId ?? null,
    userId: opts.userId ?? null,
    name: 'test key',
    environment: 'development',
    permissions: opts.permissions ?? ['read', 'write', 'delete'],
    keyHash: hashSecret(key),
    keyPrefix: keyPrefix(key),
  });
  return { key, id: row.id };
}

export async function makeRevokedKey(db: Db, orgId: string) {
  const k = await makeKey(db, orgId);
  await revokeApiKey(db, orgId, k.id);
  return k;
}

/** A session token for an (external) end user of `orgId`; expired when `ttlMs` is negative. */
export async function makeSession(db: Db, orgId: string, externalId = 'end-user-1', ttlMs = 3_600_000) {
  const user = await resolveExternalUser(db, orgId, externalId);
  const token = `st_${randomBytes(24).toString('base64url')}`;
  await insertSession(db, {
    id: newId(),
    organizationId: orgId,
    userId: user.id,
    tokenHash: hashSecret(token),
    expiresAt: new Date(Date.now() + ttlMs),
  });
  return { token, userId: user.id };
}
