/**
 * GloVe SIF sentence embeddings: the SIF-weighted average of GloVe 100-d word vectors
 * (weight a / (a + p(w)), a = 1e-3), minus its projection on the corpus's common component,
 * L2-normalised. Cheap (thousands of texts/s) and, fused with BM25 and USE lite, a
 * measurable gain (ARCHITECTURE §7). See sif-fit.ts for how p(w) and the component are chosen.
 */
import { readFileSync } from 'node:fs';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { EmbedderError, fallbackVector, type Embedder } from './embedder.ts';
import { loadGloveTable, type GloveTable, type LoadedGloveTable } from './glove-cache.ts';
import { gloveTokenIds } from './glove-tokenize.ts';
import {
  countTokens,
  firstPrincipalComponent,
  fitFingerprint,
  PRIOR_TOKENS,
  sifWeights,
  type SifFit,
} from './sif-fit.ts';

/** Options for {@link createGloveSifEmbedder}. */
export interface GloveSifOptions {
  /**
   * MODELS_CACHE_DIR: where the corpus fit lives, and the GloVe table if one is put there;
   * otherwise the table is read in place from the install's prebuilt folder (glove-cache.ts).
   */
  cacheDir: string;
  /** Words kept from the source, most frequent first (default 100,000, the size the install step builds). */
  maxWords?: number;
  /** A wink JSON to convert into `cacheDir` if it holds no table (tests); nothing is converted without it. */
  sourcePath?: string;
  /** The install-time folder read after `cacheDir`; default `$ENGRAM_MODELS_PREBUILT_DIR` or `<repo>/.cache/models`. */
  prebuiltDir?: string;
  /** SIF smoothing constant a (default 1e-3, the paper's recommended range). */
  a?: number;
}

/** What {@link GloveSifEmbedder.fitCorpus} learned. */
export interface SifFitSummary {
  /** The embedder's id after the fit (vectors stored under the old id need re-embedding). */
  id: string;
  texts: number;
  tokens: number;
  distinctWords: number;
}

/** A GloVe SIF embedder; the table loads lazily on first use, or eagerly via `load()`. */
export interface GloveSifEmbedder extends Embedder {
  /**
   * 'glove-sif-100' until a corpus fit exists, then 'glove-sif-100@<fingerprint>': the
   * fit changes every vector, so the id changes with it and stored vectors are detected
   * as another model's rather than silently compared across spaces.
   */
  readonly id: string;
  /**
   * Load the GloVe table now; `dir` is the folder it was read from, `converted` is true when it
   * was just built from `sourcePath`. Throws EmbedderError('model_missing') when no folder has it.
   */
  load(): Promise<{ converted: boolean; dir: string }>;
  /**
   * Fit word probabilities and the common component on a sample of indexed texts
   * (≥ 20 texts; a few hundred is plenty), persist the fit in the cache dir and use it
   * from now on, here and in every process started later with the same cache dir.
   */
  fitCorpus(texts: string[]): Promise<SifFitSummary>;
}

const DIMENSIONS = 100;
const BASE_ID = 'glove-sif-100';
const MIN_FIT_TEXTS = 20;

