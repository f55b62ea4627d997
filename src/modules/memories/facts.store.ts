/** The facts memories state (facts.ts), stored so that a later memory is compared in one lookup (truth.detect.ts). */
import type { Queryable } from '../../platform/db/index.ts';
import type { Fact } from './facts.ts';
import type { Owner } from './truth.store.ts';

/** A memory's facts with its owner and time (the time its facts became true). */
export interface OwnedFacts extends Owner {
  memoryId: string;
  at: Date;
  facts: Fact[];
}

export async function insertFacts(tx: Queryable, organizationId: string, items: OwnedFacts[]): Promise<void> {
  const rows = items.flatMap((i) => i.facts.map((f) => ({ i, f })));
  if (!rows.length) return;
  const col = <T>(g: (r: (typeof rows)[number]) => T) => rows.map(g);
  await tx.query(
    `INSERT INTO memory_facts
       (memory_id, organization_id, user_id, namespace_id, subject, slot, value, negated, at, loose)
     SELECT x.memory_id, $1, x.usr, x.ns, x.subject, x.slot, x.value, x.negated, x.at, x.loose
     FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::boolean[],
                 $9::timestamptz[], $10::boolean[]) AS x(memory_id, usr, ns, subject, slot, value, negated, at, loose)
     ON CONFLICT DO NOTHING`,
    [
      organizationId,
      col((r) => r.i.memoryId),
      col((r) => r.i.userId),
      col((r) => r.i.namespaceId),
      col((r) => r.f.subject),
      col((r) => r.f.slot),
      col((r) => r.f.value),
      col((r) => r.f.negated),
      col((r) => r.i.at.toISOString()),
      col((r) => !!r.f.loose),
    ],
  );
}

export async function deleteFacts(tx: Queryable, memoryId: string): Promise<void> {
  await tx.query('DELETE FROM memory_facts WHERE memory_id = $1', [memoryId]);
}

/** A stored fact of another memory, to compare with a new one. */
export interface StoredFact extends Fact, Owner {
  memoryId: string;
  at: Date;
}

/**
 * The facts of the owners' other memories that share a subject and a slot with `facts` (or a
 * value, for facts of any slot `*`). Loose statements are never compared: they retire nothing
 * and nothing retires them (truth.ts).
 */
export async function relatedFacts(tx: Queryable, organizationId: string, items: OwnedFacts[]): Promise<StoredFact[]> {
  const keys = items.flatMap((i) => i.facts.map((f) => ({ i, f })));
  if (!keys.length) return [];
  const rows = await tx.query<{
    memory_id: string;
    user_id: string;
    namespace_id: string | null;
    subject: string;
    slot: string;
    value: string;
    negated: boolean;
    at: Date;
  }>(
    `SELECT DISTINCT f.memory_id, f.user_id, f.namespace_id, f.subject, f.slot, f.value, f.negated, f.at
     FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[]) AS k(usr, ns, subject, slot, value)
     JOIN memory_facts f ON f.organization_id = $1 AND f.user_id = k.usr AND f.subject = k.subject
       AND (CASE WHEN k.slot = '*' THEN f.value = k.value ELSE f.slot = k.slot END)
     WHERE f.namespace_id IS NOT DISTINCT FROM k.ns AND NOT f.loose`,
    [
      organizationId,
      keys.map((k) => k.i.userId),
      keys.map((k) => k.i.namespaceId),
      keys.map((k) => k.f.subject),
      keys.map((k) => k.f.slot),
      keys.map((k) => k.f.value),
    ],
  );
  return rows.map((r) => ({
    memoryId: r.memory_id,
    userId: r.user_id,
    namespaceId: r.namespace_id,
    subject: r.subject,
    slot: r.slot,
    value: r.value,
    negated: r.negated,
    at: new Date(r.at),
  }));
}

/** All facts of some memories (to tell whether a newer memory contradicts every one of them). */
export async function factsOf(tx: Queryable, memoryIds: string[]): Promise<Map<string, Fact[]>> {
  const out = new Map<string, Fact[]>();
  if (!memoryIds.length) return out;
  const rows = await tx.query<Fact & { memory_id: string }>(
    'SELECT memory_id, subject, slot, value, negated FROM memory_facts WHERE memory_id = ANY($1::text[]) AND NOT loose',
    [memoryIds],
  );
  for (const r of rows) {
    const list = out.get(r.memory_id) ?? [];
    list.push({ subject: r.subject, slot: r.slot, value: r.value, negated: r.negated });
    out.set(r.memory_id, list);
  }
  return out;
}
