/** The layout rules on hand-placed text items: lines, spaces, paragraphs, headings and levels. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { blocksOf, bodySize, headingLevels, linesOf, type Line, type TextPiece } from './pdf-layout.ts';

/** An item at (x, y) in a 10-unit-per-character font of `size`. */
const item = (str: string, x: number, y: number, size = 10, hasEOL = false): TextPiece => ({
  str,
  x,
  y,
  width: str.length * size * 0.5,
  size,
  hasEOL,
});

const line = (text: string, y: number, size = 10, x = 72, page = 1): Line => ({ text, size, x, y, page });

describe('PDF layout', () => {
  it('groups items into lines by baseline and end-of-line marks, adding spaces at gaps', () => {
    const lines = linesOf(
      [
        item('Hello', 72, 700),
        item('world', 110, 700), // a gap wider than a space: a word break the PDF did not encode
        item('again', 72, 688), // next baseline
        item('', 72, 676, 10, true),
        item('same', 72, 676), // after an explicit end of line
        item('x', 100, 676.5, 6), // a superscript on the same line
      ],
      4,
    );
    assert.deepEqual(
      lines.map((l) => [l.text, l.page, l.size]),
      [
        ['Hello world', 4, 10],
        ['again', 4, 10],
        ['same x', 4, 10],
      ],
    );
  });

  it('weighs the body size by characters and gives distinct larger sizes levels', () => {
    const lines = [line('Title', 700, 24), line('Body text that is long', 680), line('Sub', 660, 14)];
    lines.push(line('more body text here', 640), line('Also sub', 620, 14.2), line('Tiny note', 600, 8));
    assert.equal(bodySize(lines), 10);
    assert.deepEqual(
      [...headingLevels(lines, 10)],
      [
        [24, 1],
        [14.2, 2], // within 5% of 14: the same level
        [14, 2],
      ],
    );
  });

  it('splits paragraphs on wide gaps and indents, joins wrapped lines, keeps a line-end hyphen', () => {
    const blocks = blocksOf([
      line('A heading that wraps', 760, 18),
      line('onto a second line', 740, 18),
      line('First paragraph is hyphen-', 700),
      line('ated across lines and a well-', 688),
      line('Known word stays apart.', 676),
      line('Indented start of the second paragraph', 664, 10, 90),
      line('continues here.', 652),
      line('After a gap.', 620),
      line('Top of page two.', 760, 10, 72, 2),
    ]);
    assert.deepEqual(
      blocks.map((b) => [b.kind, b.level, b.page, b.text]),
      [
        ['heading', 1, 1, 'A heading that wraps onto a second line'],
        ['paragraph', undefined, 1, 'First paragraph is hyphen-ated across lines and a well-Known word stays apart.'],
        ['paragraph', undefined, 1, 'Indented start of the second paragraph continues here.'],
        ['paragraph', undefined, 1, 'After a gap.'],
        ['paragraph', undefined, 2, 'Top of page two.'],
      ],
    );
  });

  it('keeps a long title wrapped over three lines, its last line only digits, as one heading', () => {
    const blocks = blocksOf([
      line('Trends in the incidence of a rare condition across thirty countries, with the', 780, 16),
      line('national registries of births, deaths and hospital admissions compared from', 760, 16),
      line('2015', 740, 16),
      ...Array.from({ length: 30 }, (_, i) => line('body text of the abstract', 700 - i * 12)),
    ]);
    assert.equal(blocks[0].kind, 'heading');
    assert.match(blocks[0].text, /compared from 2015$/);
    assert.equal(blocks[1].kind, 'paragraph');
  });

  it('does not take large print running over many lines, or a bare number, for a heading', () => {
    const big = Array.from({ length: 12 }, (_, i) => line('large print words go on and on', 700 - i * 20, 16));
    const blocks = blocksOf([
      line('42', 780, 30),
      ...big,
      ...Array.from({ length: 30 }, (_, i) => line('body', 400 - i * 12)),
    ]);
    assert.equal(blocks[0].kind, 'paragraph');
    assert.equal(blocks[1].kind, 'paragraph');
    assert.ok(blocks[1].text.length > 200);
  });
});
