/**
 * Markdown through its syntax tree (mdast-util-from-markdown, CommonMark): heading nodes are
 * headings; paragraphs, list items, code, quotes and tables are paragraphs; embedded HTML goes
 * through the HTML walker. No GFM extension is installed, so a pipe table stays a paragraph of text.
 */
import type { Nodes, PhrasingContent, RootContent } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { toString } from 'mdast-util-to-string';
import { firstTopHeading, singlePage, squash } from './blocks.ts';
import { htmlToBlocks } from './html.ts';
import { textOf } from './text.ts';
import type { Block, ParsedDocument } from './types.ts';

/** Inline content as text: soft line breaks re-flow, hard breaks stay, inline HTML tags go. */
function inlineText(children: PhrasingContent[]): string {
  return children
    .map((c) => (c.type === 'break' ? '\n' : toString(c, { includeHtml: false }).replace(/\s+/g, ' ')))
    .join('')
    .split('\n')
    .map(squash)
    .filter((l) => l !== '')
    .join('\n');
}

function walk(nodes: RootContent[], blocks: Block[]): void {
  const push = (text: string) => {
    if (text.trim() !== '') blocks.push({ kind: 'paragraph', text, page: 1 });
  };
  for (const node of nodes) {
    switch (node.type) {
      case 'heading': {
        const text = squash(inlineText(node.children));
        if (text !== '') blocks.push({ kind: 'heading', level: node.depth, text, page: 1 });
        break;
      }
      case 'paragraph':
        push(inlineText(node.children));
        break;
      case 'code':
        push(node.value.trimEnd());
        break;
      case 'html':
        blocks.push(...htmlToBlocks(node.value, { readability: false }).blocks);
        break;
      case 'table':
        for (const row of node.children) push(row.children.map((cell) => inlineText(cell.children)).join(' | '));
        break;
      case 'list':
      case 'listItem':
      case 'blockquote':
      case 'footnoteDefinition':
        walk(node.children, blocks);
        break;
      case 'thematicBreak':
      case 'definition':
      case 'yaml':
        break; // no text of the document's own
      default:
        push(squash(toString(node as Nodes, { includeHtml: false })));
    }
  }
}

export function parseMarkdown(bytes: Uint8Array): ParsedDocument {
  const tree = fromMarkdown(textOf(bytes, 'markdown'));
  const blocks: Block[] = [];
  walk(tree.children, blocks);
  return singlePage('markdown', blocks, firstTopHeading(blocks));
}
