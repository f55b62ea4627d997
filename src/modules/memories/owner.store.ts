/** The name subjects of owners' claims, for facts.owner.ts's rule (one statement for many owners). */
import type { Queryable } from '../../platform/db/index.ts';
import { queryTerms } from '../../platform/text-analyzer.ts';
import {
  introducedAsOther,
  mayBeOwner,
  NAME_SUBJECT,
  ownerName,
  sameSubjects,
  type NameSubject,
} from './facts.owner.ts';

/** How many of an owner's most stated names are checked for being introduced as someone else. */
const CHECKED_NAMES = 4;

/**
 * Owner id → the single-word name subjects of their claims; `asValue`: someone else — a claim's
 * value (a partner), or (checked for the CHECKED_NAMES most stated non-values, those the rule
 * picks from) introduced as kin or another person in a memory stating something of them ("my
 * colleague Ines went vegan"). One statement, one pass over the owner's claims (a search pays for
 * it): counts and values by hash join, and for the few candidates the texts that say "my"/"our",
 * which are read here rather than by a per-row regular expression in SQL (~40 µs a row there).
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
  const rows = await db.query<{
    user_id: string;
    name: string;
    memories: number;
    as_value: boolean;
    texts: string[] | null;
  }>(
    `WITH named AS (
       SELECT user_id, subject, count(DISTINCT memory_id)::int AS memories FROM memory_facts
       WHERE organization_id = $1 AND user_id = ANY($2::text[]) AND NOT loose
         AND subject <> 'self' AND subject ~ '^[[:alpha:]][[:alpha:]''-]*$'
       GROUP BY user_id, subject
     ), vals AS (
       SELECT DISTINCT user_id, value FROM memory_facts
       WHERE organization_id = $1 AND user_id = ANY($2::text[]) AND NOT loose AND value ~ '^[[:alpha:]][[:alpha:]''-]*$'
     ), ranked AS (
       SELECT n.user_id, n.subject, n.memories, v.value IS NOT NULL AS as_value,
              row_number() OVER (PARTITION BY n.user_id ORDER BY v.value IS NOT NULL, n.memories DESC, n.subject) AS rk
       FROM named n LEFT JOIN vals v ON v.user_id = n.user_id AND v.value = n.subject
     )
     SELECT r.user_id, r.subject AS name, r.memories, r.as_value,
       CASE WHEN r.rk <= $3 AND NOT r.as_value THEN ARRAY(
         SELECT m.content FROM memory_facts g JOIN memories m ON m.id = g.memory_id
         WHERE g.organization_id = $1 AND g.user_id = r.user_id AND g.subject = r.subject AND NOT g.loose
           AND (m.content ILIKE '%my %' OR m.content ILIKE '%our %')
         LIMIT 50) END AS texts
     FROM ranked r`,
    [organizationId, users, CHECKED_NAMES],
    // Planned in ~1.2 ms, run in ~0.1 ms (a search's fact answer, a write's supersession): planned once per connection.
    { prepared: true },
  );
  for (const r of rows) {
    const introduced = (r.texts ?? []).some((t) => introducedAsOther(t, r.name));
    out.get(r.user_id)?.push({ name: r.name, memories: Number(r.memories), asValue: r.as_value || introduced });
  }
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
