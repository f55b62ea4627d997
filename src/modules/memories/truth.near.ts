/**
 * When two memories of one owner are near duplicates (truth.ts links them; search shows one):
 * close by the primary embedding, close in wording without a word replaced, and no name, number
 * or date differing (docs/truth.md, "Duplicates").
 */

/**
 * Near-duplicate thresholds. Both must hold: the embedding alone calls "I live in Lisbon" and "I
 * live in Porto" near (cosine ~0.8), shared words alone miss reworded repeats (docs/truth.md).
 */
export const NEAR = { cosine: 0.9, jaccard: 0.75, neighbours: 3 };

/**
 * The words and numbers of a text, folded: what near duplicates must share. Not the search
 * analyser's terms, which drop numbers ("note 5: item 155" and "note 6: item 186" are not the
 * same memory).
 */
const wordsOf = (text: string) => new Set(text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);

/**
 * Whether two texts differ in a name, a number or a date ("keys lost on Saturday" / "on
 * Tuesday", "note 5" / "note 6"): then they tell of different things however alike they read.
 */
export function namesDiffer(a: string, b: string): boolean {
  const named = (t: string) =>
    new Set(
      (t.match(/[\p{L}\p{N}]+/gu) ?? [])
        .filter((w, i) => /\p{N}/u.test(w) || (i > 0 && /^\p{Lu}/u.test(w)))
        .map((w) => w.toLowerCase()),
    );
  const [x, y] = [named(a), named(b)];
  return [...x].some((w) => !y.has(w)) || [...y].some((w) => !x.has(w));
}

/**
 * Near in wording: they share ≥ NEAR.jaccard of their words, and one only adds words to the
 * other ("My usual coffee order is …" / "My usual coffee is …"); a word replaced by another
 * ("the blue drawer" / "the red drawer") makes another fact, however close they read.
 */
export function nearWording(a: string, b: string): boolean {
  const [x, y] = [wordsOf(a), wordsOf(b)];
  const replaced = [...x].some((w) => !y.has(w)) && [...y].some((w) => !x.has(w));
  return !replaced && jaccard(x, y) >= NEAR.jaccard;
}

const jaccard = (a: Set<string>, b: Set<string>) => {
  let both = 0;
  for (const x of a) if (b.has(x)) both++;
  const union = a.size + b.size - both;
  return union ? both / union : 0;
};
