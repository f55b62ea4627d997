/**
 * PDF text items → lines → blocks. pdf.js gives positioned strings in content-stream order (the
 * order the producer wrote them, which is the reading order for nearly every generated PDF);
 * what it does not give is lines, paragraphs or headings, so they are rebuilt here from
 * positions and font sizes. Pure functions, so the rules are tested without a PDF.
 */
import { squash } from './blocks.ts';
import type { Block } from './types.ts';

/** One text item of pdf.js, reduced to what layout needs (PDF units, y grows upwards). */
export interface TextPiece {
  str: string;
  x: number;
  y: number;
  width: number;
  /** Font size in PDF units (the item's height). */
  size: number;
  hasEOL: boolean;
}

export interface Line {
  text: string;
  /** The size most of the line's characters are set in. */
  size: number;
  x: number;
  y: number;
  page: number;
}

/** A line this much larger than the body text is a heading. */
const HEADING_RATIO = 1.15;
/** Sizes within 5% of each other are one heading level (producers round differently). */
const SAME_LEVEL_RATIO = 0.95;
/** Baselines further apart than this many font sizes separate paragraphs (single spacing is ~1.2). */
const PARAGRAPH_GAP = 1.5;
/**
 * Larger "headings" are large-print paragraphs: a title wraps onto a few lines (scientific
 * titles run to ~300 characters), a paragraph onto many.
 */
const MAX_HEADING_CHARS = 400;
const MAX_HEADING_LINES = 4;

const roundSize = (size: number) => Math.round(size * 2) / 2;

/** Group one page's items into lines: a break at an end-of-line mark, a baseline change, or a jump back left. */
export function linesOf(items: TextPiece[], page: number): Line[] {
  const lines: Line[] = [];
  let parts: string[] = [];
  let sizes = new Map<number, number>();
  let start: TextPiece | null = null;
  let endX = 0;
  let breakNext = false;
  const flush = () => {
    const text = squash(parts.join(''));
    if (start && text !== '') {
      const size = [...sizes].reduce((a, b) => (b[1] > a[1] ? b : a))[0];
      lines.push({ text, size, x: start.x, y: start.y, page });
    }
    parts = [];
    sizes = new Map();
    start = null;
  };
  for (const it of items) {
    // pdf.js marks line ends with empty items (hasEOL) placed where the next line starts.
    if (it.str === '') {
      breakNext ||= it.hasEOL;
      continue;
    }
    if (start) {
      const size = Math.max(it.size, start.size);
      const gap = it.x - endX;
      if (breakNext || Math.abs(it.y - start.y) > 0.5 * size || gap < -0.5 * size) flush();
      else if (gap > 0.15 * size && !/\s$/.test(parts[parts.length - 1]) && !/^\s/.test(it.str)) parts.push(' ');
    }
    start ??= it;
    parts.push(it.str);
    endX = it.x + it.width;
    sizes.set(roundSize(it.size), (sizes.get(roundSize(it.size)) ?? 0) + it.str.trim().length);
    breakNext = it.hasEOL;
  }
  flush();
  return lines;
}

/** The body size: the size most characters of the document are set in. */
export function bodySize(lines: Line[]): number {
  const chars = new Map<number, number>();
  for (const l of lines) chars.set(l.size, (chars.get(l.size) ?? 0) + l.text.length);
  let best = 0;
  let most = -1;
  for (const [size, n] of chars) {
    if (n > most || (n === most && size < best)) [best, most] = [size, n];
  }
  return best;
}

/** Heading level per size: the distinct sizes clearly above the body, largest = 1, at most 6. */
export function headingLevels(lines: Line[], body: number): Map<number, number> {
  const sizes = [...new Set(lines.map((l) => l.size))].filter((s) => s >= body * HEADING_RATIO).sort((a, b) => b - a);
  const levels = new Map<number, number>();
  let level = 0;
  let clusterTop = Infinity;
  for (const s of sizes) {
    if (s < clusterTop * SAME_LEVEL_RATIO) {
      level = Math.min(level + 1, 6);
      clusterTop = s;
    }
    levels.set(s, level);
  }
  return levels;
}

/**
 * Join two lines of one block. A line ending in a hyphen, dash or slash joins the next without
 * a space and keeps its character: "whole-" + "genome" → "whole-genome". A typeset word break
 * ("exam-" + "ple") keeps its hyphen too; dropping it would turn every real compound split at
 * a line end into a word that matches nothing ("wholegenome"), while "exam-ple" still holds
 * both its parts.
 */
function joinLines(a: string, b: string): string {
  return /[-‐‑–—/]$/u.test(a) ? a + b : `${a} ${b}`;
}

/** Does `line` start a new block after `prev` (same kind and level)? */
function breaksBefore(prev: Line, line: Line): boolean {
  if (prev.page !== line.page) return true;
  const size = Math.max(prev.size, line.size);
  if (Math.abs(prev.size - line.size) > 0.1 * size) return true;
  const gap = prev.y - line.y;
  // Upwards or level: a new column or a text box; a wide gap: a new paragraph; an indent: likewise.
  return gap < 0.5 * size || gap > PARAGRAPH_GAP * size || line.x - prev.x > size;
}

/** A whole document's lines → heading and paragraph blocks, headings found by font size. */
export function blocksOf(lines: Line[]): Block[] {
  const levels = headingLevels(lines, bodySize(lines));
  const blocks: Block[] = [];
  let prev: Line | null = null;
  let prevLevel: number | undefined;
  const lineCounts: number[] = [];
  for (const line of lines) {
    const candidate =
      levels.has(line.size) && line.text.length <= MAX_HEADING_CHARS ? levels.get(line.size) : undefined;
    const last = blocks[blocks.length - 1];
    const continues = (level: number | undefined) => prev && last && level === prevLevel && !breaksBefore(prev, line);
    // A line without letters ("2020", "42") is a heading only as the end of a wrapped one.
    const level = /\p{L}/u.test(line.text) || continues(candidate) ? candidate : undefined;
    if (continues(level)) {
      last.text = joinLines(last.text, line.text);
      lineCounts[lineCounts.length - 1]++;
    } else {
      blocks.push(
        level === undefined
          ? { kind: 'paragraph', text: line.text, page: line.page }
          : { kind: 'heading', level, text: line.text, page: line.page },
      );
      lineCounts.push(1);
    }
    prev = line;
    prevLevel = level;
  }
  // A "heading" that ran on for several lines is large print, not a heading.
  return blocks.map((b, i) =>
    b.kind === 'heading' && (b.text.length > MAX_HEADING_CHARS || lineCounts[i] > MAX_HEADING_LINES)
      ? { kind: 'paragraph', text: b.text, page: b.page }
      : b,
  );
}
