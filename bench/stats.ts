/** Percentile of a sample (nearest rank on the sorted copy). */
export function percentile(values: number[], p: number): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
}
export const median = (v: number[]) => percentile(v, 50);
export const fmt = (ms: number) => `${ms.toFixed(2)} ms`;
