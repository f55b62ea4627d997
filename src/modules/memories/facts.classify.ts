/**
 * Which single-valued attribute a short memory speaks of, by meaning rather than wording: its
 * embedding's nearest examples of facts.slots.ts (embedded once, with the deployment's own
 * embedders, the first time a write needs them). The `k` nearest examples vote, weighted by
 * similarity; the attribute wins only if the nearest example is similar enough and the vote is
 * not `none`.
 *
 * With the secondary embedder (GloVe SIF) too, similarity is 0.7 × the primary's + 0.3 × the
 * secondary's: word vectors know what the values are ("tacos" is food, "Radiohead" music) where
 * a sentence encoder mostly sees the sentence's shape, so the mix recognises far more updates
 * of wordings it was not built on (docs/truth.md, "Attributes").
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Embedder } from '../../platform/models/index.ts';
import { SLOT_EXAMPLES, SLOT_QUESTIONS } from './facts.slots.ts';
import { IMPLIED_EXAMPLES } from './facts.slots.implied.ts';

/**
 * Statements: k voters, least similarity of the nearest example (primary alone, and mixed), and
 * the share of the vote the attribute needs (more than half).
 */
export const SLOT = { k: 5, min: 0.6, mixed: 0.6, share: 0.5, questions: false };
/** A loose statement (facts.claims.ts looseClaimsOf): the statements' vote without the agreement check. */
export const LOOSE = { ...SLOT, alone: true };
/**
 * Questions are further from the statements than another statement is ("Where does Maya live?"
 * against "I live in Chicago."), so they need less similarity to name the attribute asked about.
 */
export const QUESTION_SLOT = { k: 5, min: 0.3, mixed: 0.3, share: 0, questions: true };
const MIX = { primary: 0.7, secondary: 0.3 };

interface Space {
  model: string;
  vectors: number[][];
}
export interface Examples {
  slots: string[];
  /** Which examples are questions (compared with questions only). */
  questions: boolean[];
  primary: Space;
  secondary: Space | null;
}

const dot = (a: number[], b: number[]) => {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
};

/** A memory's or question's vectors with the models that made them. */
export interface Vectors {
  primary: { model: string; vector: number[] } | null;
  secondary?: { model: string; vector: number[] } | null;
}

type At = {
  k: number;
  min: number;
  mixed: number;
  share: number;
  questions: boolean;
  /** Only these attributes' examples vote (a question that names several; facts.questions.ts). */
  only?: string[];
  /** Skip the primary embedder's agreement (a search-time reading that retires nothing). */
  alone?: boolean;
};

/**
 * The attribute of `v` among `examples`, or null. With both embedders, a statement's attribute
 * (by the mixed similarity) stands only if the primary embedder alone votes for it too: two views
 * that disagree on an event near several attributes claim none (docs/truth.md, "Attributes").
 */
export function slotOf(v: Vectors, examples: Examples, at: At = SLOT) {
  if (!v.primary || v.primary.model !== examples.primary.model) return null;
  const p = unit(v.primary.vector);
  const s =
    v.secondary && examples.secondary && v.secondary.model === examples.secondary.model
      ? unit(v.secondary.vector)
      : null;
  // Each example's similarities, computed once: every write of a short memory asks (~500 examples).
  const voters: number[] = [];
  const primary: number[] = [];
  const mixed: number[] = [];
  examples.primary.vectors.forEach((e, i) => {
    if ((examples.questions[i] && !at.questions) || (at.only && !at.only.includes(examples.slots[i]))) return;
    const d = dot(p, e);
    voters.push(i);
    primary.push(d);
    mixed.push(s ? MIX.primary * d + MIX.secondary * dot(s, examples.secondary!.vectors[i]) : d);
  });
  const slot = vote(voters, mixed, examples.slots, s ? at.mixed : at.min, at);
  if (!slot || !s || at.questions || at.alone) return slot;
  // The agreement check asks which attribute, not how close: no similarity floor.
  return vote(voters, primary, examples.slots, 0, at) === slot ? slot : null;
}

/**
 * The weighted vote of the `k` nearest examples, or null below `min` or without a majority.
 * `voters[j]` is an example's index, `sims[j]` its similarity; the k nearest are picked by
 * insertion (k is 5, the examples ~500: no sort of them all), the earlier example first on a tie.
 */
