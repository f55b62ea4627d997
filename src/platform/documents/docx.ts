/**
 * DOCX: mammoth turns the Word document into semantic HTML (Heading n styles → hn, lists → ul/ol,
 * tables → table), and the HTML walker makes the blocks. Everything mammoth emits is content, so
 * Readability is not asked to pick.
 */
import mammoth from 'mammoth';
import { singlePage } from './blocks.ts';
import { htmlToBlocks } from './html.ts';
import { DocumentParseError, type ParsedDocument } from './types.ts';

/** Word's Title and Subtitle styles are headings too; mammoth's defaults leave them as paragraphs. */
const STYLE_MAP = ["p[style-name='Title'] => h1:fresh", "p[style-name='Subtitle'] => h2:fresh"];

// Images become empty <img> elements: the default inlines each one as base64, which costs memory
// and yields no text.
const NO_IMAGES = mammoth.images.imgElement(() => Promise.resolve({ src: '' }));

export async function parseDocx(bytes: Uint8Array): Promise<ParsedDocument> {
  let html: string;
  try {
    const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    // externalFileAccess false: a document must not make the server read files it links to.
    ({ value: html } = await mammoth.convertToHtml(
      { buffer },
      { styleMap: STYLE_MAP, convertImage: NO_IMAGES, externalFileAccess: false },
    ));
  } catch (err) {
    throw new DocumentParseError('corrupt', `the DOCX could not be read: ${(err as Error).message}`, { cause: err });
  }
  const { blocks, title } = htmlToBlocks(html, { readability: false });
  return singlePage('docx', blocks, title);
}
