/**
 * Feedback as a ranking signal, seen from search: a port (the feedback module implements it;
 * search imports nothing of it) and the pure, bounded re-scoring of the first stage's ranked
 * list (docs/feedback.md, "Ranking").
 */
import type { Queryable } from '../../platform/db/index.ts';

/** Whose feedback counts: the searched user, in their organization. */
export interface FeedbackScope {
  organizationId: string;
  userId: string;
}

/**
 * What one user's feedback says of each of `memoryIds`: a value in [-1, 1] (already saturated
 * and aged by the implementation), absent for a memory without feedback. One round trip.
 */
export interface FeedbackBoosts {
  boosts(db: Queryable, scope: FeedbackScope, memoryIds: string[]): Promise<Map<string, number>>;
}

/**
 * The first stage's list with the boosts applied, best first (ties by id, as the first stage):
 *
 *   final(m) = max(0, score(m) + weight · clamp(boost(m), -1, 1) · top)
 *
 * where `top` is the best score of the list. A boost is relative to the search's best score,
 * not to the memory's own: with min-max normalised signals the weakest candidate scores 0, and
 * a share of 0 could not lift it. So feedback moves a memory by at most `weight · top`: past the
 * memories within that distance, never past one further ahead.
 */
export function applyBoosts(
  ranked: [string, number][],
  boosts: Map<string, number>,
  weight: number,
): [string, number][] {
  if (!boosts.size || weight <= 0 || !ranked.length) return ranked;
  const top = Math.max(...ranked.map(([, s]) => s));
  const clamp = (b: number) => (Number.isFinite(b) ? Math.max(-1, Math.min(1, b)) : 0);
  return ranked
    .map(([id, score]): [string, number] => {
      const b = boosts.get(id);
      return b === undefined ? [id, score] : [id, Math.max(0, score + weight * clamp(b) * top)];
    })
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
}

/**
 * `ranked` re-scored by the searched user's feedback, or as it is: without a port or a weight,
 * for a search without a user (shared memories only), or when the user has no feedback on
 * these memories (then the cost is the port's one indexed lookup).
 */
export async function feedbackRanked(
  deps: { db: Queryable; feedback?: FeedbackBoosts; feedbackWeight?: number },
  scope: { organizationId: string; userId: string | null },
  ranked: [string, number][],
): Promise<[string, number][]> {
  const weight = deps.feedbackWeight ?? 0;
  if (!deps.feedback || weight <= 0 || !scope.userId || !ranked.length) return ranked;
  const boosts = await deps.feedback.boosts(
    deps.db,
    { organizationId: scope.organizationId, userId: scope.userId },
    ranked.map(([id]) => id),
  );
  return applyBoosts(ranked, boosts, weight);
}
