import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { codeWords, codeWordsModel, committedCodeWords, type CodeWordsWeights } from './code-words.ts';

const cos = (a: Float32Array, b: Float32Array) => a.reduce((s, x, d) => s + x * b[d], 0);

describe('code words: the words read', () => {
  it('splits identifiers at case changes, underscores and digits, lower-cased', () => {
    assert.deepEqual(codeWords('def readFileAsJSON(path_name, int64, x):'), [
      'def',
      'read',
      'file',
      'as',
      'json',
      'path',
      'name',
      'int',
      '64',
    ]);
  });
  it('takes a plural s off long words only, and drops query stop words in queries', () => {
    assert.deepEqual(codeWords('class files bytes'), ['class', 'file', 'byte']);
    assert.deepEqual(codeWords('how to check if a variable is iterable in python', true), [
      'check',
      'variable',
      'iterable',
    ]);
  });
});

describe('code words: the committed model', () => {
  const model = committedCodeWords();
  it('gives unit vectors, and zero for a text of unknown words', () => {
    const v = model.vector('def copy_file(src, dst): shutil.copyfile(src, dst)');
    assert.ok(Math.abs(cos(v, v) - 1) < 1e-5);
    assert.equal(cos(model.vector('zzqx qqzv'), model.vector('zzqx qqzv')), 0);
  });
  it('puts a question nearer the function that answers it than an unrelated one, with no word shared', () => {
    // Neither function's name nor body says "duplicate" or "folder": the model knows what goes with them.
    const query = model.vector('duplicate a folder with everything inside', true);
    const copies = model.vector('def clone(src, dst):\n    shutil.copytree(src, dst, symlinks=True)');
    const parses = model.vector('def load(s):\n    return json.loads(s, object_hook=decode_hook)');
    assert.ok(cos(query, copies) > cos(query, parses) + 0.1, `${cos(query, copies)} vs ${cos(query, parses)}`);
  });
  it('reads int8 rows with their scale', () => {
    const w: CodeWordsWeights = {
      dim: 2,
      vocab: ['read', 'file'],
      idf: [1, 1],
      scale: [0.5, 1],
      rows: Buffer.from(new Int8Array([2, 0, 0, 3]).buffer).toString('base64'),
    };
    const m = codeWordsModel(w);
    assert.deepEqual([...m.vector('read')], [1, 0]);
    const both = m.vector('readFile');
    assert.ok(Math.abs(both[0] - 1 / Math.sqrt(10)) < 1e-6 && Math.abs(both[1] - 3 / Math.sqrt(10)) < 1e-6);
  });
});
