/** One retriever's ranked list: memory id → raw score (higher is better). */
export type Ranked = Map<string, number>;

/**
 * A retriever's answer: its list, and whether the list is complete — the retriever returned
 * fewer rows than it was asked for, so a memory missing from it did not match at all (BM25: no
 * query term), rather than fell below the cut.
 */
export interface Retrieved {
  scores: Ranked;
  complete: boolean;
}

/** How a candidate missing from a retriever's list scores: nothing when the list is complete, else its floor. */
export const absentOf = (r: Retrieved): 'floor' | 'zero' => (r.complete ? 'zero' : 'floor');

export interface FusionWeights {
  bm25: number;
  dense: number;
  dense2: number;
  /** The agentic-graph signal (only when a search asks for it). */
  graph?: number;
}

export interface FusionList {
  scores: Ranked;
  weight: number;
  /**
   * What a candidate missing from this list scores. `floor` (a retriever's top-N cut): the list's
   * lowest normalised score, an upper bound of what the candidate would have scored, the best
   * estimate without scoring it. `zero`: nothing (a complete list, see Retrieved, or a list of
   * evidence that is either there or not, the graph signal).
   */
  absent?: 'floor' | 'zero';
}

/**
 * Weighted fusion of max-normalised scores (docs/retrieval.md, "Fusion"). Each list is divided by
 * its maximum against the scores' natural floor of 0 (BM25 ≥ 0; cosines below 0 count 0), so a
 * signal weighs in with its own spread: a dense list whose candidates all look alike to its model
 * (SciFact abstracts: cosines 0.59–0.70) moves the ranking little, while one that separates them
 * (short chat turns: 0.2–0.7) moves it much. Min-max normalisation stretched every list to 0–1 and
 * let a flat, uninformative list pull a strong BM25 ranking down (SciFact nDCG@10 0.676 vs BM25
 * alone 0.707, CoSQA MRR@10 0.266 vs 0.301); this fusion is above BM25 on both and equal on LoCoMo
 * (`npx tsx bench/fusion-study.ts`, weights cross-validated on all three dev sets at once).
 * A candidate missing from a list scores as `absent` says (absentOf: 0 when the retriever's list
 * is complete, its floor when the list was cut).
 */
export function fuse(lists: FusionList[]): { id: string; score: number; parts: number[] }[] {
  const used = lists.map(({ scores, weight, absent }) => {
    if (!scores.size || weight <= 0) return null;
    let max = 0;
    for (const s of scores.values()) max = Math.max(max, s);
    const norm = new Map<string, number>();
    let floor = Infinity;
    for (const [id, raw] of scores) {
      const v = max > 0 ? Math.max(0, raw) / max : 0;
      norm.set(id, v);
      floor = Math.min(floor, v);
    }
    return { norm, weight, missing: absent === 'zero' ? 0 : floor };
  });
  const ids = new Set<string>();
  for (const u of used) if (u) for (const id of u.norm.keys()) ids.add(id);
  return [...ids]
    .map((id) => {
      const parts = used.map((u) => (u ? (u.norm.get(id) ?? u.missing) : 0));
      const score = used.reduce((s, u, i) => s + (u ? u.weight * parts[i] : 0), 0);
      return { id, score, parts };
    })
    .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1));
}
