import type { Queryable } from '../../platform/db/index.ts';
import type { Actor } from '../../shared/actor.ts';
import { AppError } from '../../shared/errors.ts';
import { namespaceActive } from './namespaces.store.ts';

/**
 * The namespace a write lands in. A namespace key forces its own namespace; a namespace
 * named explicitly must exist in the caller's organization and be active. Either way the
 * namespace is looked up (and, in a transaction, locked: see namespaceActive), so a write
 * racing the namespace's deletion is a 404 rather than a foreign-key failure.
 */
export async function resolveWriteNamespace(db: Queryable, actor: Actor, namespaceId?: string): Promise<string | null> {
  if (actor.namespaceId && namespaceId && namespaceId !== actor.namespaceId) {
    throw new AppError(403, 'This API key is limited to its namespace', { namespace_id: actor.namespaceId });
  }
  const id = actor.namespaceId || namespaceId;
  if (!id) return null;
  const active = await namespaceActive(db, actor.organizationId, id);
  if (active === undefined) throw new AppError(404, `Namespace ${id} not found`);
  // A deactivated namespace keeps its memories readable but takes no new ones.
  if (!active)
    throw new AppError(403, `Namespace ${id} is deactivated (is_active: false)`, {
      namespace_id: id,
    });
  return id;
}
