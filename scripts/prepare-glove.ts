/**
 * Check that the GloVe table is reachable from MODELS_CACHE_DIR (its own copy, else the
 * install's prebuilt folder, which `npm install` / `npm run setup:models` fill: see
 * scripts/prepare-models.ts), and optionally fit SIF on a sample of your texts.
 *
 *   npx tsx scripts/prepare-glove.ts [cacheDir] [--fit sample.txt]
 *
 * cacheDir (MODELS_CACHE_DIR, where the fit is stored) defaults to DATA_DIR/models. `--fit`
 * reads one text per line (a few hundred lines of real memories is plenty); the fit changes
 * the embedder id, so run it before indexing or re-embed afterwards.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { loadConfig } from '../src/config.ts';
import { createGloveSifEmbedder } from '../src/platform/models/index.ts';

const args = process.argv.slice(2);
const fitAt = args.indexOf('--fit');
const fitFile = fitAt >= 0 ? args[fitAt + 1] : undefined;
if (fitAt >= 0 && !fitFile) throw new Error('--fit needs a file with one text per line');
const positional = fitAt >= 0 ? args.filter((_, i) => i !== fitAt && i !== fitAt + 1) : args;
const cacheDir = path.resolve(positional[0] ?? path.join(loadConfig().DATA_DIR, 'models'));

const started = performance.now();
const sif = createGloveSifEmbedder({ cacheDir });
const { dir } = await sif.load(); // a missing table throws, saying to run `npm run setup:models`
const seconds = ((performance.now() - started) / 1000).toFixed(2);
console.log(`GloVe table: read from ${dir} (${seconds} s)`);

if (fitFile) {
  const texts = (await readFile(fitFile, 'utf8')).split('\n').filter((line) => line.trim() !== '');
  const summary = await sif.fitCorpus(texts);
  console.log(
    `fitted SIF on ${summary.texts} texts (${summary.tokens} tokens, ${summary.distinctWords} words): id ${summary.id}`,
  );
}
