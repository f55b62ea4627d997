/**
 * Blocks → chunks of at most `maxChars` characters, each to become one memory.
 *
 * Hierarchical: a heading starts a section and a chunk never spans two; the heading is the first
 * line of its section's first chunk. Flat: blocks are packed across headings (headings stay as
 * lines). Either way a paragraph that fits is kept whole; one that is too long is split between
 * sentences, a sentence that is too long between words, and only a word longer than the whole
 * budget is cut. Nothing is dropped and nothing repeated: the chunks hold the blocks' words in order.
 */
import type { Block, DocumentChunk, ParsedDocument } from './types.ts';

const PARAGRAPH_SEP = '\n\n';
const SENTENCES = new Intl.Segmenter(undefined, { granularity: 'sentence' });

/** Consecutive pieces of `text`, each at most `max` characters: sentences, else words, else slices. */
export function splitText(text: string, max: number): string[] {
  const pieces: string[] = [];
  for (const { segment } of SENTENCES.segment(text)) {
    const sentence = segment.trim();
    if (sentence === '') continue;
    if (sentence.length <= max) {
      pieces.push(sentence);
      continue;
    }
    let line = '';
    for (const word of sentence.split(/\s+/)) {
      if (line !== '' && line.length + 1 + word.length <= max) {
        line += ` ${word}`;
        continue;
      }
      if (line !== '') pieces.push(line);
      line = word;
      // A single word longer than the budget (a URL, base64): cut, the only way to respect it.
      while (line.length > max) {
        pieces.push(line.slice(0, max));
        line = line.slice(max);
      }
    }
    if (line !== '') pieces.push(line);
  }
  return pieces;
}

/** One unit to place: a block's text, its page, and whether it is a heading. */
interface Unit {
  text: string;
  page: number;
  heading: boolean;
}

/** The heading path after `block` (outermost first): deeper headings below its level are closed. */
function nextPath(path: { level: number; text: string }[], block: Block): { level: number; text: string }[] {
  if (block.kind !== 'heading') return path;
  const level = block.level ?? 1;
  return [...path.filter((h) => h.level < level), { level, text: block.text }];
}

/** Greedy packing of one run of units (a section, or the whole document) into chunks. */
function pack(units: Unit[], max: number, section: (unitIndex: number) => string[], out: DocumentChunk[]): void {
  let parts: string[] = [];
  let length = 0;
  let pages: number[] = [];
  let startUnit = 0;
  let loneHeading = false;
  const flush = () => {
    if (parts.length > 0) {
      out.push({
        index: out.length,
        text: parts.join(''),
        pageStart: Math.min(...pages),
        pageEnd: Math.max(...pages),
        section: section(startUnit),
      });
    }
    parts = [];
    length = 0;
    pages = [];
  };
  const add = (text: string, sep: string, page: number, unitIndex: number) => {
    if (parts.length > 0 && length + sep.length + text.length > max) flush();
    if (parts.length === 0) startUnit = unitIndex;
    const s = parts.length > 0 ? sep : '';
    parts.push(s + text);
    length += s.length + text.length;
    pages.push(page);
  };
  units.forEach((unit, i) => {
    // A heading goes where its first paragraph can follow it, not at the foot of a full chunk.
    const next = units[i + 1];
    const need = unit.text.length + (next ? PARAGRAPH_SEP.length + Math.min(next.text.length, max) : 0);
    if (unit.heading && parts.length > 0 && length + PARAGRAPH_SEP.length + need > max) flush();
    const fits = length + (parts.length > 0 ? PARAGRAPH_SEP.length : 0) + unit.text.length <= max;
    if (fits || (unit.text.length <= max && !loneHeading)) {
      add(unit.text, PARAGRAPH_SEP, unit.page, i); // whole: here, or at the top of the next chunk
    } else {
      // Too long for any chunk, or it would leave a heading alone: split, filling this chunk first.
      splitText(unit.text, max).forEach((piece, k) => add(piece, k === 0 ? PARAGRAPH_SEP : ' ', unit.page, i));
    }
    loneHeading = unit.heading && parts.length === 1;
  });
  flush();
}

/** Chunks of a parsed document, in order, each at most `maxChars` characters. */
export function chunkDocument(doc: ParsedDocument, opts: { maxChars: number; hierarchical: boolean }): DocumentChunk[] {
  const max = Math.floor(opts.maxChars);
  if (!(max >= 1)) throw new RangeError(`maxChars must be at least 1, not ${opts.maxChars}`);
  const chunks: DocumentChunk[] = [];
  let path: { level: number; text: string }[] = [];
  let run: { units: Unit[]; paths: string[][] } = { units: [], paths: [] };
  const flushRun = () => {
    const { paths } = run;
    pack(run.units, max, (i) => paths[i], chunks);
    run = { units: [], paths: [] };
  };
  for (const block of doc.blocks) {
    const text = block.text.trim();
    if (text === '') continue;
    const heading = block.kind === 'heading';
    if (heading && opts.hierarchical) flushRun();
    path = nextPath(path, block);
    run.units.push({ text, page: block.page, heading });
    run.paths.push(path.map((h) => h.text));
  }
  flushRun();
  return chunks;
}
