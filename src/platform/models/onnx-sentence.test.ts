import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { EmbedderError, fallbackVector, normalize } from './embedder.ts';
import { GraphBuilder } from './onnx-graph.ts';
import { DataType, encodeModel, type OnnxValue } from './onnx-proto.ts';
import { createOnnxSentenceEmbedder, type OnnxSentenceOptions } from './onnx-sentence.ts';

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

/**
 * Token ids captured from the previous implementation (transformers.js 4.3.1, AutoTokenizer on
 * the same tokenizer files, `truncation: true, max_length: 256`) before the switch to
 * @huggingface/tokenizers: the ids must stay what they were, or stored vectors would drift.
 */
const TRANSFORMERS_JS_IDS: [string, number[]][] = [
  ['This is an example sentence', [101, 2023, 2003, 2019, 2742, 6251, 102]],
  ['', [101, 102]],
  ['HELLO World, how are YOU?', [101, 7592, 2088, 1010, 2129, 2024, 2017, 1029, 102]],
  ["don't can't won't it's", [101, 2123, 1005, 1056, 2064, 1005, 1056, 2180, 1005, 1056, 2009, 1005, 1055, 102]],
  ['Café naïve résumé Ångström', [101, 7668, 15743, 13746, 17076, 15687, 102]],
  ['e\u0301 combining accent vs é', [101, 1041, 11566, 9669, 5443, 1041, 102]],
  ['東京は日本の首都です。', [101, 1879, 1755, 1672, 1864, 1876, 1671, 100, 1961, 1665, 30184, 1636, 102]],
  [
    'Привет, мир! Straße groß',
    [101, 1194, 16856, 10325, 25529, 15290, 22919, 1010, 1191, 10325, 16856, 999, 2358, 27807, 24665, 2080, 19310, 102],
  ],
  ['I love 🍕 and 🚀! 👩‍👩‍👧 family', [101, 1045, 2293, 100, 1998, 100, 999, 100, 2155, 102]],
  [
    'zero\u200bwidth\u00a0nbsp\u0000null\u0007bell',
    [101, 5717, 9148, 11927, 2232, 1050, 5910, 2361, 11231, 3363, 17327, 102],
  ],
  ['[CLS] literal [SEP] tokens [MASK] and [PAD] [UNK]', [101, 101, 18204, 102, 19204, 2015, 103, 1998, 0, 100, 102]],
  ['a'.repeat(150), [101, 100, 102]], // longer than max_input_chars_per_word
];

const LONG_ENGLISH = Array.from(
  { length: 60 },
  (_, i) => `Sentence number ${i} talks about memory services and agents.`,
).join(' ');
const LONG_UNICODE = 'Café naïve résumé — 東京は日本の首都です。 Привет, мир! 🍕🚀 '.repeat(30);

/** Token counts (before truncation) transformers.js gave for further texts. */
const TRANSFORMERS_JS_COUNTS: [string, number][] = [
  ['   ', 2],
  ['\t\n', 2],
  ['Tokenization splits unfamiliar words', 7],
  ['서울은 한국의 수도입니다', 29],
  ['Γειά σου Κόσμε, नमस्ते दुनिया, مرحبا بالعالم', 35],
  ['https://example.com/path?q=1&x=2 user@mail.org #hashtag @mention', 29],
  ['const x = foo(bar[0]) + 42; // 3.14159e-10', 25],
  ['supercalifragilisticexpialidocious antidisestablishmentarianism', 21],
  [LONG_ENGLISH, 602],
  [LONG_UNICODE, 812],
];

const HIDDEN = 8;

/** A deterministic embedding table (float32, distinct rows) for the toy model. */
function embeddingTable(vocab: number): Float32Array {
  const table = new Float32Array(vocab * HIDDEN);
  for (let i = 0; i < vocab; i++) {
    for (let d = 0; d < HIDDEN; d++) table[i * HIDDEN + d] = Math.sin(i * 0.37 + d * 1.3) + (d - 3.5) * 0.05;
  }
  return table;
}

/**
 * A toy "transformer": last hidden state = the table row of each token, so the adapter's
 * pooling can be checked in JS. token_type_ids (when the graph takes them) are added to the
 * ids, so anything but zeros would pick other rows.
 */
