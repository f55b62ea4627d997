/**
 * The words the code-words model reads (code-words.ts), apart from its weights so that the
 * training script (scripts/train-code-words.ts) reads words exactly as the product does.
 */
/** Words too common in queries about code to say anything ("how to … in python"). */
const QUERY_STOP = new Set(
  (
    'a an the of to in for on and or is are be by with from as at it this that if how do does python py ' +
    'what which can use using my me we get into not no vs way'
  ).split(' '),
);

/**
 * The words of a text: alphanumeric runs split at case changes and digits, lower-cased, one-letter
 * parts dropped, a plural "s" taken off words over four letters ("files" → file, not "class").
 * `query`: query stop words out too. `limit`: at most about that many words (the last identifier
 * read may add a few parts beyond it; callers slice).
 */
export function codeWords(text: string, query = false, limit = Infinity): string[] {
  const out: string[] = [];
  // Word by word, so that a long text is read only as far as `limit` words.
  for (const [w] of text.matchAll(/[A-Za-z][A-Za-z0-9]*/g)) {
    if (out.length >= limit) break;
    for (let p of w.match(/[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+/g) ?? []) {
      p = p.toLowerCase();
      if (p.length < 2) continue;
      if (p.length > 4 && p.endsWith('s') && !p.endsWith('ss')) p = p.slice(0, -1);
      if (query && QUERY_STOP.has(p)) continue;
      out.push(p);
    }
  }
  return out;
}

/** How many words of a function are read (its head: the name, arguments and first lines). */
export const CODE_WORDS_READ = 200;

/** `x` scaled in place to unit length (a zero vector stays zero), and returned. */
export function unit(x: Float32Array): Float32Array {
  let n = 0;
  for (const v of x) n += v * v;
  n = Math.sqrt(n);
  if (n > 0) for (let d = 0; d < x.length; d++) x[d] /= n;
  return x;
}
