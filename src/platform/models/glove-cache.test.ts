import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { EmbedderError } from './embedder.ts';
import { loadGloveTable } from './glove-cache.ts';
import { readTopWords } from './glove-convert.ts';
import { gloveTokenIds } from './glove-tokenize.ts';

/** A miniature file in the wink-embeddings layout: vectors out of rank order, awkward keys. */
function winkJson(): string {
  const words = ['the', '"', 'a\\b', 'cat', 'dog'];
  const vec = (rank: number) => [rank + 0.5, -rank, 0.25, 9.99, rank]; // 3 dims + l2norm + wordIndex
  const entries = [4, 1, 0, 3, 2].map((r) => `${JSON.stringify(words[r])}:${JSON.stringify(vec(r))}`);
  return (
    `{"precision":8,"l2NormIndex":3,"wordIndex":4,"size":5,"dimensions":3,"words":${JSON.stringify(words)},` +
    `"vectors":{${entries.join(',')}},"unkVector":[0,0,0,0,-1]}\n`
  );
}

describe('GloVe cache', () => {
  const dirs: string[] = [];
  const tempDir = async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'engram-glove-'));
    dirs.push(dir);
    return dir;
  };
  after(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

  it('extracts the most frequent words by rank, honouring escaped keys, across any chunk boundary', async () => {
    const dir = await tempDir();
    const source = path.join(dir, 'wink.json');
    await writeFile(source, winkJson());
    for (const chunkBytes of [1, 7, 64, 1 << 20]) {
      const { words, vectors, dimensions, sourceSize } = await readTopWords(source, 3, chunkBytes);
      assert.deepEqual(words, ['the', '"', 'a\\b']);
      assert.equal(dimensions, 3);
      assert.equal(sourceSize, 5);
      assert.deepEqual(Array.from(vectors), [0.5, 0, 0.25, 1.5, -1, 0.25, 2.5, -2, 0.25], `chunk ${chunkBytes}`);
    }
  });

  it('rejects a source that lacks vectors for the wanted words', async () => {
    const dir = await tempDir();
    const source = path.join(dir, 'wink.json');
    await writeFile(source, winkJson().replace('"cat":', '"cow":'));
    await assert.rejects(
      readTopWords(source, 5),
      (err: unknown) => err instanceof EmbedderError && /claims rank 3/.test(err.message),
    );
  });

  it('converts once, then loads the cache without the source', async () => {
    const dir = await tempDir();
    const source = path.join(dir, 'wink.json');
    await writeFile(source, winkJson());
    const cold = await loadGloveTable(path.join(dir, 'cache'), { sourcePath: source, maxWords: 4 });
    assert.equal(cold.converted, true);
    assert.deepEqual(cold.table.words, ['the', '"', 'a\\b', 'cat']);
    assert.equal(cold.table.index.get('cat'), 3);
    assert.equal(cold.table.vectors[3 * 3], 3.5);
    assert.equal(cold.table.sourceVocabularySize, 5);

    await rm(source);
    const warm = await loadGloveTable(path.join(dir, 'cache'), { sourcePath: source, maxWords: 4 });
    assert.equal(warm.converted, false);
    assert.deepEqual(Array.from(warm.table.vectors), Array.from(cold.table.vectors));
    const meta = JSON.parse(await readFile(path.join(dir, 'cache', 'glove-100d-4.json'), 'utf8'));
    assert.equal(meta.words, 4);
    assert.match(meta.sha256, /^[0-9a-f]{64}$/);
  });

  it('rebuilds a damaged cache instead of using it', async () => {
    const dir = await tempDir();
    const source = path.join(dir, 'wink.json');
    await writeFile(source, winkJson());
    await loadGloveTable(dir, { sourcePath: source, maxWords: 4 });
    await truncate(path.join(dir, 'glove-100d-4.f32'), 20);
    const again = await loadGloveTable(dir, { sourcePath: source, maxWords: 4 });
    assert.equal(again.converted, true);
    assert.equal(again.table.vectors.length, 12);
  });

  it('names the missing source file', async () => {
    const dir = await tempDir();
    await assert.rejects(loadGloveTable(dir, { sourcePath: path.join(dir, 'nope.json') }), (err: unknown) => {
      assert.ok(err instanceof EmbedderError);
      assert.equal(err.code, 'model_missing');
      assert.match(err.message, /nope\.json/);
      return true;
    });
  });
});

describe('GloVe tokenisation', () => {
  const vocab = ['the', 'do', 'ca', 'state-of-the-art', 'state', 'art', 'x', 'ray', 'cafe', 'smith', 'brien', 'gonna'];
  const index = new Map(vocab.map((w, i) => [w, i]));
  const words = (text: string) => gloveTokenIds(text, index).map((i) => vocab[i]);

  it('lowercases, folds accents and splits punctuation', () => {
    assert.deepEqual(words('The CAFÉ, the café!'), ['the', 'cafe', 'the', 'cafe']);
  });
  it("rebuilds GloVe's PTB stems of clitics", () => {
    assert.deepEqual(words("Don't! Can't. Smith's O'Brien gonna"), ['do', 'ca', 'smith', 'brien', 'gonna']);
    assert.deepEqual(words('Smith’s'), ['smith']);
  });
  it('keeps known hyphenated compounds whole and splits unknown ones', () => {
    assert.deepEqual(words('state-of-the-art x-ray'), ['state-of-the-art', 'x', 'ray']);
  });
  it('skips numbers and unknown words', () => {
    assert.deepEqual(words('42 zzyzx 3.5'), []);
  });
});
