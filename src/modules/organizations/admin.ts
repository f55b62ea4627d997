import type { Db } from '../../platform/db/index.ts';
import { AppError } from '../../shared/errors.ts';
import { createAdminCommands } from './admin.service.ts';

const ADMIN_USAGE = `Usage: npm run admin -- <command>
  org create <name>    create an organization (default namespace, owner user, organization key shown once)
  org list             list organizations with namespace and active key counts
  key revoke <key_id>  revoke an API key of any organization (effective on its next request)`;

/**
 * `npm run admin` (scripts/admin.ts): the admin API's commands (admin.service.ts) run straight
 * on the database, for an operator without the server or ADMIN_API_KEY, and printed as text.
 * Returns the process exit code (0, 1 for an unknown key, 2 for bad usage); output goes
 * through `print` so tests can read it.
 */
export async function runAdmin(db: Db, args: string[], print: (line: string) => void): Promise<number> {
  const admin = createAdminCommands(db);
  const [area, command, ...rest] = args;
  if (area === 'org' && command === 'create' && rest.length) {
    const org = await admin.createOrganization(rest.join(' ').trim());
    print(`organization_id:       ${org.organization_id}`);
    print(`default namespace_id:  ${org.default_namespace_id}`);
    print(`api key id:            ${org.api_key.id}`);
    print(`api key (shown once):  ${org.api_key.key}`);
    return 0;
  }
  if (area === 'org' && command === 'list' && !rest.length) {
    print(['id', 'name', 'namespaces', 'active_keys', 'created_at'].join('\t'));
    for (const o of await admin.listOrganizations())
      print([o.organization_id, o.name, o.namespaces, o.active_keys, o.created_at].join('\t'));
    return 0;
  }
  if (area === 'key' && command === 'revoke' && rest.length === 1) {
    let revoked;
    try {
      revoked = await admin.revokeKey(rest[0]);
    } catch (err) {
      if (!(err instanceof AppError && err.code === 404)) throw err;
      print(`No active API key with id ${rest[0]}`);
      return 1;
    }
    const namespace = revoked.namespace_id ? `, namespace ${revoked.namespace_id}` : '';
    print(`Revoked API key ${rest[0]} (organization ${revoked.organization_id}${namespace})`);
    return 0;
  }
  print(ADMIN_USAGE);
  return 2;
}
