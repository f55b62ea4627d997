/**
 * Supersession detected from claims (docs/truth.md, "Supersession"): a new memory against the
 * owner's older memories that state the same subject and attribute, in the write's transaction.
 */
import type { Queryable } from '../../platform/db/index.ts';
import { contradicts } from './facts.claims.ts';
import { ownSubject, sameSubjects } from './facts.owner.ts';
import type { Fact } from './facts.ts';
import { ownerNames } from './owner.store.ts';
import { factsOf, relatedFacts, type OwnedFacts } from './facts.store.ts';
import type { Link } from './truth.store.ts';

/**
 * Does a memory stating `newer` retire one stating `older`? When every value the older one holds
 * is contradicted (its negations hold none: "I left Madrid and moved to Vienna" is retired by "I
 * live in Munich"), and something of it is.
 */
export function retires(newer: Fact[], older: Fact[]): boolean {
  const hit = (o: Fact) => newer.some((n) => contradicts(n, o));
  return older.filter((o) => !o.negated).every(hit) && older.some(hit);
}

/**
 * The supersessions between `auto` (this write's memories with claims, supersession on) and the
 * owners' other memories; `later(a, b)`: whether a was said after b.
 */
export async function detectedSupersessions(
  tx: Queryable,
  organizationId: string,
  auto: OwnedFacts[],
  later: (a: { id: string; at: Date }, b: { id: string; at: Date }) => boolean,
): Promise<Link[]> {
  const links: Link[] = [];
  // The name the owner's memories call them by is the owner too (facts.owner.ts): "Maya
  // lives in Porto" and "I moved to Lyon" speak of one person.
  const ownerNameOf = auto.length
    ? await ownerNames(
        tx,
        organizationId,
        auto.map((a) => a.userId),
      )
    : new Map<string, string | null>();
  const own = (userId: string, facts: Fact[]) =>
    facts.map((f) => ({ ...f, subject: ownSubject(f.subject, ownerNameOf.get(userId) ?? null) }));
  const related = await relatedFacts(
    tx,
    organizationId,
    auto.map((a) => ({
      ...a,
      facts: a.facts.flatMap((f) =>
        sameSubjects(f.subject, ownerNameOf.get(a.userId) ?? null).map((subject) => ({ ...f, subject })),
      ),
    })),
  );
  const allFacts = await factsOf(tx, [...new Set(related.map((f) => f.memoryId))]);
  for (const a of auto) {
    const mine = { ...a, facts: own(a.userId, a.facts) };
    const me = { id: mine.memoryId, at: mine.at };
    const others = new Map<string, { at: Date; facts: Fact[] }>();
    for (const f of related) {
      if (f.memoryId === mine.memoryId || f.userId !== mine.userId || f.namespaceId !== mine.namespaceId) continue;
      const subject = ownSubject(f.subject, ownerNameOf.get(f.userId) ?? null);
      if (
        !mine.facts.some((n) => n.subject === subject && (n.slot === f.slot || (n.slot === '*' && n.value === f.value)))
      )
        continue;
      others.set(f.memoryId, { at: f.at, facts: own(f.userId, allFacts.get(f.memoryId) ?? []) });
    }
    for (const [id, other] of others) {
      const them = { id, at: other.at };
      const [newer, older] = later(me, them) ? [mine.facts, other.facts] : [other.facts, mine.facts];
      // The older memory is retired only when the newer one contradicts every fact it states.
      if (!retires(newer, older)) continue;
      const [newId, oldId, at] = later(me, them) ? [me.id, id, me.at] : [id, me.id, other.at];
      const slot = newer.find((n) => older.some((o) => contradicts(n, o)))!.slot;
      links.push({ memoryId: newId, priorId: oldId, kind: 'supersedes', validTo: at, reason: `fact:${slot}` });
    }
  }
  return links;
}
