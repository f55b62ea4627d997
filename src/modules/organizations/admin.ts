import type { Db } from '../../platform/db/index.ts';
import { iso } from '../../shared/time.ts';
import { revokeApiKeyById } from '../api-keys/api-keys.store.ts';
import { listOrganizations } from './organizations.store.ts';
import { createOrganization } from './organizations.service.ts';

export const ADMIN_USAGE = `Usage: npm run admin -- <command>
  org create <name>    create an organization (default namespace, owner user, organization key shown once)
  org list             list organizations with namespace and active key counts
  key revoke <key_id>  revoke an API key of any organization (effective on its next request)`;

/**
 * The operator commands behind `npm run admin` (scripts/admin.ts). They work on the
 * database directly, outside tenancy, so they are a CLI, never an HTTP route. Returns the
 * process exit code; output goes through `print` so tests can read it.
 */
export async function runAdmin(db: Db, args: string[], print: (line: string) => void): Promise<number> {
  const [area, command, ...rest] = args;
  if (area === 'org' && command === 'create' && rest.length) {
    const name = rest.join(' ').trim();
    const org = await db.transaction((tx) => createOrganization(tx, name));
    print(`organization_id:       ${org.organizationId}`);
    print(`default namespace_id:  ${org.defaultNamespaceId}`);
    print(`api key id:            ${org.apiKey.id}`);
    print(`api key (shown once):  ${org.key}`);
    return 0;
  }
  if (area === 'org' && command === 'list' && !rest.length) {
    const orgs = await listOrganizations(db);
    print(['id', 'name', 'namespaces', 'active_keys', 'created_at'].join('\t'));
    for (const o of orgs) print([o.id, o.name, o.namespaces, o.active_keys, iso(o.created_at)].join('\t'));
    return 0;
  }
  if (area === 'key' && command === 'revoke' && rest.length === 1) {
    const revoked = await revokeApiKeyById(db, rest[0]);
    if (!revoked) {
      print(`No active API key with id ${rest[0]}`);
      return 1;
    }
    print(
      `Revoked API key ${rest[0]} (organization ${revoked.organization_id}${revoked.namespace_id ? `, namespace ${revoked.namespace_id}` : ''})`,
    );
    return 0;
  }
  print(ADMIN_USAGE);
  return 2;
}
