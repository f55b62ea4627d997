/** The name subjects of owners' claims, for facts.owner.ts's rule (one statement for many owners). */
import type { Queryable } from '../../platform/db/index.ts';
import { queryTerms } from '../../platform/text-analyzer.ts';
import { OTHERS } from './facts.subject.ts';
import { mayBeOwner, NAME_SUBJECT, ownerName, sameSubjects, type NameSubject } from './facts.owner.ts';

/** The kin and others "my …" introduces ("my colleague Ines"), as a regular expression's alternatives. */
const RELATIONS = OTHERS.source.replace(/^\^\(\?:/, '').replace(/\)\$$/, '');

/**
 * Owner id → the single-word name subjects of their claims; `asValue`: someone else — a claim's
 * value (a partner), or introduced as kin or another person in a memory stating something of
 * them ("my colleague Ines went vegan").
 */
export async function nameSubjects(
  db: Queryable,
  organizationId: string,
  userIds: string[],
): Promise<Map<string, NameSubject[]>> {
  const users = [...new Set(userIds)];
  const out = new Map<string, NameSubject[]>(users.map((u) => [u, []]));
  if (!users.length) return out;
  // Single words only (no "my sister", no "ana silva"): [[:alpha:]] is the locale's letters.
  const rows = await db.query<{ user_id: string; name: string; memories: number; as_value: boolean }>(
    `SELECT f.user_id, f.subject AS name, count(DISTINCT f.memory_id)::int AS memories,
       EXISTS (SELECT 1 FROM memory_facts v
               WHERE v.organization_id = $1 AND v.user_id = f.user_id AND v.value = f.subject)
       OR EXISTS (SELECT 1 FROM memory_facts g JOIN memories m ON m.id = g.memory_id
                  WHERE g.organization_id = $1 AND g.user_id = f.user_id AND g.subject = f.subject
                    AND m.content ~* ('\\m(?:my|our)\\s+(?:\\w+\\s+)?(?:' || $3 || ')\\s+'
                                      || f.subject || '\\M')) AS as_value
     FROM memory_facts f
     WHERE f.organization_id = $1 AND f.user_id = ANY($2::text[])
       AND f.subject <> 'self' AND f.subject ~ '^[[:alpha:]][[:alpha:]''-]*$'
     GROUP BY f.user_id, f.subject`,
    [organizationId, users, RELATIONS],
  );
  for (const r of rows) out.get(r.user_id)?.push({ name: r.name, memories: Number(r.memories), asValue: r.as_value });
  return out;
}

/** Owner id → the name their memories call them by, or null. */
export async function ownerNames(
  db: Queryable,
  organizationId: string,
  userIds: string[],
): Promise<Map<string, string | null>> {
  const subjects = await nameSubjects(db, organizationId, userIds);
  return new Map([...subjects].map(([user, names]) => [user, ownerName(names)]));
}

/**
 * The subjects a question about `subject` covers for this owner (facts.owner.ts): the owner under
 * their name and as `self`, and a name their memories never contain (its words have no posting
 * in the owner's index) as the owner. `fallback`: the subjects to answer with when those state
 * nothing of the attribute asked (a name that may be the owner's: `mayBeOwner`).
 */
export async function subjectsFor(
  db: Queryable,
  q: { organizationId: string; userId: string; subject: string },
): Promise<{ subjects: string[]; fallback: string[] | null }> {
  if (q.subject !== 'self' && !NAME_SUBJECT.test(q.subject)) return { subjects: [q.subject], fallback: null };
  const names = (await nameSubjects(db, q.organizationId, [q.userId])).get(q.userId) ?? [];
  const owner = ownerName(names);
  if (owner || q.subject === 'self') return { subjects: sameSubjects(q.subject, owner), fallback: null };
  if (mayBeOwner(q.subject, names)) return { subjects: [q.subject], fallback: ['self', q.subject] };
  const terms = queryTerms(q.subject);
  const known = terms.length
    ? await db.query(
        `SELECT 1 FROM memory_chunk_terms
         WHERE organization_id = $1 AND user_id = $2 AND lexeme = ANY($3::text[]) LIMIT 1`,
        [q.organizationId, q.userId, terms],
      )
    : [];
  return { subjects: sameSubjects(q.subject, null, known.length === 0), fallback: null };
}