function vote(voters: number[], sims: number[], slots: string[], min: number, at: At): string | null {
  const top: number[] = [];
  for (let j = 0; j < sims.length; j++) {
    if (top.length === at.k && sims[j] <= sims[top[at.k - 1]]) continue;
    let x = Math.min(top.length, at.k - 1);
    while (x > 0 && sims[top[x - 1]] < sims[j]) {
      top[x] = top[x - 1];
      x--;
    }
    top[x] = j;
  }
  if (!top.length || sims[top[0]] < min) return null;
  const votes = new Map<string, number>();
  for (const j of top) votes.set(slots[voters[j]], (votes.get(slots[voters[j]]) ?? 0) + sims[j]);
  const [slot, w] = [...votes].sort((a, b) => b[1] - a[1])[0];
  // A statement's attribute needs a majority of the vote: a memory between attributes (an event
  // near several) claims none rather than one by a narrow plurality (docs/truth.md, "Attributes").
  const total = [...votes.values()].reduce((a, b) => a + b, 0);
  if (w < at.share * total) return null;
  return slot === 'none' ? null : slot;
}

const loaded = new Map<string, Promise<Examples>>();
type Embeds = Pick<Embedder, 'id' | 'embed'>;

/**
 * The examples embedded by the embedders, once per process and models (a failed load is retried
 * by the next call), and kept in `cacheDir` (MODELS_CACHE_DIR) when given, so that a restart
 * does not embed them again. Writers ask for them beside their chunks' embeddings, before their
 * transaction.
 */
export function slotExamples(primary: Embeds, secondary?: Embeds | null, cacheDir?: string): () => Promise<Examples> {
  return (): Promise<Examples> => {
    const key = `${primary.id}|${secondary?.id ?? ''}|${cacheDir ?? ''}`;
    let loading = loaded.get(key);
    if (!loading) {
      loading = embedExamples(primary, secondary ?? null, cacheDir);
      loaded.set(key, loading);
      loading.catch(() => loaded.delete(key));
    }
    return loading;
  };
}

async function embedExamples(primary: Embeds, secondary: Embeds | null, cacheDir?: string): Promise<Examples> {
  const entries = [
    ...[SLOT_EXAMPLES, IMPLIED_EXAMPLES].flatMap((set) =>
      Object.entries(set).flatMap(([slot, xs]) => xs.map((x) => ({ slot, x, question: false }))),
    ),
    ...Object.entries(SLOT_QUESTIONS).flatMap(([slot, xs]) => xs.map((x) => ({ slot, x, question: true }))),
  ];
  const texts = entries.map((e) => e.x);
  const hash = createHash('sha256')
    .update(JSON.stringify([primary.id, secondary?.id ?? null, texts]))
    .digest('hex')
    .slice(0, 16);
  const file = cacheDir ? path.join(cacheDir, `slot-examples-${hash}.json`) : null;
  if (file && fs.existsSync(file)) {
    try {
      return JSON.parse(fs.readFileSync(file, 'utf8')) as Examples;
    } catch {
      // A torn or foreign file: embed again and write it anew.
    }
  }
  const [p, s] = await Promise.all([primary.embed(texts), secondary ? secondary.embed(texts).catch(() => null) : null]);
  const examples: Examples = {
    slots: entries.map((e) => e.slot),
    questions: entries.map((e) => e.question),
    primary: { model: primary.id, vectors: p.map(unit) },
    secondary: s && secondary ? { model: secondary.id, vectors: s.map(unit) } : null,
  };
  if (file) {
    // Written whole then renamed: a reader never sees half a file.
    const tmp = `${file}.${process.pid}.tmp`;
    try {
      fs.writeFileSync(tmp, JSON.stringify(examples));
      fs.renameSync(tmp, file);
    } catch {
      // A read-only cache is not an error: the next process embeds them again.
    }
  }
  return examples;
}
export type SlotExamples = Examples;

function unit(v: number[]): number[] {
  const n = Math.sqrt(dot(v, v)) || 1;
  return v.map((x) => x / n);
}
