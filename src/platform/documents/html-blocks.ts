/**
 * A DOM → blocks walk, shared by HTML (after Readability) and DOCX (after mammoth): h1–h6 are
 * headings; every block-level element (p, li, blockquote, div …) ends a paragraph; a table row
 * is one paragraph with its cells separated by " | "; pre keeps its line breaks.
 */
import { squash } from './blocks.ts';
import type { Block } from './types.ts';

const TEXT_NODE = 3;
const ELEMENT_NODE = 1;

/** Never text a reader sees. */
const SKIPPED = new Set([
  'script',
  'style',
  'noscript',
  'template',
  'head',
  'title',
  'svg',
  'math',
  'iframe',
  'object',
  'canvas',
  'select',
  'textarea',
  'button',
]);

/** Elements that start and end a paragraph (the rest are inline: their text flows on). */
const BLOCK_LEVEL = new Set(
  (
    'address article aside blockquote body caption center dd details dialog div dl dt fieldset figcaption figure ' +
    'footer form header hgroup hr html li main menu nav ol p section summary table tbody td tfoot th thead ul'
  ).split(' '),
);

const HEADING = /^h([1-6])$/;

/** Paragraph text from inline pieces (whitespace already collapsed), line breaks from <br> kept. */
function paragraphText(pieces: string[]): string {
  return pieces
    .join('')
    .split('\n')
    .map(squash)
    .filter((l) => l !== '')
    .join('\n');
}

function collect(nodes: Iterable<Node>, page: number): Block[] {
  const blocks: Block[] = [];
  let inline: string[] = [];
  const flush = () => {
    const text = paragraphText(inline);
    if (text !== '') blocks.push({ kind: 'paragraph', text, page });
    inline = [];
  };
  /** An element's text as one line (a heading, a table cell), its inner blocks joined by spaces. */
  const oneLine = (el: Element) =>
    squash(
      collect(el.childNodes, page)
        .map((b) => b.text)
        .join(' '),
    );
  const walk = (node: Node): void => {
    if (node.nodeType === TEXT_NODE) {
      // Source line breaks are layout; only <br> (below) breaks a line of a paragraph.
      inline.push((node.nodeValue ?? '').replace(/\s+/g, ' '));
      return;
    }
    if (node.nodeType !== ELEMENT_NODE) return; // comments, processing instructions
    const el = node as Element;
    const tag = el.localName.toLowerCase();
    if (SKIPPED.has(tag)) return;
    if (tag === 'br') {
      inline.push('\n');
      return;
    }
    const heading = HEADING.exec(tag);
    if (heading || tag === 'tr' || tag === 'pre') flush();
    if (heading) {
      const text = oneLine(el);
      if (text !== '') blocks.push({ kind: 'heading', level: Number(heading[1]), text, page });
    } else if (tag === 'tr') {
      const cells = [...el.children].filter((c) => /^t[dh]$/i.test(c.localName)).map(oneLine);
      if (cells.some((c) => c !== '')) blocks.push({ kind: 'paragraph', text: cells.join(' | '), page });
    } else if (tag === 'pre') {
      // Code and preformatted text: its line breaks and indentation are the content.
      const text = (el.textContent ?? '').replace(/^\n/, '').trimEnd();
      if (text.trim() !== '') blocks.push({ kind: 'paragraph', text, page });
    } else {
      const block = BLOCK_LEVEL.has(tag);
      if (block) flush();
      for (const child of el.childNodes) walk(child);
      if (block) flush();
    }
  };
  for (const node of nodes) walk(node);
  flush();
  return blocks;
}

/** The blocks of DOM nodes and their subtrees, in document order. */
export function blocksFromDom(nodes: Iterable<Node>, page = 1): Block[] {
  return collect(nodes, page);
}
