/**
 * Which dedupe and supersede modes a write runs with (docs/truth.md): the write's own, else its
 * organization's (`PATCH /admin/organizations/{id}`), else the deployment's (MEMORY_DEDUPE,
 * MEMORY_SUPERSEDE).
 */
import type { Queryable } from '../../platform/db/index.ts';
import type { DedupeMode, SupersedeMode, TruthDefaults, TruthRequest } from './truth.ts';

/**
 * An organization's own defaults (organizations module, `PATCH /admin/organizations/{id}`), null
 * fields and a missing organization meaning the deployment's.
 */
export type OrganizationDefaults = (
  db: Queryable,
  organizationId: string,
) => Promise<{ dedupe: DedupeMode | null; supersede: SupersedeMode | null } | null>;

/** The modes of a write: its own, else its organization's, else the deployment's. */
export async function writeModes(
  db: Queryable,
  organizationId: string,
  defaults: TruthDefaults,
  organization: OrganizationDefaults | null,
) {
  const org = organization ? await organization(db, organizationId) : null;
  return (t: Pick<TruthRequest, 'dedupe' | 'supersede'>): TruthDefaults => ({
    dedupe: t.dedupe ?? org?.dedupe ?? defaults.dedupe,
    supersede: t.supersede ?? org?.supersede ?? defaults.supersede,
  });
}

/**
 * `writeModes` read once per transaction and organization: a write asks for its duplicates and
 * then settles in the same one. Only for transactions (a fresh object each): a long-lived `Db`
 * would keep the first answer for ever.
 */
export function modesPerTransaction(defaults: TruthDefaults, organization: OrganizationDefaults | null) {
  const byTx = new WeakMap<Queryable, Map<string, ReturnType<typeof writeModes>>>();
  return (tx: Queryable, organizationId: string) => {
    const byOrg = byTx.get(tx) ?? new Map<string, ReturnType<typeof writeModes>>();
    byTx.set(tx, byOrg);
    if (!byOrg.has(organizationId)) byOrg.set(organizationId, writeModes(tx, organizationId, defaults, organization));
    return byOrg.get(organizationId)!;
  };
}
