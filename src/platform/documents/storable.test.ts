import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { storable } from './storable.ts';

describe('storable', () => {
  it('drops NUL (pdf.js’s unmapped glyph; PostgreSQL refuses it), blanks other controls, keeps tab and newline', () => {
    const doc = storable({
      format: 'pdf',
      totalPages: 1,
      blocks: [
        { kind: 'heading', level: 1, text: 'Stray\u0000 glyph', page: 1 },
        { kind: 'paragraph', text: 'A\u0096dash and\ta\nquote\u0094.', page: 1 },
        { kind: 'paragraph', text: '\u0000\u0001 ', page: 1 },
      ],
      skippedPages: [],
      ocrPages: [],
      title: 'T\u0000itle',
    });
    assert.deepEqual(
      doc.blocks.map((b) => b.text),
      ['Stray glyph', 'A dash and\ta\nquote .'],
    );
    assert.equal(doc.title, 'Title');
  });
});
