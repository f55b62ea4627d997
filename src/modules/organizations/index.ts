/**
 * Organizations: the first-start bootstrap, and the operator commands (create and list
 * organizations, revoke any key) behind the admin API and `npm run admin` (docs/tenancy.md).
 */
import type { Db } from '../../platform/db/index.ts';
import { adminRoutes } from './admin.routes.ts';
import { createAdminService } from './admin.service.ts';
import { firstOrganization, organizationTruth } from './organizations.store.ts';

/** The admin API, mounted only with an operator credential (`ADMIN_API_KEY`). */
export function createOrganizationsModule(deps: { db: Db; adminKey?: string }) {
  const admin = deps.adminKey ? createAdminService(deps.db, deps.adminKey) : null;
  return { admin, routes: admin ? adminRoutes(admin) : null };
}

/** The first (bootstrap) organization: where OAuth logins land when nothing else names one. */
export { firstOrganization };
/** An organization's own defaults for keeping memories true (the memories module's writes read them). */
export { organizationTruth };
export type { OrganizationTruth } from './organizations.store.ts';
export { bootstrap, BOOTSTRAP_KEY_FILE } from './bootstrap.ts';
