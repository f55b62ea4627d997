/**
 * Current facts first (docs/truth.md): a search's candidates put in the order of what is true
 * now, or at `as_of`. A superseded memory among them is answered by its current version: the
 * newer memory takes its place (fetched when it was not a candidate, if the reader may read it)
 * and the old one follows right after it (`include_superseded`, default), or is left out
 * (`include_superseded: false`). It is never hidden by default: a question about the past
 * still finds it, one place lower. Of near duplicates only the best ranked is shown.
 *
 * Pure: the lineage of the candidates and which successors are readable come in.
 */
import type { MemoryLineage } from '../memories/index.ts';

export type Ranked = [id: string, score: number][];

export interface CurrentFirstOptions {
  /** Point in time; null: now. */
  asOf: Date | null;
  includeSuperseded: boolean;
  /** Successors the reader may read (not candidates themselves). */
  readable: Set<string>;
}

/** The memory holding `id`'s fact at `at`: its latest successor by then, followed while that one was replaced. */
export function currentOf(id: string, lineage: Map<string, MemoryLineage>, at: Date | null): string | null {
  let current: string | null = null;
  let cursor = id;
  for (let hops = 0; hops < 8; hops++) {
    const successors = (lineage.get(cursor)?.successors ?? []).filter((s) => !at || s.validTo <= at);
    if (!successors.length) break;
    cursor = successors[successors.length - 1].id;
    current = cursor;
  }
  return current;
}

/** Successors of the candidates that are not candidates: to fetch lineage for and check readability. */
export function successorsOf(ids: string[], lineage: Map<string, MemoryLineage>, at: Date | null): string[] {
  const out = new Set<string>();
  for (const id of ids) for (const s of lineage.get(id)?.successors ?? []) if (!at || s.validTo <= at) out.add(s.id);
  for (const id of ids) out.delete(id);
  return [...out];
}

export function currentFirst(ranked: Ranked, lineage: Map<string, MemoryLineage>, opts: CurrentFirstOptions): Ranked {
  const candidates = new Map(ranked);
  const out: Ranked = [];
  const placed = new Set<string>();
  const roots = new Set<string>();
  const place = (id: string, score: number) => {
    const root = lineage.get(id)?.duplicateOf ?? id;
    if (placed.has(id) || roots.has(root)) return;
    placed.add(id);
    roots.add(root);
    // Scores stay in rank order: a memory moved up carries the score of the place it took.
    const previous = out.length ? out[out.length - 1][1] : Infinity;
    out.push([id, Math.min(previous, score)]);
  };
  for (const [id, score] of ranked) {
    const current = currentOf(id, lineage, opts.asOf);
    if (current && (candidates.has(current) || opts.readable.has(current))) {
      place(current, Math.max(score, candidates.get(current) ?? -Infinity));
      if (opts.includeSuperseded) place(id, score);
    } else if (!current || opts.includeSuperseded) place(id, score);
  }
  return out;
}
