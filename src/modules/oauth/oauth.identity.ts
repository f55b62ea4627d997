import type { Queryable } from '../../platform/db/index.ts';
import { forbidden } from '../../shared/errors.ts';
import type { UserDirectory } from '../users/index.ts';
import {
  findOrganizationByIdOrName,
  linkIdentity,
  lockIdentityKey,
  lockIdentityUser,
  touchIdentity,
  updateUserProfile,
  type Profile,
} from './oauth.store.ts';
import type { OAuthSettings } from './oauth.settings.ts';

const str = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : null);

/**
 * The profile fields Engram keeps on the user row, from standard OIDC claims. Entra ID
 * often omits `email`; its `preferred_username` (or `upn`) is then the address.
 */
export function profileFromClaims(c: Record<string, unknown>): Profile {
  const joined = [str(c.given_name), str(c.family_name)].filter(Boolean).join(' ');
  const username = str(c.preferred_username) ?? str(c.upn);
  return {
    email: str(c.email) ?? (username?.includes('@') ? username : null),
    displayName: str(c.name) ?? (joined || null) ?? username ?? str(c.nickname),
    imageUrl: str(c.picture),
  };
}

/** The organization claim's candidate values: a string, or the strings of an array (groups). */
function claimValues(claims: Record<string, unknown>, name: string): string[] {
  const v = claims[name];
  if (typeof v === 'string') return v.trim() ? [v.trim()] : [];
  if (Array.isArray(v))
    return v.filter((x): x is string => typeof x === 'string' && x.trim() !== '').map((x) => x.trim());
  return [];
}

/** The first (bootstrap) organization, the default home of logins when nothing else names one. */
export type FirstOrganization = (db: Queryable) => Promise<{ id: string } | undefined>;

/**
 * Which organization a person belongs to (docs/oauth.md):
 * 1. OAUTH_ORG_CLAIM present: the first value naming an organization (by id, else by unique
 *    name); values that name none refuse the login.
 * 2. Else OAUTH_DEFAULT_ORGANIZATION.
 * 3. Else, when no claim is configured, the first (bootstrap) organization.
 */
export async function resolveOrganization(
  firstOrganization: FirstOrganization,
  db: Queryable,
  settings: Pick<OAuthSettings, 'orgClaim' | 'defaultOrganization'>,
  claims: Record<string, unknown>,
): Promise<string> {
  if (settings.orgClaim) {
    const values = claimValues(claims, settings.orgClaim);
    for (const v of values) {
      const id = await findOrganizationByIdOrName(db, v);
      if (id) return id;
    }
    if (values.length) throw forbidden(`No organization matches the "${settings.orgClaim}" claim of this account`);
  }
  if (settings.defaultOrganization) {
    const id = await findOrganizationByIdOrName(db, settings.defaultOrganization);
    if (!id) throw forbidden('The default organization for OAuth logins (OAUTH_DEFAULT_ORGANIZATION) does not exist');
    return id;
  }
  if (settings.orgClaim) {
    throw forbidden(`This account carries no "${settings.orgClaim}" claim and no default organization is configured`);
  }
  const first = await firstOrganization(db);
  if (!first) throw forbidden('No organization exists yet');
  return first.id;
}

/**
 * The internal user of (organization, issuer, subject), created on first login, with the
 * profile refreshed from the provider on every login. Run inside the caller's transaction;
 * the user is locked until it commits (no deletion can take it from under the new session).
 * Concurrent first logins of one person take turns: the later one finds the earlier one's
 * user, so one person is one user and no unlinked user is left behind.
 */
export async function resolveLoginUser(
  users: Pick<UserDirectory, 'insert'>,
  tx: Queryable,
  p: { organizationId: string; issuer: string; subject: string; profile: Profile },
): Promise<string> {
  const { organizationId, issuer, subject } = p;
  let userId = await lockIdentityUser(tx, organizationId, issuer, subject);
  if (!userId) {
    // A first login (or the user went meanwhile): wait for any other first login of this
    // person, then look again.
    await lockIdentityKey(tx, organizationId, issuer, subject);
    userId = await lockIdentityUser(tx, organizationId, issuer, subject);
  }
  if (userId) {
    await touchIdentity(tx, organizationId, issuer, subject);
  } else {
    const user = await users.insert(tx, {
      organizationId,
      externalId: null,
      email: p.profile.email,
      displayName: p.profile.displayName,
    });
    userId = await linkIdentity(tx, { organizationId, issuer, subject, userId: user.id });
  }
  await updateUserProfile(tx, organizationId, userId, p.profile);
  return userId;
}
