import type { Queryable } from '../../platform/db/index.ts';

/** True when the namespace exists in the organization. */
export async function namespaceExists(db: Queryable, organizationId: string, id: string): Promise<boolean> {
  const rows = await db.query('SELECT 1 FROM namespaces WHERE organization_id = $1 AND id = $2', [organizationId, id]);
  return rows.length > 0;
}