function toyModel(table: Float32Array, { tokenTypes, output }: { tokenTypes: boolean; output: string }): Uint8Array {
  const g = new GraphBuilder();
  const weights = g.floats('embeddings', [table.length / HIDDEN, HIDDEN], table);
  const index = tokenTypes ? g.op('Add', ['input_ids', 'token_type_ids']) : 'input_ids';
  g.op('Gather', [weights, index], { axis: 0 }, output);
  const tokens = (name: string): OnnxValue => ({ name, dataType: DataType.INT64, dims: ['batch', 'tokens'] });
  const inputs = [tokens('input_ids'), tokens('attention_mask'), ...(tokenTypes ? [tokens('token_type_ids')] : [])];
  return encodeModel(
    g.model({
      name: 'toy-sentence-model',
      opset: 17,
      producer: 'engram-test',
      inputs,
      outputs: [{ name: output, dataType: DataType.FLOAT, dims: ['batch', 'tokens', HIDDEN] }],
    }),
  );
}

/** Mean of the table rows of `ids`, unit length: what mean pooling + normalisation must give. */
function expectedVector(table: Float32Array, ids: number[]): number[] {
  const v = new Array<number>(HIDDEN).fill(0);
  for (const id of ids) for (let d = 0; d < HIDDEN; d++) v[d] += table[id * HIDDEN + d];
  return normalize(v.map((x) => x / ids.length));
}

