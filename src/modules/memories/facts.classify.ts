/**
 * Which single-valued attribute a short memory speaks of, by meaning rather than wording: its
 * embedding's nearest examples of facts.slots.ts (embedded once, with the deployment's own
 * primary embedder, the first time a write needs them). The `SLOT.k` nearest examples vote,
 * weighted by similarity; the attribute wins only if the nearest example is at least
 * `SLOT.min` similar and the vote is not `none`. Thresholds: docs/truth.md ("Attributes").
 */
import type { Embedder } from '../../platform/models/index.ts';
import { SLOT_EXAMPLES } from './facts.slots.ts';

export const SLOT = { k: 5, min: 0.6 };
/**
 * For questions: a question is further from the statements than another statement is ("Where
 * does Maya live?" against "I live in Chicago."), so it needs less similarity to name the
 * attribute it asks about.
 */
export const QUESTION_SLOT = { k: 5, min: 0.3 };

interface Examples {
  model: string;
  slots: string[];
  vectors: number[][];
}

const dot = (a: number[], b: number[]) => {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
};

/** The attribute of `vector` among `examples` (unit vectors: cosine = dot), or null. */
export function slotOf(vector: number[], examples: Examples, at: { k: number; min: number } = SLOT): string | null {
  const u = unit(vector);
  const scored = examples.vectors.map((v, i) => ({ slot: examples.slots[i], s: dot(u, v) }));
  scored.sort((a, b) => b.s - a.s);
  if (!scored.length || scored[0].s < at.min) return null;
  const votes = new Map<string, number>();
  for (const x of scored.slice(0, at.k)) votes.set(x.slot, (votes.get(x.slot) ?? 0) + x.s);
  const [slot] = [...votes].sort((a, b) => b[1] - a[1])[0];
  return slot === 'none' ? null : slot;
}

const loaded = new WeakMap<object, Promise<Examples>>();

/**
 * The examples embedded by `embedder`, once per embedder (a failed load is retried by the next
 * call). Writers ask for them beside their chunks' embeddings, before their transaction opens.
 */
export function slotExamples(embedder: Pick<Embedder, 'id' | 'embed'>): () => Promise<Examples> {
  return (): Promise<Examples> => {
    let loading = loaded.get(embedder);
    loading ??= (async () => {
      const entries = Object.entries(SLOT_EXAMPLES).flatMap(([slot, xs]) => xs.map((x) => ({ slot, x })));
      const vectors = await embedder.embed(entries.map((e) => e.x));
      return { model: embedder.id, slots: entries.map((e) => e.slot), vectors: vectors.map(unit) };
    })();
    loaded.set(embedder, loading);
    loading.catch(() => loaded.delete(embedder));
    return loading;
  };
}
export type SlotExamples = Examples;

function unit(v: number[]): number[] {
  const n = Math.sqrt(dot(v, v)) || 1;
  return v.map((x) => x / n);
}
