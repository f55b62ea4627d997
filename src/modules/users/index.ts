/**
 * Users: the end users of an organization (client `user.*`, spec DELETE /v1/user).
 *
 * Two parts: `userDirectory`, the identities every other module resolves (stateless; each
 * call takes the connection or transaction it runs in), and `createUsersModule`, the user
 * endpoints, built after the modules whose data a user deletion removes (`content`).
 */
import type { Db } from '../../platform/db/index.ts';
import type { NamespaceAccess } from '../namespaces/index.ts';
import { usersRoutes } from './users.routes.ts';
import { createUsersService, type UserContent } from './users.service.ts';
import { findUserByExternalId, getUser, insertUser, resolveExternalUser, resolveExternalUsers } from './users.store.ts';

/** Identity lookups and first-sight creation of external users. */
export const userDirectory = {
  get: getUser,
  findByExternalId: findUserByExternalId,
  /** The user of an external id, created on first sight. */
  resolveExternal: resolveExternalUser,
  /** Many external ids at once, created on first sight in sorted order (no deadlocks). */
  resolveExternalMany: resolveExternalUsers,
  insert: insertUser,
};
export type UserDirectory = typeof userDirectory;

export interface UsersModuleDeps {
  db: Db;
  namespaces: Pick<NamespaceAccess, 'resolveWriteNamespace'>;
  /** Removes a user's memories (and what hangs off them) when the user is deleted. */
  content: UserContent;
}

export function createUsersModule(deps: UsersModuleDeps) {
  const service = createUsersService(deps);
  return { service, routes: usersRoutes(service) };
}

export type { UserRow, NewUser } from './users.store.ts';
export { requireSelf, type UserSelector } from './self.ts';
export type { UserContent } from './users.service.ts';
