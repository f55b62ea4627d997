/**
 * The vocabulary every rule of the local extractor reads: compromise's terms reduced to
 * tokens, tag and punctuation tests, and the span (a run of tokens that names one thing).
 * Kept apart so the date, span, node and relationship rules share it without importing
 * each other.
 */
import type { PropertyValue } from './extractor.ts';

/** A term as compromise's `doc.document` holds it (after `compute('root')`). */
export interface RawTerm {
  text: string;
  normal: string;
  implicit?: string;
  root?: string;
  tags?: Set<string>;
  post: string;
}
/** A token as the rules read it; `norm` is lowercase with contractions expanded ("I'm" → i, am). */
export interface Tok {
  text: string;
  norm: string;
  root: string;
  tags: Set<string>;
  post: string;
}

/** compromise's term → the rules' token (possessive 's dropped from `norm`). */
export function toTok(t: RawTerm): Tok {
  const norm = (t.implicit || t.normal).toLowerCase().replace(/['’]s$/, '');
  return { text: t.text, norm, root: t.root || norm, tags: t.tags ?? new Set(), post: t.post };
}
/** True when the token exists and carries any of the compromise tags. */
export const has = (t: Tok | undefined, ...tags: string[]) => !!t && tags.some((x) => t.tags.has(x));
/** True when the token exists and starts with an uppercase letter. */
export const isCap = (t: Tok | undefined) => !!t && /^\p{Lu}/u.test(t.text);
/** Punctuation after a token ends any phrase running through it. */
export const breaksAfter = (t: Tok) =>
  /[,;:!?()"“”–—]|\.\s|\.$|\s-/.test(t.post) && !has(t, 'Abbreviation', 'Honorific');
/** The tokens' text as written, inner punctuation and spacing kept. */
export const surfaceOf = (toks: Tok[]) =>
  toks
    .map((t, i) => t.text + (i < toks.length - 1 ? t.post : ''))
    .join('')
    .trim();

/** Word tables without a prototype, so a token such as 'constructor' finds nothing in them. */
export const table = <T>(entries: Record<string, T>): Record<string, T> =>
  Object.assign(Object.create(null) as Record<string, T>, entries);

/** A run of tokens [start, end) in one sentence that names one thing. */
export interface Span {
  start: number;
  end: number;
  type: string;
  name: string;
  surface: string;
  props: Record<string, PropertyValue>;
  possessive: boolean;
  /** Claimed tokens that make no node (an unresolvable date, a topic below the cap). */
  dropped?: boolean;
  key?: string;
}

/** A span over toks[start, end); possessive when it ends in 's or a Possessive tag. */
export function span(
  toks: Tok[],
  start: number,
  end: number,
  type: string,
  name: string,
  props: Record<string, PropertyValue> = {},
): Span {
  const last = toks[end - 1];
  const possessive = has(last, 'Possessive') || /['’]s?$/.test(last.text);
  return { start, end, type, name, surface: surfaceOf(toks.slice(start, end)), props, possessive };
}
