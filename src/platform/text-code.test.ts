import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { embeddingText, looksLikeCode, readableCode } from './text-code.ts';

const FN = [
  'def is_iterable(obj):',
  '    """Determine whether obj is iterable."""',
  '    # strings count too',
  '    return hasattr(obj, "__iter__")',
].join('\n');

describe('source code among memories (text-code.ts)', () => {
  it('tells code from prose by whole declaration shapes', () => {
    assert.equal(looksLikeCode(FN), true);
    assert.equal(looksLikeCode('function f(a) { return a; }'), true);
    assert.equal(looksLikeCode('import os\nprint(os.getcwd())'), true);
    assert.equal(looksLikeCode('const x = 1;'), true);
    for (const prose of [
      'I use Vim (mostly) and I live in Lisbon; it is great.',
      'Caroline: I moved to Denver in May.',
      'let me know: i moved to porto',
      'class tonight; we made sushi',
      'import duties went up',
    ])
      assert.equal(looksLikeCode(prose), false, prose);
  });

  it('embeds the words of code: names split, docstring, comments, identifiers', () => {
    assert.equal(
      readableCode(FN),
      'is iterable. Determine whether obj is iterable. strings count too. is iterable obj hasattr iter',
    );
    assert.equal(
      readableCode('function writeBoolean(n) { stream.write(n); }'),
      'write Boolean. write Boolean n stream write',
    );
    assert.equal(embeddingText('I live in Lisbon.'), 'I live in Lisbon.', 'prose is embedded as written');
    assert.equal(embeddingText(FN), readableCode(FN));
  });
});
