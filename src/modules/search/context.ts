/**
 * Conversation context: a turn borrows part of its best neighbour's score, so the reply
 * next to a matching question (or the question before a matching answer) surfaces too.
 * final(d) = fused(d) + max over the anchors beside d of weight^hops · fused(anchor), where hops
 * is 1 for the turn next to the anchor and, with `hops: 2`, 2 for the one beyond it (a reply to a
 * reply: the loan decays once more by the same share, no constant of its own).
 */
export function withNeighbourContext(
  fused: Map<string, number>,
  neighbours: {
    id: string;
    prev_id: string | null;
    next_id: string | null;
    prev2_id?: string | null;
    next2_id?: string | null;
  }[],
  weight: number,
  hops: 1 | 2 = 1,
): Map<string, number> {
  const out = new Map(fused);
  if (weight <= 0) return out;
  const lend = (n: string | null | undefined, loan: number) => {
    if (!n) return;
    const base = fused.get(n) ?? 0;
    out.set(n, Math.max(out.get(n) ?? 0, base + loan));
  };
  for (const { id, prev_id, next_id, prev2_id, next2_id } of neighbours) {
    const anchor = fused.get(id) ?? 0;
    // The candidate lends to each neighbour; take the best loan each document receives.
    lend(prev_id, weight * anchor);
    lend(next_id, weight * anchor);
    if (hops === 2) {
      lend(prev2_id, weight * weight * anchor);
      lend(next2_id, weight * weight * anchor);
    }
  }
  return out;
}
