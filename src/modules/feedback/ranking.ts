/**
 * Feedback → ranking (docs/feedback.md, "Ranking"): what one feedback says of each memory it
 * cites (a signal in [-1, 1]), and how a user's signals on a memory add up to the boost search
 * applies (a value in [-1, 1], saturating with their number and fading with their age).
 */
import type { FeedbackData, FeedbackType } from './feedback.schemas.ts';

/** Types whose direction is their meaning: explicit votes count 1, engagement a half. */
const FIXED: Partial<Record<FeedbackType, number>> = {
  thumbs_up: 1,
  save_action: 1,
  copy_action: 0.5,
  create_document: 0.5,
  thumbs_down: -1,
  report: -1,
};

/** Net signal at which the boost reaches tanh(1) ≈ 0.76 of its bound: one thumbs up gives 0.46, two 0.76. */
export const SATURATION = 2;

/**
 * The signal one feedback gives each memory it cites, in [-1, 1]:
 * - thumbs_up, save_action: +1; copy_action, create_document: +0.5; thumbs_down, report: -1;
 * - rating: (stars - 3) / 2 (1 star -1, 3 stars 0, 5 stars +1);
 * - memory_relevance, answer_quality, correction: the score itself (-1…1);
 * - a scored type without a score: 0 (stored, no ranking effect).
 */
export function signalOf(d: Pick<FeedbackData, 'feedbackType' | 'feedbackScore'>): number {
  const fixed = FIXED[d.feedbackType];
  if (fixed !== undefined) return fixed;
  const s = d.feedbackScore;
  if (s === undefined || !Number.isFinite(s)) return 0;
  const v = d.feedbackType === 'rating' ? (s - 3) / 2 : s;
  return Math.max(-1, Math.min(1, v));
}

/** The boost of a net signal: tanh(net / SATURATION), in (-1, 1). */
export function boostOf(net: number): number {
  return Math.tanh(net / SATURATION);
}
