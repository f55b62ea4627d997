import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { dot, EmbedderError } from './embedder.ts';
import { prebuiltModelsDir } from './glove-cache.ts';
import { createGloveSifEmbedder } from './glove-sif.ts';

const norm = (v: number[]) => Math.sqrt(dot(v, v));

// A small "indexed corpus" for the fit: memory-like sentences on a few topics.
const people = ['Alice', 'Bob', 'Carol', 'Dave'];
const facts = [
  'prefers green tea over coffee in the morning',
  'is training for a marathon in the spring',
  'adopted a rescue dog from the local shelter',
  'works as a nurse at the city hospital',
  'is learning to play the piano with a teacher',
  'moved to a small apartment near the river',
  'reads science fiction novels before going to sleep',
  'volunteers at the food bank every weekend',
  'is allergic to peanuts and shellfish',
  'plans a trip to the mountains with her family',
];
const corpus = people.flatMap((p) => facts.map((f) => `${p} ${f}.`));

// The real table, built by `npm install` (scripts/prepare-models.ts) into the prebuilt folder.
describe('GloVe SIF embedder (real wink vectors)', () => {
  let cacheDir = '';
  before(async () => {
    cacheDir = await mkdtemp(path.join(tmpdir(), 'engram-sif-'));
  });
  after(() => rm(cacheDir, { recursive: true, force: true }));

  it('reads the install-time table in place, without converting or copying anything', async () => {
    const first = createGloveSifEmbedder({ cacheDir });
    const loaded = await first.load();
    assert.deepEqual(loaded, { converted: false, dir: prebuiltModelsDir() });
    assert.deepEqual(await first.load(), loaded, 'load() is idempotent');
    assert.deepEqual(await readdir(cacheDir), [], 'nothing written to MODELS_CACHE_DIR');
    const second = createGloveSifEmbedder({ cacheDir });
    const [a] = await first.embed(['cats and dogs']);
    const [b] = await second.embed(['cats and dogs']);
    assert.ok(dot(a, b) > 0.999999, 'two embedders over the same table give the same vectors');
  });

  it('returns 100-d unit vectors that rank related sentences first', async () => {
    const sif = createGloveSifEmbedder({ cacheDir });
    assert.equal(sif.id, 'glove-sif-100');
    assert.equal(sif.dimensions, 100);
    const [cat, kitten, market, doctor, physician] = await sif.embed([
      'The cat rested on the carpet.',
      'The kitten slept on the rug.',
      'Stock markets fell sharply on Tuesday.',
      'She went to see her doctor about the fever.',
      'The physician treated the patient for an infection.',
    ]);
    for (const v of [cat, kitten, market, doctor, physician]) {
      assert.equal(v.length, 100);
      assert.ok(Math.abs(norm(v) - 1) < 1e-9);
    }
    assert.ok(
      dot(cat, kitten) > dot(cat, market) + 0.1,
      `cat/kitten ${dot(cat, kitten)} vs cat/market ${dot(cat, market)}`,
    );
    assert.ok(
      dot(doctor, physician) > dot(doctor, market) + 0.1,
      `doctor/physician ${dot(doctor, physician)} vs doctor/market ${dot(doctor, market)}`,
    );
  });

  it('gives texts without known words a deterministic unit vector', async () => {
    const sif = createGloveSifEmbedder({ cacheDir });
    const [empty, numbers, numbersAgain, other] = await sif.embed(['', '12345 678', '12345 678', 'zzqxj']);
    for (const v of [empty, numbers, other]) assert.ok(Math.abs(norm(v) - 1) < 1e-9);
    assert.deepEqual(numbers, numbersAgain);
    assert.ok(Math.abs(dot(numbers, other)) < 0.5);
  });

  it('fits word probabilities and the common component, persists them and changes the id', async () => {
    const sif = createGloveSifEmbedder({ cacheDir });
    const [before, beforeDog, beforeBob] = await sif.embed([corpus[0], corpus[2], corpus[10]]);
    const summary = await sif.fitCorpus(corpus);
    assert.match(summary.id, /^glove-sif-100@[0-9a-f]{8}$/);
    assert.equal(sif.id, summary.id);
    assert.equal(summary.texts, corpus.length);
    assert.ok(summary.distinctWords > 30 && summary.tokens > summary.distinctWords);

    const fit = JSON.parse(await readFile(path.join(cacheDir, 'glove-sif-100.fit.json'), 'utf8'));
    assert.equal(fit.component.length, 100);
    assert.ok(Math.abs(Math.hypot(...fit.component) - 1) < 1e-9, 'the component is a unit vector');

    const [afterFit] = await sif.embed([corpus[0]]);
    assert.ok(Math.abs(norm(afterFit) - 1) < 1e-9);
    assert.ok(dot(before, afterFit) < 0.9999, 'the fit changes the vectors');
    assert.ok(Math.abs(dot(afterFit, fit.component)) < 1e-9, 'the common component is removed');

    // A process started later picks the fit up from the cache dir.
    const restarted = createGloveSifEmbedder({ cacheDir });
    assert.equal(restarted.id, summary.id);
    const [same] = await restarted.embed([corpus[0]]);
    assert.ok(dot(same, afterFit) > 0.999999);

    // Corpus word probabilities: words frequent in the sample (the four names) lose weight,
    // so "same activity, other person" pulls much further ahead of "same person, other activity".
    const [aliceTea, aliceDog, bobTea] = await sif.embed([corpus[0], corpus[2], corpus[10]]);
    const gapBefore = dot(before, beforeBob) - dot(before, beforeDog);
    const gapAfter = dot(aliceTea, bobTea) - dot(aliceTea, aliceDog);
    assert.ok(gapAfter > gapBefore + 0.3, `activity-vs-person gap ${gapBefore} before the fit, ${gapAfter} after`);
  });

  it('refuses to fit on too small a sample', async () => {
    const sif = createGloveSifEmbedder({ cacheDir });
    await assert.rejects(
      sif.fitCorpus(corpus.slice(0, 5)),
      (err: unknown) => err instanceof EmbedderError && err.code === 'invalid_input',
    );
  });

  it('names non-default settings in the id and refuses a damaged fit file', async () => {
    assert.equal(createGloveSifEmbedder({ cacheDir, a: 1e-4 }).id, 'glove-sif-100-a0.0001');
    const dir = await mkdtemp(path.join(tmpdir(), 'engram-sif-bad-'));
    try {
      await writeFile(path.join(dir, 'glove-sif-100.fit.json'), '{"format":1,"comp');
      assert.throws(
        () => createGloveSifEmbedder({ cacheDir: dir }),
        (err: unknown) => err instanceof EmbedderError && /damaged/.test(err.message),
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
