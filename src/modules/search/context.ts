/**
 * Conversation context: a turn borrows part of its best neighbour's score, so the reply
 * next to a matching question (or the question before a matching answer) surfaces too.
 * final(d) = fused(d) + weight · max(fused(prev d), fused(next d)).
 */
export function withNeighbourContext(
  fused: Map<string, number>,
  neighbours: { id: string; prev_id: string | null; next_id: string | null }[],
  weight: number,
): Map<string, number> {
  const out = new Map(fused);
  if (weight <= 0) return out;
  for (const { id, prev_id, next_id } of neighbours) {
    const anchor = fused.get(id) ?? 0;
    // The candidate lends to each neighbour; take the best loan each document receives.
    for (const n of [prev_id, next_id]) {
      if (!n) continue;
      const loan = weight * anchor;
      const base = fused.get(n) ?? 0;
      out.set(n, Math.max(out.get(n) ?? 0, base + loan));
    }
  }
  return out;
}
