/** One retriever's ranked list: memory id → raw score (higher is better). */
export type Ranked = Map<string, number>;

export interface FusionWeights {
  bm25: number;
  dense: number;
  dense2: number;
  /** The agentic-graph signal (only when a search asks for it). */
  graph?: number;
}

/**
 * Weighted fusion of min-max normalised scores. Measured on the dev sets (ARCHITECTURE.md
 * §7): plain reciprocal rank fusion lets a weak dense list drag BM25 down (−0.24 nDCG on
 * SciFact), while BM25-dominant score fusion improves on every single signal.
 * A list with one entry (or all-equal scores) normalises to 1 for its members.
 */
export function fuse(
  lists: { scores: Ranked; weight: number; norm?: 'minmax' | 'max' }[],
): { id: string; score: number; parts: number[] }[] {
  const total = new Map<string, { score: number; parts: number[] }>();
  lists.forEach(({ scores, weight, norm }, li) => {
    if (!scores.size || weight <= 0) return;
    const values = [...scores.values()];
    // `max`: scores that are already on a 0-based scale (the graph signal): a weak member keeps
    // its share instead of dropping to 0 as the list's minimum.
    const min = norm === 'max' ? 0 : Math.min(...values);
    const span = Math.max(...values) - min;
    for (const [id, raw] of scores) {
      const norm = span > 0 ? (raw - min) / span : 1;
      const entry = total.get(id) ?? { score: 0, parts: lists.map(() => 0) };
      entry.score += weight * norm;
      entry.parts[li] = norm;
      total.set(id, entry);
    }
  });
  return [...total.entries()]
    .map(([id, v]) => ({ id, ...v }))
    .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1));
}
