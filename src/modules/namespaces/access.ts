import type { Queryable } from '../../platform/db/index.ts';
import type { Actor } from '../../shared/actor.ts';
import { AppError } from '../../shared/errors.ts';
import { namespaceActive } from './namespaces.store.ts';

/**
 * The namespace a write lands in. A namespace key forces its own namespace; a namespace
 * named explicitly must exist in the caller's organization and be active.
 */
export async function resolveWriteNamespace(db: Queryable, actor: Actor, namespaceId?: string): Promise<string | null> {
  if (actor.namespaceId) {
    if (namespaceId && namespaceId !== actor.namespaceId) {
      throw new AppError(403, 'This API key is limited to its namespace', { namespace_id: actor.namespaceId });
    }
    return actor.namespaceId;
  }
  if (!namespaceId) return null;
  const active = await namespaceActive(db, actor.organizationId, namespaceId);
  if (active === undefined) throw new AppError(404, `Namespace ${namespaceId} not found`);
  // A deactivated namespace keeps its memories readable but takes no new ones.
  if (!active)
    throw new AppError(403, `Namespace ${namespaceId} is deactivated (is_active: false)`, {
      namespace_id: namespaceId,
    });
  return namespaceId;
}
