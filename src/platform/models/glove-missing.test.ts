/**
 * Without the GloVe table (not built at install, e.g. no registry then), the secondary signal
 * is dropped with a warning: start-up, indexing and search carry on with the other signals.
 */
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startApp, testConfig, testStores, type TestApp } from '../../../test/harness.ts';
import { useFakeJsonServer } from '../../../test/fake-json-server.ts';
import { addMemory, post } from '../../../test/memory-helpers.ts';
import type { Logger } from '../log.ts';
import { EmbedderError } from './embedder.ts';
import { PREBUILT_DIR_ENV } from './glove-cache.ts';
import { embeddersFromConfig } from './index.ts';

describe('GloVe SIF without its word vectors', () => {
  // A primary that loads instantly: an OpenAI-compatible server on loopback.
  const fake = useFakeJsonServer<{ input: string[] }>(() => (seen) => ({
    status: 200,
    body: { data: seen.body.input.map((t, index) => ({ index, embedding: [t.length + 1, 1, 2, 3, 4, 5, 6, 7] })) },
  }));
  let dir = '';
  let savedEnv: string | undefined;
  before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'engram-noglove-'));
    savedEnv = process.env[PREBUILT_DIR_ENV];
    process.env[PREBUILT_DIR_ENV] = path.join(dir, 'prebuilt'); // empty: no table at install
  });
  after(async () => {
    if (savedEnv === undefined) delete process.env[PREBUILT_DIR_ENV];
    else process.env[PREBUILT_DIR_ENV] = savedEnv;
    await rm(dir, { recursive: true, force: true });
  });
  const env = () => ({
    EMBEDDER: 'openai',
    EMBEDDINGS_URL: fake.url(),
    EMBEDDINGS_MODEL: 'fake',
    EMBEDDINGS_DIMENSIONS: '8',
    EMBEDDER_SECONDARY: 'glove-sif',
    MODELS_CACHE_DIR: path.join(dir, 'models'),
  });

  const recorder = () => {
    const warnings: { obj: unknown; msg: string }[] = [];
    const log = { warn: (obj: unknown, msg: string) => warnings.push({ obj, msg }) } as unknown as Logger;
    return { warnings, log };
  };

  it('leaves the secondary out from the start, with one warning saying how to build the files', async () => {
    const { warnings, log } = recorder();
    const models = embeddersFromConfig(testConfig(env()), log);
    assert.equal(models.index.secondary, undefined);
    assert.equal(models.query.secondary, undefined);
    assert.equal(models.index.primary.id, 'openai:fake');
    assert.equal(warnings.length, 1);
    assert.match(warnings[0].msg, /GloVe SIF signal disabled.*npm run setup:models/);
    assert.match(JSON.stringify(warnings[0].obj), /glove-100d-100000.*npm run setup:models/);
    await models.load(); // the primary still loads
    assert.equal(warnings.length, 1);
    await models.close();
  });

  it('drops it at load(), or at the first failing call, when its files are there but unreadable', async () => {
    const damaged = path.join(dir, 'damaged');
    await mkdir(damaged, { recursive: true });
    await writeFile(path.join(damaged, 'glove-100d-100000.json'), '{"format":1}'); // no vectors beside it
    const damagedEnv = { ...env(), MODELS_CACHE_DIR: damaged };

    const { warnings, log } = recorder();
    const models = embeddersFromConfig(testConfig(damagedEnv), log);
    const { secondary } = models.index;
    assert.equal(secondary?.id, 'glove-sif-100', 'configured until it turns out unreadable');
    await models.load();
    assert.equal(models.index.secondary, undefined);
    assert.equal(models.query.secondary, undefined);
    assert.equal(warnings.length, 1);
    // A caller still holding the old embedder gets the clear error, and no second warning.
    await assert.rejects(
      secondary!.embed(['x']),
      (err: unknown) => err instanceof EmbedderError && err.code === 'model_missing',
    );
    assert.equal(warnings.length, 1);
    await models.close();

    const lazy = embeddersFromConfig(testConfig(damagedEnv), recorder().log); // a process that never calls load()
    await assert.rejects(lazy.index.secondary!.embed(['x']), /npm run setup:models/);
    assert.equal(lazy.index.secondary, undefined);
    await lazy.close();
  });

  describe('in the app', () => {
    let t: TestApp;
    before(async () => {
      t = await startApp(testStores[0], { env: env() });
    });
    after(() => t.close());

    it('starts, indexes and searches with the other signals (no 500)', async () => {
      await addMemory(t, { content: 'Priya is allergic to peanuts.', external_user_id: 'priya' });
      await addMemory(t, { content: 'Quarterly report is due on Friday.', external_user_id: 'priya' });
      const res = await post(t, '/v1/memory/search', { query: 'peanut allergy', external_user_id: 'priya' });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json().data.memories[0].content, 'Priya is allergic to peanuts.');
      const [row] = await t.db.query<{ m: string | null }>('SELECT embedding2_model AS m FROM memory_chunks LIMIT 1');
      assert.equal(row.m, null, 'no second vector stored: `npm run reembed` adds it once the table exists');
    });
  });
});
