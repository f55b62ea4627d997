import { createHash, timingSafeEqual } from 'node:crypto';
import type { Db } from '../../platform/db/index.ts';
import { notFound, unauthorized } from '../../shared/errors.ts';
import { iso } from '../../shared/time.ts';
import { apiKeyStore } from '../api-keys/index.ts';
import type { OrganizationTruthBody } from './admin.schemas.ts';
import { listOrganizations, setOrganizationTruth } from './organizations.store.ts';
import { createOrganization } from './organizations.service.ts';

type Headers = Record<string, string | string[] | undefined>;
/** The admin API's "default" is the deployment's: null in the store. */
const stored = <T extends string>(v: T | undefined) => (v === 'default' ? null : v) as Exclude<T, 'default'> | null;
const digest = (s: string) => createHash('sha256').update(s).digest();

/**
 * The operator commands, outside tenancy: create and list organizations, revoke any key. The
 * admin API (`/admin/...`) serves them behind the operator credential, and `npm run admin`
 * (admin.ts) prints them straight from the database.
 */
export function createAdminCommands(db: Db) {
  return {
    async createOrganization(name: string) {
      const org = await db.transaction((tx) => createOrganization(tx, name));
      return {
        organization_id: org.organizationId,
        name,
        default_namespace_id: org.defaultNamespaceId,
        owner_user_id: org.ownerUserId,
        api_key: {
          id: org.apiKey.id,
          key: org.key,
          key_prefix: org.apiKey.key_prefix,
          permissions: org.apiKey.permissions,
        },
      };
    },

    async listOrganizations() {
      return (await listOrganizations(db)).map((o) => ({
        organization_id: o.id,
        name: o.name,
        namespaces: o.namespaces,
        active_keys: o.active_keys,
        dedupe: o.dedupe ?? ('default' as const),
        supersede: o.supersede ?? ('default' as const),
        created_at: iso(o.created_at)!,
      }));
    },
    /**
     * The organization's defaults for keeping memories true ("default": the deployment's); throws
     * 404 when there is no such organization.
     */
    async setTruth(organizationId: string, patch: OrganizationTruthBody) {
      const org = await setOrganizationTruth(db, organizationId, {
        ...(patch.dedupe ? { dedupe: stored(patch.dedupe) } : {}),
        ...(patch.supersede ? { supersede: stored(patch.supersede) } : {}),
      });
      if (!org) throw notFound(`Organization ${organizationId}`);
      return {
        organization_id: org.id,
        name: org.name,
        dedupe: org.dedupe ?? ('default' as const),
        supersede: org.supersede ?? ('default' as const),
      };
    },

    /** Throws 404 unless an active key has this id. */
    async revokeKey(keyId: string) {
      const revoked = await apiKeyStore.revokeById(db, keyId);
      if (!revoked) throw notFound(`Active API key ${keyId}`);
      return { key_id: keyId, organization_id: revoked.organization_id, namespace_id: revoked.namespace_id };
    },
  };
}

/**
 * The operator API (`/admin/...`): the admin commands, guarded by ADMIN_API_KEY alone (sent as
 * `X-Admin-Key` or `Authorization: Bearer`). Tenant credentials never open it.
 */
export function createAdminService(db: Db, adminKey: string) {
  const expected = digest(adminKey);
  return {
    /** Throws 401 unless the headers carry the operator credential (constant-time compare). */
    authenticate(headers: Headers): void {
      const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v)?.trim();
      const bearer = /^Bearer\s+(\S+)$/i.exec(first(headers.authorization) ?? '')?.[1];
      const given = first(headers['x-admin-key']) || bearer;
      if (!given || !timingSafeEqual(digest(given), expected))
        throw unauthorized('The admin API needs the operator credential (X-Admin-Key)');
    },
    ...createAdminCommands(db),
  };
}

export type AdminService = ReturnType<typeof createAdminService>;
