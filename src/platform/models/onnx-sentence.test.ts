import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { EmbedderError } from './embedder.ts';
import { createOnnxSentenceEmbedder } from './onnx-sentence.ts';

// ../shared/models beside the repository holds the all-MiniLM-L6-v2 tokenizer, not its weights.
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const sharedModels = path.resolve(repoRoot, '../shared/models');
const haveTokenizer = existsSync(path.join(sharedModels, 'all-MiniLM-L6-v2', 'tokenizer.json'));
const tokenizerFiles = [
  'config.json',
  'tokenizer.json',
  'tokenizer_config.json',
  'special_tokens_map.json',
  'vocab.txt',
];

describe('ONNX sentence embedder', { skip: haveTokenizer ? false : `no tokenizer at ${sharedModels}` }, () => {
  const fetchCalls: string[] = [];
  const savedFetch = globalThis.fetch;
  let scratch = '';
  before(async () => {
    // Offline means offline: any hub request would show up here.
    globalThis.fetch = (async (url: unknown) => {
      fetchCalls.push(String(url));
      throw new Error('network disabled in this test');
    }) as typeof fetch;
    scratch = await mkdtemp(path.join(tmpdir(), 'engram-onnx-'));
  });
  after(async () => {
    globalThis.fetch = savedFetch;
    await rm(scratch, { recursive: true, force: true });
  });

  it('reads dimensions from config.json and names the model and dtype in its id', () => {
    const e = createOnnxSentenceEmbedder({ modelsDir: sharedModels, model: 'all-MiniLM-L6-v2' });
    assert.equal(e.id, 'onnx:all-MiniLM-L6-v2:q8');
    assert.equal(e.dimensions, 384);
    assert.equal(e.maxTokens, 256);
  });

  it('loads the tokenizer from the models dir and counts word pieces', async () => {
    const e = createOnnxSentenceEmbedder({ modelsDir: sharedModels, model: 'all-MiniLM-L6-v2' });
    await e.loadTokenizer();
    assert.equal(await e.countTokens('This is an example sentence'), 7); // [CLS] this is an example sentence [SEP]
    // [CLS] token ##ization splits unfamiliar words [SEP]: word pieces, not words.
    assert.equal(await e.countTokens('Tokenization splits unfamiliar words'), 7);
    assert.deepEqual(fetchCalls, []);
  });

  for (const [dtype, file] of [
    ['q8', 'onnx/model_quantized.onnx'],
    ['fp32', 'onnx/model.onnx'],
  ] as const) {
    it(`fails to load (${dtype}) with an error naming the missing ${file}`, async () => {
      const e = createOnnxSentenceEmbedder({ modelsDir: sharedModels, model: 'all-MiniLM-L6-v2', dtype });
      for (const attempt of [() => e.load(), () => e.embed(['hello'])]) {
        await assert.rejects(attempt(), (err: unknown) => {
          assert.ok(err instanceof EmbedderError);
          assert.equal(err.code, 'model_missing');
          assert.ok(err.message.includes(path.join(sharedModels, 'all-MiniLM-L6-v2', file)), err.message);
          assert.match(err.message, /sha256 [0-9a-f]{64}/);
          return true;
        });
      }
      assert.deepEqual(fetchCalls, []);
    });
  }

  it('refuses weights whose sha256 does not match the published table', async () => {
    const dir = path.join(scratch, 'all-MiniLM-L6-v2');
    await mkdir(path.join(dir, 'onnx'), { recursive: true });
    for (const f of tokenizerFiles) await copyFile(path.join(sharedModels, 'all-MiniLM-L6-v2', f), path.join(dir, f));
    await writeFile(path.join(dir, 'onnx', 'model_quantized.onnx'), 'not really an onnx model');
    const e = createOnnxSentenceEmbedder({ modelsDir: scratch, model: 'all-MiniLM-L6-v2' });
    await assert.rejects(e.load(), (err: unknown) => {
      assert.ok(err instanceof EmbedderError);
      assert.equal(err.code, 'checksum_mismatch');
      assert.match(err.message, /expected afdb6f1a0e45b715/);
      return true;
    });
  });

  it('reports a wrong models dir at construction', () => {
    assert.throws(
      () => createOnnxSentenceEmbedder({ modelsDir: path.join(scratch, 'nowhere'), model: 'all-MiniLM-L6-v2' }),
      (err: unknown) =>
        err instanceof EmbedderError && err.code === 'model_missing' && /config\.json/.test(err.message),
    );
  });
});
