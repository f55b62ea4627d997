/** The name subjects of owners' claims, for facts.owner.ts's rule (one statement for many owners). */
import type { Queryable } from '../../platform/db/index.ts';
import { queryTerms } from '../../platform/text-analyzer.ts';
import { NAME_SUBJECT, ownerName, sameSubjects, type NameSubject } from './facts.owner.ts';

/** Owner id → the name their memories call them by, or null. */
export async function ownerNames(
  db: Queryable,
  organizationId: string,
  userIds: string[],
): Promise<Map<string, string | null>> {
  const users = [...new Set(userIds)];
  const out = new Map<string, string | null>(users.map((u) => [u, null]));
  if (!users.length) return out;
  // Single words only (no "my sister", no "ana silva"): [[:alpha:]] is the locale's letters.
  const rows = await db.query<{ user_id: string; name: string; memories: number; as_value: boolean }>(
    `SELECT f.user_id, f.subject AS name, count(DISTINCT f.memory_id)::int AS memories,
       EXISTS (SELECT 1 FROM memory_facts v
               WHERE v.organization_id = $1 AND v.user_id = f.user_id AND v.value = f.subject) AS as_value
     FROM memory_facts f
     WHERE f.organization_id = $1 AND f.user_id = ANY($2::text[])
       AND f.subject <> 'self' AND f.subject ~ '^[[:alpha:]][[:alpha:]''-]*$'
     GROUP BY f.user_id, f.subject`,
    [organizationId, users],
  );
  const byUser = new Map<string, NameSubject[]>();
  for (const r of rows)
    (byUser.get(r.user_id) ?? byUser.set(r.user_id, []).get(r.user_id)!).push({
      name: r.name,
      memories: Number(r.memories),
      asValue: r.as_value,
    });
  for (const [user, subjects] of byUser) out.set(user, ownerName(subjects));
  return out;
}

/**
 * The subjects a question about `subject` covers for this owner (facts.owner.ts): the owner under
 * their name and as `self`, and a name their memories never contain (its words have no posting
 * in the owner's index) as the owner.
 */
export async function subjectsFor(
  db: Queryable,
  q: { organizationId: string; userId: string; subject: string },
): Promise<string[]> {
  if (q.subject !== 'self' && !NAME_SUBJECT.test(q.subject)) return [q.subject];
  const owner = (await ownerNames(db, q.organizationId, [q.userId])).get(q.userId) ?? null;
  if (owner || q.subject === 'self') return sameSubjects(q.subject, owner);
  const terms = queryTerms(q.subject);
  const known = terms.length
    ? await db.query(
        `SELECT 1 FROM memory_chunk_terms
         WHERE organization_id = $1 AND user_id = $2 AND lexeme = ANY($3::text[]) LIMIT 1`,
        [q.organizationId, q.userId, terms],
      )
    : [];
  return sameSubjects(q.subject, null, known.length === 0);
}