function assertClose(actual: number[], expected: number[], message?: string): void {
  assert.equal(actual.length, expected.length, message);
  actual.forEach((x, d) =>
    assert.ok(Math.abs(x - expected[d]) < 1e-6, `${message ?? ''} [${d}] ${x} vs ${expected[d]}`),
  );
}

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

  it('gives the token ids transformers.js gave', async () => {
    const e = createOnnxSentenceEmbedder({ modelsDir: sharedModels, model: 'all-MiniLM-L6-v2' });
    for (const [text, ids] of TRANSFORMERS_JS_IDS) {
      assert.deepEqual(await e.tokenIds(text), ids, JSON.stringify(text));
      assert.equal(await e.countTokens(text), ids.length);
    }
    for (const [text, count] of TRANSFORMERS_JS_COUNTS) assert.equal(await e.countTokens(text), count, text);
  });

  // transformers.js 4.3.1 cut the ids at maxLength and so lost [SEP]; the Python tokenizers that
  // sentence-transformers trains and runs with keep it, and so does the adapter now.
  it('truncates long texts to maxLength, keeping [CLS] and [SEP]', async () => {
    const e = createOnnxSentenceEmbedder({ modelsDir: sharedModels, model: 'all-MiniLM-L6-v2' });
    const whole = createOnnxSentenceEmbedder({ modelsDir: sharedModels, model: 'all-MiniLM-L6-v2', maxLength: 4096 });
    for (const text of [LONG_ENGLISH, LONG_UNICODE]) {
      const ids = await e.tokenIds(text);
      const all = await whole.tokenIds(text);
      assert.equal(ids.length, 256);
      assert.deepEqual([ids[0], ids.at(-1)], [101, 102]);
      assert.deepEqual(ids.slice(0, 255), all.slice(0, 255)); // the first 254 word pieces, in order
      assert.equal(all.length, await e.countTokens(text));
    }
    const short = createOnnxSentenceEmbedder({ modelsDir: sharedModels, model: 'all-MiniLM-L6-v2', maxLength: 5 });
    assert.deepEqual(await short.tokenIds('This is an example sentence'), [101, 2023, 2003, 2019, 102]);
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
  describe('forward pass on a toy ONNX model', () => {
    let table: Float32Array = new Float32Array(0);
    /** Write <scratch>/<model>/ with the tokenizer files, hidden_size 8 and the toy weights. */
    async function toyFolder(model: string, graph: { tokenTypes: boolean; output: string }) {
      const dir = path.join(scratch, model);
      await mkdir(path.join(dir, 'onnx'), { recursive: true });
      for (const f of tokenizerFiles) await copyFile(path.join(sharedModels, 'all-MiniLM-L6-v2', f), path.join(dir, f));
      await writeFile(path.join(dir, 'config.json'), JSON.stringify({ model_type: 'bert', hidden_size: HIDDEN }));
      const bytes = toyModel(table, graph);
      await writeFile(path.join(dir, 'onnx', 'model.onnx'), bytes);
      const options: OnnxSentenceOptions = {
        modelsDir: scratch,
        model,
        dtype: 'fp32',
        sha256: createHash('sha256').update(bytes).digest('hex'),
      };
      return options;
    }
    let withTypes: OnnxSentenceOptions;
    let withoutTypes: OnnxSentenceOptions;
    before(async () => {
      const config = JSON.parse(await readFile(path.join(sharedModels, 'all-MiniLM-L6-v2', 'config.json'), 'utf8')) as {
        vocab_size: number;
      };
      table = embeddingTable(config.vocab_size); // the tokenizer's ids all index it
      withTypes = await toyFolder('toy-bert', { tokenTypes: true, output: 'last_hidden_state' });
      withoutTypes = await toyFolder('toy-no-types', { tokenTypes: false, output: 'hidden' });
    });

    const texts = [
      'This is an example sentence',
      'Short',
      '東京は日本の首都です。 Привет, мир! 🍕',
      '[PAD] is a literal token here',
      LONG_ENGLISH,
    ];

    const variants = [
      { label: 'with token_type_ids', options: () => withTypes },
      { label: 'without token_type_ids, output not named last_hidden_state', options: () => withoutTypes },
    ];
    for (const variant of variants) {
      it(`mean-pools the hidden states over the attention mask and normalises (${variant.label})`, async () => {
        const options = variant.options();
        const e = createOnnxSentenceEmbedder({ ...options, batchSize: 2 });
        assert.equal(e.dimensions, HIDDEN);
        assert.equal(e.id, `onnx:${options.model}:fp32`);
        await e.load();
        const vectors = await e.embed(texts);
        assert.equal(vectors.length, texts.length);
        for (const [k, text] of texts.entries()) {
          const ids = await e.tokenIds(text);
          assertClose(vectors[k], expectedVector(table, ids), text.slice(0, 30));
          assert.ok(Math.abs(Math.hypot(...vectors[k]) - 1) < 1e-9);
        }
        // Padding in a mixed-length batch changes nothing: each text alone gives the same vector.
        for (const [k, text] of texts.entries()) assertClose((await e.embed([text]))[0], vectors[k], text.slice(0, 30));
        assert.deepEqual(fetchCalls, []);
      });
    }

    it('embeds a text past maxLength as its first 254 word pieces between [CLS] and [SEP]', async () => {
      const e = createOnnxSentenceEmbedder(withTypes);
      const ids = await e.tokenIds(LONG_ENGLISH);
      assert.deepEqual([ids.length, ids[0], ids.at(-1)], [256, 101, 102]);
      const [v] = await e.embed([LONG_ENGLISH]);
      assertClose(v, expectedVector(table, ids));
    });

    it('gives blank texts the deterministic fallback vector without running them', async () => {
      const e = createOnnxSentenceEmbedder(withTypes);
      const vectors = await e.embed(['', 'Short', '  \n ', '\u200b']);
      assert.deepEqual(vectors[0], fallbackVector('', HIDDEN));
      assert.deepEqual(vectors[2], fallbackVector('  \n ', HIDDEN));
      assert.deepEqual(vectors[3], fallbackVector('\u200b', HIDDEN)); // only a character BERT drops
      assertClose(vectors[1], expectedVector(table, await e.tokenIds('Short')));
      assert.deepEqual(await e.embed([]), []);
    });

    it('reports a model whose output size is not the configured dimensions', async () => {
      const e = createOnnxSentenceEmbedder({ ...withTypes, dimensions: 16 });
      await assert.rejects(e.embed(['hello']), (err: unknown) => {
        assert.ok(err instanceof EmbedderError);
        assert.equal(err.code, 'dimension_mismatch');
        assert.match(err.message, /produced 8 dimensions, expected 16/);
        return true;
      });
    });

    it('refuses the toy weights when the configured sha256 is another', async () => {
      const e = createOnnxSentenceEmbedder({ ...withTypes, sha256: '0'.repeat(64) });
      await assert.rejects(
        e.load(),
        (err: unknown) => err instanceof EmbedderError && err.code === 'checksum_mismatch',
      );
    });
  });
});