/** Build a GloVe SIF embedder over `cacheDir`. Reads only the small fit file synchronously. */
export function createGloveSifEmbedder(options: GloveSifOptions): GloveSifEmbedder {
  const a = options.a ?? 1e-3;
  const maxWords = options.maxWords ?? 100_000;
  // Non-default settings change every vector, so they are part of the id (and of the fit's file).
  const baseId = `${BASE_ID}${a === 1e-3 ? '' : `-a${a}`}${maxWords === 100_000 ? '' : `-w${maxWords}`}`;
  const fitPath = path.join(options.cacheDir, `${baseId}.fit.json`);
  let fit = readFit(fitPath);
  let weights: Float32Array | null = null; // derived from table + fit; rebuilt after a fit
  let loading: Promise<LoadedGloveTable> | null = null;

  const idFor = (f: SifFit | null) => (f ? `${baseId}@${fitFingerprint(f)}` : baseId);
  let id = idFor(fit); // cached: hashing the fit on every read would cost per query

  function ensureLoaded() {
    const { cacheDir, sourcePath, prebuiltDir } = options;
    loading ??= loadGloveTable(cacheDir, { maxWords, sourcePath, prebuiltDir }).catch((err) => {
      loading = null; // allow a retry (e.g. after `npm run setup:models`)
      throw err;
    });
    return loading;
  }

  /** Unnormalised SIF average of a text's in-vocabulary words; null when it has none. */
  function average(table: GloveTable, w: Float32Array, ids: number[]): Float64Array | null {
    if (ids.length === 0) return null;
    const v = new Float64Array(DIMENSIONS);
    for (const rank of ids) {
      const weight = w[rank];
      const row = table.rows.row(rank);
      for (let d = 0; d < DIMENSIONS; d++) v[d] += weight * row[d];
    }
    for (let d = 0; d < DIMENSIONS; d++) v[d] /= ids.length;
    return v;
  }

  function finish(v: Float64Array, component: number[] | undefined): number[] {
    if (component) {
      let proj = 0;
      for (let d = 0; d < DIMENSIONS; d++) proj += v[d] * component[d];
      for (let d = 0; d < DIMENSIONS; d++) v[d] -= proj * component[d];
    }
    let sum = 0;
    for (let d = 0; d < DIMENSIONS; d++) sum += v[d] * v[d];
    const inv = sum > 0 ? 1 / Math.sqrt(sum) : 0;
    return Array.from(v, (x) => x * inv);
  }

  return {
    get id() {
      return id;
    },
    dimensions: DIMENSIONS,
    // No hard limit (it is an average), but long texts blur; chunk like the other embedders.
    maxTokens: 512,
    async load() {
      const { converted, dir } = await ensureLoaded();
      return { converted, dir };
    },
    async embed(texts) {
      if (texts.length === 0) return [];
      const { table } = await ensureLoaded();
      weights ??= sifWeights(table.words.length, table.sourceVocabularySize, a, fit ?? undefined);
      return texts.map((text) => {
        const v = average(table, weights!, gloveTokenIds(text, table.index));
        // No known word (empty, numbers only, another script): a text-specific unit vector
        // that only matches the same text, instead of a zero vector pgvector cannot compare.
        if (!v || v.every((x) => x === 0)) return fallbackVector(text, DIMENSIONS);
        return finish(v, fit?.component);
      });
    },
    async fitCorpus(texts) {
      const { table } = await ensureLoaded();
      const samples = texts.map((t) => gloveTokenIds(t, table.index)).filter((ids) => ids.length > 0);
      if (samples.length < MIN_FIT_TEXTS) {
        throw new EmbedderError(
          'invalid_input',
          `fitCorpus needs at least ${MIN_FIT_TEXTS} texts with known words, got ${samples.length}`,
        );
      }
      const { counts, tokens } = countTokens(samples);
      const draft = { counts, tokens, priorTokens: PRIOR_TOKENS };
      const fittedWeights = sifWeights(table.words.length, table.sourceVocabularySize, a, draft);
      const rows = samples.map((ids) => average(table, fittedWeights, ids)!);
      const next: SifFit = {
        format: 1,
        ...draft,
        texts: samples.length,
        component: firstPrincipalComponent(rows, DIMENSIONS),
        fittedAt: new Date().toISOString(),
      };
      await writeFit(fitPath, next);
      fit = next;
      weights = fittedWeights;
      id = idFor(next);
      return { id, texts: next.texts, tokens, distinctWords: counts.length };
    },
  };
}

function readFit(file: string): SifFit | null {
  let raw: string;
  try {
    raw = readFileSync(file, 'utf8');
  } catch {
    return null; // never fitted: Zipf prior, no component
  }
  let fit: SifFit | null = null;
  try {
    fit = JSON.parse(raw) as SifFit;
  } catch {
    // reported below
  }
  if (fit?.format !== 1 || fit.component?.length !== DIMENSIONS || !Array.isArray(fit.counts)) {
    // Failing loudly beats silently falling back to the unfitted space under a new id.
    throw new EmbedderError('model_missing', `GloVe SIF fit ${file} is damaged; delete it and fit again`);
  }
  return fit;
}

async function writeFit(file: string, fit: SifFit): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const tmp = `${file}.tmp-${process.pid}-${Date.now()}`;
  await writeFile(tmp, JSON.stringify(fit));
  await rename(tmp, file); // atomic: other processes never read a half-written fit
}
