import { AppError, unprocessable } from './errors.ts';

/** What a credential may do. Organization keys carry all three. */
export type Permission = 'read' | 'write' | 'delete';
export const ALL_PERMISSIONS: readonly Permission[] = ['read', 'write', 'delete'];

/** How the caller authenticated; several credentials may combine (key + end-user token). */
export type AuthMethod = 'api_key' | 'session' | 'bearer';

/**
 * The resolved caller of a request. Every service call takes one; every store query
 * filters by `organizationId` (tenancy is structural, ARCHITECTURE.md §5).
 */
export interface Actor {
  organizationId: string;
  /** Set for namespace-scoped keys: the key acts only inside this namespace. */
  namespaceId: string | null;
  permissions: ReadonlySet<Permission>;
  /** Internal id of the acting user: the end user named by a token, else the key's owner. */
  userId: string;
  apiKeyId: string | null;
  sessionId: string | null;
  methods: AuthMethod[];
}

/**
 * The service acting for `userId` in background work it does on their behalf (a message or a
 * document made into memories): organization-wide (the namespace is named on each memory) and
 * not an end user's token.
 */
export function ownerActor(organizationId: string, userId: string): Actor {
  return {
    organizationId,
    namespaceId: null,
    permissions: new Set(ALL_PERMISSIONS),
    userId,
    apiKeyId: null,
    sessionId: null,
    methods: ['api_key'],
  };
}

/**
 * Whether `actor` may see a record one user owns in one namespace (a chat session, an upload):
 * an end user's token only their own, a namespace key only its namespace's, an organization key all.
 */
export function mayAccessOwned(actor: Actor, row: { user_id: string; namespace_id: string | null }): boolean {
  return (
    (!isEndUser(actor) || row.user_id === actor.userId) &&
    (!actor.namespaceId || row.namespace_id === actor.namespaceId)
  );
}

/** 403 unless the credential carries `permission` (namespace keys may hold a subset). */
export function requirePermission(actor: Actor, permission: Permission): void {
  if (!actor.permissions.has(permission)) {
    throw new AppError(403, `This credential lacks the "${permission}" permission`, { required: permission });
  }
}

/**
 * An end user acting through their own token alone (session or Bearer, no API key). Such a
 * caller acts as themselves everywhere; naming another user, minting keys and administering
 * namespaces belong to the application's API key (issue #17, docs/tenancy.md).
 */
export function isEndUser(actor: Actor): boolean {
  return !actor.methods.includes('api_key');
}

/** 403 for an end user's own token: `what` needs the application's API key. */
export function requireApiKey(actor: Actor, what: string): void {
  if (isEndUser(actor)) {
    throw new AppError(403, `An end-user token cannot ${what}; use the application's API key`, {
      credential: actor.methods.join(' + '),
    });
  }
}

/**
 * 422 when a (deprecated) body field `organization_id` names another organization than the
 * credential's: the organization always comes from the credential. One answer for every
 * route that takes the field (add, batch, search).
 */
export function requireOwnOrganization(actor: Actor, organizationId: string | null | undefined): void {
  if (organizationId && organizationId !== actor.organizationId) {
    throw unprocessable('organization_id is taken from the API key and must not name another organization', {
      fields: ['organization_id'],
    });
  }
}
