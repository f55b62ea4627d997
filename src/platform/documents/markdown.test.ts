/** Markdown and plain text: blocks from the syntax tree; paragraphs on blank lines. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DocumentParseError, parseDocument, type DocumentFormat } from './index.ts';

const parse = (text: string, format: DocumentFormat) =>
  parseDocument(new TextEncoder().encode(text), format, { ocr: null, maxPages: 10 });

const MARKDOWN = `Intro before any heading.

# Field Guide

Birds are **warm-blooded** vertebrates
with feathers, and [most](https://example.org) can fly.

## Identification

- Look at the *beak*
- Listen to the song
  1. morning chorus
  2. alarm calls

> Patience is the birder's
> best tool.

\`\`\`js
const seen = ['robin'];
\`\`\`

Line one\\
line two <span>inline html</span>

<div class="note"><p>Raw <b>HTML</b> block</p></div>

---

### Notes
Final words.
`;

describe('Markdown', () => {
  it('reads headings with their depth and the text of paragraphs, lists, quotes, code and HTML', async () => {
    const doc = await parse(MARKDOWN, 'markdown');
    assert.equal(doc.format, 'markdown');
    assert.equal(doc.title, 'Field Guide');
    assert.deepEqual(
      doc.blocks.map((b) => [b.kind, b.level, b.text]),
      [
        ['paragraph', undefined, 'Intro before any heading.'],
        ['heading', 1, 'Field Guide'],
        ['paragraph', undefined, 'Birds are warm-blooded vertebrates with feathers, and most can fly.'],
        ['heading', 2, 'Identification'],
        ['paragraph', undefined, 'Look at the beak'],
        ['paragraph', undefined, 'Listen to the song'],
        ['paragraph', undefined, 'morning chorus'],
        ['paragraph', undefined, 'alarm calls'],
        ['paragraph', undefined, "Patience is the birder's best tool."],
        ['paragraph', undefined, "const seen = ['robin'];"],
        ['paragraph', undefined, 'Line one\nline two inline html'],
        ['paragraph', undefined, 'Raw HTML block'],
        ['heading', 3, 'Notes'],
        ['paragraph', undefined, 'Final words.'],
      ],
    );
    assert.ok(doc.blocks.every((b) => b.page === 1));
  });

  it('refuses a document of only markup as empty', async () => {
    const err = await parse('---\n\n<!-- nothing -->\n', 'markdown').catch((e: unknown) => e);
    assert.ok(err instanceof DocumentParseError && err.reason === 'empty', String(err));
  });
});

describe('Text', () => {
  it('splits paragraphs on blank lines, keeps line breaks inside them, and finds no headings', async () => {
    const doc = await parse(
      '\uFEFFDear Sam,\r\n\r\nThe parcel arrived\r\non Tuesday.\n \n\n\n  Indented close.\n',
      'text',
    );
    assert.deepEqual(doc, {
      format: 'text',
      totalPages: 1,
      blocks: [
        { kind: 'paragraph', text: 'Dear Sam,', page: 1 },
        { kind: 'paragraph', text: 'The parcel arrived\non Tuesday.', page: 1 },
        { kind: 'paragraph', text: 'Indented close.', page: 1 },
      ],
      skippedPages: [],
      ocrPages: [],
    });
  });

  it('refuses blank text as empty, and bytes that are not text as corrupt', async () => {
    const blank = await parse(' \n\n\t\n', 'text').catch((e: unknown) => e);
    assert.ok(blank instanceof DocumentParseError && blank.reason === 'empty');
    const binary = await parseDocument(new Uint8Array([0xc3, 0x28, 0x00, 0xff]), 'text', {
      ocr: null,
      maxPages: 1,
    }).catch((e: unknown) => e);
    assert.ok(binary instanceof DocumentParseError && binary.reason === 'corrupt');
  });

  it('reports one page of progress, and honours an aborted signal', async () => {
    const progress: number[][] = [];
    const bytes = new TextEncoder().encode('hello');
    await parseDocument(bytes, 'text', { ocr: null, maxPages: 1, onPage: (d, t) => progress.push([d, t]) });
    assert.deepEqual(progress, [[1, 1]]);
    const reason = new Error('stop');
    await assert.rejects(
      parseDocument(bytes, 'text', { ocr: null, maxPages: 1, signal: AbortSignal.abort(reason) }),
      (e) => e === reason,
    );
  });
});
