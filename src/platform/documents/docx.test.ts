/** DOCX made with the `docx` package: headings, a list, a table; and a damaged file. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Document, HeadingLevel, Packer, Paragraph, Table, TableCell, TableRow, TextRun } from 'docx';
import { DocumentParseError, parseDocument } from './index.ts';

const cell = (text: string) => new TableCell({ children: [new Paragraph(text)] });

async function makeDocx(): Promise<Uint8Array> {
  const doc = new Document({
    sections: [
      {
        children: [
          new Paragraph({ text: 'Project Plan', heading: HeadingLevel.TITLE }),
          new Paragraph({ text: 'Goals', heading: HeadingLevel.HEADING_1 }),
          new Paragraph({
            children: [new TextRun('Ship the '), new TextRun({ text: 'first', bold: true }), new TextRun(' release.')],
          }),
          new Paragraph({ text: 'Milestones', heading: HeadingLevel.HEADING_2 }),
          new Paragraph({ text: 'Design review', bullet: { level: 0 } }),
          new Paragraph({ text: 'Beta launch', bullet: { level: 0 } }),
          new Table({
            rows: [
              new TableRow({ children: [cell('Owner'), cell('Task')] }),
              new TableRow({
                children: [
                  cell('Ana'),
                  new TableCell({ children: [new Paragraph('Docs'), new Paragraph('and tests')] }),
                ],
              }),
            ],
          }),
          new Paragraph({ text: 'Risks', heading: HeadingLevel.HEADING_1 }),
          new Paragraph('Schedule slip.'),
        ],
      },
    ],
  });
  return new Uint8Array(await Packer.toBuffer(doc));
}

describe('DOCX', () => {
  it('reads headings with their levels, paragraphs, list items and table rows in order', async () => {
    const doc = await parseDocument(await makeDocx(), 'docx', { ocr: null, maxPages: 10 });
    assert.equal(doc.format, 'docx');
    assert.equal(doc.totalPages, 1);
    assert.equal(doc.title, 'Project Plan');
    assert.deepEqual(
      doc.blocks.map((b) => [b.kind, b.level, b.text]),
      [
        ['heading', 1, 'Project Plan'],
        ['heading', 1, 'Goals'],
        ['paragraph', undefined, 'Ship the first release.'],
        ['heading', 2, 'Milestones'],
        ['paragraph', undefined, 'Design review'],
        ['paragraph', undefined, 'Beta launch'],
        ['paragraph', undefined, 'Owner | Task'],
        ['paragraph', undefined, 'Ana | Docs and tests'],
        ['heading', 1, 'Risks'],
        ['paragraph', undefined, 'Schedule slip.'],
      ],
    );
    assert.ok(doc.blocks.every((b) => b.page === 1));
  });

  it('refuses a damaged file as corrupt', async () => {
    const bytes = await makeDocx();
    for (const broken of [
      bytes.subarray(0, bytes.length - 200),
      new TextEncoder().encode('PK\u0003\u0004 not a zip'),
    ]) {
      const err = await parseDocument(broken, 'docx', { ocr: null, maxPages: 10 }).catch((e: unknown) => e);
      assert.ok(err instanceof DocumentParseError, String(err));
      assert.equal(err.reason, 'corrupt');
    }
  });

  it('refuses a document without text as empty', async () => {
    const bytes = new Uint8Array(
      await Packer.toBuffer(new Document({ sections: [{ children: [new Paragraph('')] }] })),
    );
    const err = await parseDocument(bytes, 'docx', { ocr: null, maxPages: 10 }).catch((e: unknown) => e);
    assert.ok(err instanceof DocumentParseError && err.reason === 'empty', String(err));
  });
});
