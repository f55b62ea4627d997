/** Chunking: examples for each rule, and properties over generated documents (fast-check). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { chunkDocument, type Block, type DocumentChunk, type ParsedDocument } from './index.ts';

const docOf = (blocks: Block[]): ParsedDocument => ({
  format: 'pdf',
  totalPages: Math.max(1, ...blocks.map((b) => b.page)),
  blocks,
  skippedPages: [],
  ocrPages: [],
});
const h = (level: number, text: string, page = 1): Block => ({ kind: 'heading', level, text, page });
const p = (text: string, page = 1): Block => ({ kind: 'paragraph', text, page });
const words = (text: string) => text.split(/\s+/).filter((w) => w !== '');

describe('chunkDocument', () => {
  it('keeps sections apart, heading first, with the heading path and pages', () => {
    const doc = docOf([
      p('Preface text.'),
      h(1, 'Part One'),
      p('Alpha paragraph.'),
      h(2, 'Chapter A', 2),
      p('Bravo paragraph.', 2),
      p('Charlie paragraph.', 3),
      h(1, 'Part Two', 3),
      p('Delta.', 4),
    ]);
    const chunks = chunkDocument(doc, { maxChars: 1000, hierarchical: true });
    assert.deepEqual(
      chunks.map((c) => [c.index, c.text, c.pageStart, c.pageEnd, c.section]),
      [
        [0, 'Preface text.', 1, 1, []],
        [1, 'Part One\n\nAlpha paragraph.', 1, 1, ['Part One']],
        [2, 'Chapter A\n\nBravo paragraph.\n\nCharlie paragraph.', 2, 3, ['Part One', 'Chapter A']],
        [3, 'Part Two\n\nDelta.', 3, 4, ['Part Two']],
      ],
    );
  });

  it('packs across headings when flat, the section being the path where a chunk starts', () => {
    const doc = docOf([
      p('Preface text.'),
      h(1, 'Part One'),
      p('Alpha paragraph.'),
      h(2, 'Chapter A', 2),
      p('Bravo.', 2),
    ]);
    const chunks = chunkDocument(doc, { maxChars: 45, hierarchical: false });
    assert.deepEqual(
      chunks.map((c) => [c.text, c.section, c.pageStart, c.pageEnd]),
      [
        ['Preface text.\n\nPart One\n\nAlpha paragraph.', [], 1, 1],
        // The heading would have fitted after "Alpha paragraph." but its paragraph not: it moves on.
        ['Chapter A\n\nBravo.', ['Part One', 'Chapter A'], 2, 2],
      ],
    );
  });

  it('splits a long paragraph between sentences, a long sentence between words, a long word anywhere', () => {
    const doc = docOf([
      p('First sentence here. Second sentence is a little longer. Third.'),
      p('averyveryverylongwordthatexceedsthebudget end'),
    ]);
    const chunks = chunkDocument(doc, { maxChars: 30, hierarchical: false });
    assert.deepEqual(
      chunks.map((c) => c.text),
      [
        'First sentence here.',
        'Second sentence is a little',
        'longer. Third.',
        'averyveryverylongwordthatexcee',
        'dsthebudget end',
      ],
    );
    assert.ok(chunks.every((c) => c.text.length <= 30));
  });

  it('never leaves a heading alone when its paragraph can start beside it', () => {
    const doc = docOf([h(1, 'Heading'), p('One two three four five. Six seven eight nine ten.')]);
    const chunks = chunkDocument(doc, { maxChars: 40, hierarchical: true });
    assert.deepEqual(
      chunks.map((c) => c.text),
      ['Heading\n\nOne two three four five.', 'Six seven eight nine ten.'],
    );
  });

  it('refuses a budget below one character', () => {
    assert.throws(() => chunkDocument(docOf([p('x')]), { maxChars: 0, hierarchical: true }), RangeError);
  });

  describe('properties over generated documents', () => {
    const word = fc.stringMatching(/^[a-z]{1,12}[.,]?$/);
    const text = fc.array(word, { minLength: 1, maxLength: 60 }).map((ws) => ws.join(' '));
    const block = fc.oneof(
      { arbitrary: text.map((t) => ({ kind: 'paragraph' as const, text: t })), weight: 4 },
      {
        arbitrary: fc
          .tuple(fc.integer({ min: 1, max: 4 }), text)
          .map(([level, t]) => ({ kind: 'heading' as const, level, text: t })),
        weight: 1,
      },
    );
    const doc = fc
      .tuple(
        fc.array(block, { minLength: 1, maxLength: 30 }),
        fc.array(fc.integer({ min: 0, max: 1 }), { minLength: 30, maxLength: 30 }),
      )
      .map(([blocks, steps]) => {
        let page = 1;
        return docOf(blocks.map((b, i) => ({ ...b, page: (page += steps[i]) })));
      });
    const budget = fc.integer({ min: 13, max: 400 }); // at least the longest word: no word is cut

    /** Each word of the blocks with its page, its section (a counter bumped at headings) and path. */
    function wordStream(d: ParsedDocument) {
      const out: { word: string; page: number; section: number; path: string[] }[] = [];
      let section = 0;
      let path: { level: number; text: string }[] = [];
      for (const b of d.blocks) {
        if (b.kind === 'heading') {
          section++;
          path = [...path.filter((x) => x.level < (b.level ?? 1)), { level: b.level ?? 1, text: b.text }];
        }
        for (const w of words(b.text)) out.push({ word: w, page: b.page, section, path: path.map((x) => x.text) });
      }
      return out;
    }

    /** Walks the chunks over the word stream: each chunk takes the next words, which must match. */
    function check(d: ParsedDocument, chunks: DocumentChunk[], max: number, hierarchical: boolean) {
      const stream = wordStream(d);
      let at = 0;
      chunks.forEach((c, i) => {
        assert.equal(c.index, i);
        assert.ok(c.text.trim() !== '', 'empty chunk');
        assert.ok(c.text.length <= max, `chunk of ${c.text.length} > ${max}`);
        const mine = stream.slice(at, at + words(c.text).length);
        assert.deepEqual(
          words(c.text),
          mine.map((x) => x.word),
          'words lost, repeated or reordered',
        );
        assert.equal(c.pageStart, Math.min(...mine.map((x) => x.page)));
        assert.equal(c.pageEnd, Math.max(...mine.map((x) => x.page)));
        assert.deepEqual(c.section, mine[0].path);
        if (hierarchical) {
          assert.ok(
            mine.every((x) => x.section === mine[0].section),
            'a chunk spans two sections',
          );
          const startsSection = at === 0 || stream[at - 1].section !== mine[0].section;
          const heading = d.blocks.filter((b) => b.kind === 'heading')[mine[0].section - 1];
          if (startsSection && heading && heading.text.length <= max) {
            assert.equal(c.text.split('\n')[0], heading.text, 'the section does not start with its heading');
          }
        }
        at += mine.length;
      });
      assert.equal(at, stream.length, 'words left over');
    }

    for (const hierarchical of [true, false]) {
      it(`keeps the budget, every word once and in order, pages and sections (hierarchical ${hierarchical})`, () => {
        fc.assert(
          fc.property(doc, budget, (d, max) =>
            check(d, chunkDocument(d, { maxChars: max, hierarchical }), max, hierarchical),
          ),
          { numRuns: 300 },
        );
      });
    }
  });
});
