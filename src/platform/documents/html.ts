/**
 * HTML: linkedom builds the DOM, Readability picks the main content (dropping navigation,
 * footers and other boilerplate), and the shared walker turns it into blocks. When Readability
 * finds nothing or very little, the body is used instead, so a short page is not lost.
 */
import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
import { firstTopHeading, singlePage, squash } from './blocks.ts';
import { blocksFromDom } from './html-blocks.ts';
import { textOf } from './text.ts';
import type { Block, ParsedDocument } from './types.ts';

/**
 * Below this many characters Readability found no article: on a short page it keeps menus and the
 * like, which the body without nav, aside and footer does not.
 */
const MIN_ARTICLE_CHARS = 200;

/**
 * Readability deletes the first h1/h2 that repeats the page title (a reader view shows the title
 * above the text); here that heading is the top of the section tree, so it stays.
 * `_headerDuplicatesTitle` is Readability's own hook (pinned version); if it ever goes, this is inert.
 */
class ReadabilityKeepingHeadings extends Readability<Node> {
  _headerDuplicatesTitle(): boolean {
    return false;
  }
}

/** Readability turns every h1 into an h2; marked before, they are turned back after. */
const H1_MARK = 'data-engram-h1';

function restoreH1s(root: Element): void {
  for (const el of root.querySelectorAll(`[${H1_MARK}]`)) {
    const h1 = el.ownerDocument.createElement('h1');
    h1.append(...el.childNodes);
    el.replaceWith(h1);
  }
}

/** linkedom's document, typed as the DOM's (the API Readability and the walker use). */
function domOf(html: string): Document {
  return parseHTML(html).document as unknown as Document;
}

/**
 * The whole page without navigation, asides and footers (all of it if that leaves nothing).
 * Walks the document's nodes, not `body`: linkedom adds no implied <html>/<body> to a fragment.
 */
function pageBlocks(doc: Document): Block[] {
  const all = blocksFromDom(doc.childNodes);
  for (const el of doc.querySelectorAll('nav, aside, footer, [role="navigation"]')) el.remove();
  const trimmed = blocksFromDom(doc.childNodes);
  return trimmed.length > 0 ? trimmed : all;
}

/** Readability's article, or null when it finds none (it throws on some malformed trees). */
function readArticle(doc: Document): { title: string; root: Node; chars: number } | null {
  for (const h1 of doc.querySelectorAll('h1')) h1.setAttribute(H1_MARK, '');
  try {
    const article = new ReadabilityKeepingHeadings(doc, { serializer: (node) => node }).parse();
    if (!article?.content) return null;
    restoreH1s(article.content as Element);
    return {
      title: squash(article.title ?? ''),
      root: article.content,
      chars: squash(article.textContent ?? '').length,
    };
  } catch {
    return null;
  }
}

/** Blocks and title of an HTML string; `readability: false` for HTML that is all content (DOCX). */
export function htmlToBlocks(html: string, opts: { readability: boolean }): { blocks: Block[]; title?: string } {
  // Two DOMs: Readability rewrites the one it reads, and the fallback needs the page as it was.
  const original = domOf(html);
  const pageTitle = squash(original.querySelector('title')?.textContent ?? '');
  // A fragment (no <body>) is not a web page with boilerplate around an article.
  const isPage = opts.readability && original.querySelector('body') !== null;
  const fallback = pageBlocks(original);
  const article = isPage ? readArticle(domOf(html)) : null;
  const useArticle = article !== null && article.chars >= MIN_ARTICLE_CHARS;
  const blocks = useArticle ? blocksFromDom([article.root]) : fallback;
  return { blocks, title: article?.title || pageTitle || firstTopHeading(blocks) };
}

export function parseHtml(bytes: Uint8Array): ParsedDocument {
  const { blocks, title } = htmlToBlocks(textOf(bytes, 'html'), { readability: true });
  return singlePage('html', blocks, title);
}
