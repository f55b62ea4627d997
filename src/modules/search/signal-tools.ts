/**
 * What the first stage's signals share (first-stage.ts): adding a bonus on the 0–1 fused scale,
 * and remembering which scopes lack what a signal looks up so their searches skip the lookup.
 * Used by the speaker, time and question signals alike.
 */

/**
 * Scores with `weight` added to the matched candidates' (scores are 0–1 rescaled fused scores); a
 * negative weight lowers them (a memory that only asks: asks-signal.ts). A new map; 0 changes nothing.
 */
export function withBonus(scores: Map<string, number>, matched: Set<string>, weight: number) {
  if (weight === 0 || matched.size === 0) return scores;
  const out = new Map(scores);
  for (const id of matched) if (out.has(id)) out.set(id, out.get(id)! + weight);
  return out;
}

/**
 * Scopes whose candidates lacked something when last looked up — a speaker label
 * (speaker-signal.ts), a memory ending with a question mark (asks-signal.ts): their searches skip
 * that lookup for `ttlMs` (most memory stores have neither, and a lookup is a statement on every
 * search: ~1 ms at 10k memories). A scope that gains them is seen again after that long.
 */
export function absenceHints(ttlMs = 10 * 60_000, max = 10_000) {
  const without = new Map<string, number>(); // scope key → skip until (ms)
  return {
    /** Whether the scope's candidates lacked it a moment ago. */
    skip(key: string, now = Date.now()): boolean {
      const until = without.get(key);
      if (until !== undefined && until > now) return true;
      without.delete(key);
      return false;
    },
    /** What a lookup found. */
    saw(key: string, found: boolean, now = Date.now()): void {
      without.delete(key);
      if (found) return;
      without.set(key, now + ttlMs);
      if (without.size > max) without.delete(without.keys().next().value!);
    },
  };
}
export type AbsenceHints = ReturnType<typeof absenceHints>;
