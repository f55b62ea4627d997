import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { testStores } from '../../../test/harness.ts';
import { makeOrg } from '../../../test/factories.ts';
import { waitFor } from '../../../test/wait.ts';
import type { Db } from '../../platform/db/index.ts';
import { createWorker, type Worker } from '../../platform/jobs/index.ts';
import { createLogger } from '../../platform/log.ts';
import { ownerActor } from '../../shared/actor.ts';
import { CATALOG_LIMITS, clusterKey, emptyCatalog, foldCatalog, normaliseValue } from './catalog.ts';
import { CATALOG_REFRESH } from './catalog.jobs.ts';
import { builtinFor } from './domains.builtin.ts';
import { createDomainsPart } from './domains.index-part.ts';

const scifact = builtinFor('scifact')!;

/** Three scifact transforms: two about BRCA1 written differently, one about IL-6. */
const transforms: Record<string, string>[] = [
  {
    research_field: 'Oncology',
    claim_type: 'causal',
    claim: 'Loss of BRCA1 function markedly increases the lifetime risk of breast cancer in carriers.',
    intervention_or_cause: 'BRCA1 loss',
    effect_direction: 'increases',
    affected_outcome: 'breast cancer risk',
    biomedical_entities: 'BRCA1; p53, Tumors',
  },
  {
    research_field: ' oncology ',
    claim_type: 'Causal',
    intervention_or_cause: 'BRCA1  Loss',
    effect_direction: 'increases',
    affected_outcome: 'Breast cancer risks',
    biomedical_entities: 'brca1; tumor',
  },
  {
    research_field: 'immunology',
    claim_type: 'associative',
    intervention_or_cause: 'IL-6',
    effect_direction: 'activates',
    affected_outcome: 'T cells',
    biomedical_entities: 'IL-6',
  },
];

describe('catalog fold (pure)', () => {
  const entries = transforms.map((signals) => ({ signals }));

  it('normalises values and grouping keys', () => {
    assert.equal(normaliseValue('  Breast   Cancer '), 'breast cancer');
    assert.equal(normaliseValue('x'.repeat(61)), null);
    assert.equal(normaliseValue('   '), null);
    assert.equal(clusterKey('Genes'), 'gene');
    assert.equal(clusterKey('os.path.exists()'), 'os path exist');
    assert.equal(clusterKey('Studies'), 'study');
    assert.equal(clusterKey('Boxes'), 'box');
    assert.equal(clusterKey('loss'), 'loss');
    assert.equal(clusterKey('virus'), 'virus');
  });

  it('counts short values per band, the domain_prior distribution, entity clusters and patterns', () => {
    const c = foldCatalog(scifact, emptyCatalog(), entries);
    assert.equal(c.total_documents, 3);
    assert.deepEqual(c.domain_distribution, { oncology: 2, immunology: 1 });
    assert.deepEqual(c.signal_value_counts.biomedical_entities, { brca1: 2, 'il-6': 1, p53: 1, tumor: 1, tumors: 1 });
    assert.deepEqual(c.signal_value_counts.claim_type, { causal: 2, associative: 1 });
    assert.equal(c.signal_value_counts.claim, undefined, 'a sentence is not a category');
    const clusters = c.entity_clusters.map(({ label, count, members }) => ({ label, count, members }));
    assert.deepEqual(clusters.slice(0, 3), [
      { label: 'BRCA1', count: 2, members: ['BRCA1', 'brca1'] },
      { label: 'Tumors', count: 2, members: ['Tumors', 'tumor'] },
      { label: 'causal', count: 2, members: ['causal', 'Causal'] },
    ]);
    assert.deepEqual(
      c.relationship_patterns.map(({ label, count, members }) => ({ label, count, members })),
      [
        {
          label: 'brca1 loss —increases→ breast cancer risk',
          count: 2,
          members: ['brca1 loss —increases→ breast cancer risk', 'brca1 loss —increases→ breast cancer risks'],
        },
        { label: 'il-6 —activates→ t cells', count: 1, members: ['il-6 —activates→ t cells'] },
      ],
    );
  });

  it('merges into earlier counts, keeps labels, and keeps only the top values', () => {
    const first = foldCatalog(scifact, emptyCatalog(), entries);
    const next = foldCatalog(scifact, first, [{ signals: { biomedical_entities: 'brca1s' } }], 5);
    assert.equal(next.total_documents, 8, 'observed transforms count, buffered or dropped');
    const brca = next.entity_clusters.find((c) => c.label === 'BRCA1')!;
    assert.equal(brca.count, 3);
    assert.deepEqual(brca.members, ['BRCA1', 'brca1', 'brca1s']);
    const many = Array.from({ length: 80 }, (_, i) => ({
      signals: { biomedical_entities: `gene${i}`, claim: `c${i}` },
    }));
    const big = foldCatalog(scifact, emptyCatalog(), many);
    assert.equal(Object.keys(big.signal_value_counts.biomedical_entities).length, CATALOG_LIMITS.valuesPerBand);
    assert.equal(big.entity_clusters.length, CATALOG_LIMITS.clusters);
  });
});

for (const store of testStores) {
  describe(`catalog [${store.name}]`, () => {
    let db: Db;
    let worker: Worker;
    let org: string;
    let part: ReturnType<typeof createDomainsPart>;
    const log = createLogger('silent');
    const jobsQueued = async () =>
      (
        await db.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM jobs WHERE kind = $1 AND organization_id = $2 AND status = 'queued'`,
          [CATALOG_REFRESH, org],
        )
      )[0].n;
    const actor = () => ownerActor(org, '');

    before(async () => {
      db = await store.open();
      org = (await makeOrg(db)).organizationId;
      part = createDomainsPart({ db });
      worker = createWorker({ db, log, handlers: part.jobs, pollMs: 50 });
    });
    after(async () => {
      await worker.stop();
      await db.close();
    });

    it('observe buffers, a requested refresh folds the buffer into the catalog and empties it', async () => {
      for (const t of transforms) await part.service.observe(db, org, 'engram:scifact:1', t);
      const before = await part.service.catalog.view(actor(), 'scifact');
      assert.equal(before.catalog_buffer_size, 3);
      assert.equal(before.pending, 3);
      assert.equal(before.last_refreshed, null);
      assert.equal(before.total_documents, 0);
      assert.ok(before.last_updated);
      const shown = await part.service.get(actor(), 'scifact');
      assert.equal(shown.catalog_buffer!.length, 3);
      assert.equal(shown.catalog_buffer![0].signals.research_field, 'immunology', 'newest first');
      assert.equal(shown.catalog_buffer![2].signals.claim, transforms[0].claim);

      const queued = await part.service.catalog.requestRefresh(actor(), 'scifact');
      const again = await part.service.catalog.requestRefresh(actor(), 'scifact');
      assert.equal(again.job_id, queued.job_id, 'one queued refresh per catalog');
      await worker.start();
      const after = await waitFor(async () => {
        const v = await part.service.catalog.view(actor(), 'scifact');
        // Every view is one snapshot, taken while the refresh runs: the buffer is there until the
        // catalog holds it, never both, never neither.
        assert.deepEqual(
          [v.total_documents, v.catalog_buffer_size],
          v.last_refreshed ? [3, 0] : [0, 3],
          'a view mid-refresh is before it or after it',
        );
        return v.last_refreshed && v;
      });
      assert.equal(after.total_documents, 3);
      assert.equal(after.catalog_buffer_size, 0);
      assert.equal(after.pending, 0);
      assert.equal(after.refresh_job_id, null);
      assert.deepEqual(after.domain_distribution, { oncology: 2, immunology: 1 });
      assert.equal(after.signal_value_counts.biomedical_entities.brca1, 2);
      assert.equal(after.entity_clusters[0].label, 'BRCA1');
      assert.equal(after.relationship_patterns[0].label, 'brca1 loss —increases→ breast cancer risk');
      assert.equal('key' in after.entity_clusters[0], false, 'grouping keys stay internal');
      await worker.stop();
    });

    it('refresh_every_n queues one refresh job when due, and the worker runs it', async () => {
      await part.service.create(actor(), {
        domain_id: 'lab:assays:1.0',
        name: 'Assays',
        description: '',
        signals: [{ name: 'assay', description: 'Assay name', type: 'text', weight: 1 }],
        catalog_config: { refresh_every_n: 2 },
      });
      const first = await part.service.observe(db, org, 'lab:assays:1.0', { assay: 'ELISA' });
      assert.deepEqual(first, { due: false, jobId: null });
      assert.equal(await jobsQueued(), 0);
      const second = await part.service.observe(db, org, 'lab:assays:1.0', { assay: 'PCR' });
      assert.equal(second.due, true);
      assert.ok(second.jobId);
      const third = await db.transaction((tx) => part.service.observe(tx, org, 'lab:assays:1.0', { assay: 'pcr' }));
      assert.equal(third.jobId, second.jobId, 'deduplicated while queued');
      assert.equal(await jobsQueued(), 1);
      await worker.start();
      const done = await waitFor(async () => {
        const v = await part.service.catalog.view(actor(), 'lab:assays:1.0');
        return v.total_documents === 3 && v;
      });
      assert.deepEqual(done.signal_value_counts.assay, { pcr: 2, elisa: 1 });
      assert.equal(done.refresh_job_id, null);
      await worker.stop();
      const next = await part.service.observe(db, org, 'lab:assays:1.0', { assay: 'PCR' });
      assert.equal(next.due, false, 'pending starts again from 0');
    });

    it('keeps at most 1,000 buffered transforms (oldest dropped) but counts them all', async () => {
      const many = Array.from({ length: 1005 }, (_, i) => ({ outcome: 'neutral', specifics: `n${i}` }));
      await part.service.observeAll(db, org, 'general', many);
      const view = await part.service.catalog.view(actor(), 'general');
      assert.equal(view.catalog_buffer_size, 1000);
      assert.equal(view.pending, 1005);
      const [{ first }] = await db.query<{ first: string }>(
        `SELECT signals->>'specifics' AS first FROM domain_catalog_buffer
         WHERE organization_id = $1 AND domain_id = 'general' ORDER BY id LIMIT 1`,
        [org],
      );
      assert.equal(first, 'n5');
      await db.transaction((tx) => part.service.catalog.refresh(tx, org, 'general', 'manual'));
      const done = await part.service.catalog.view(actor(), 'general');
      assert.equal(done.total_documents, 1005);
      assert.equal(done.signal_value_counts.outcome.neutral, 1000);
    });

    it('a disabled catalog buffers nothing; an unknown domain is a 404', async () => {
      await part.service.create(actor(), {
        domain_id: 'lab:quiet:1',
        name: 'Quiet',
        description: '',
        signals: [{ name: 'x', description: 'x', type: 'text' }],
        catalog_config: { enabled: false },
      });
      assert.deepEqual(await part.service.observe(db, org, 'lab:quiet:1', { x: 'a' }), { due: false, jobId: null });
      assert.equal((await part.service.catalog.view(actor(), 'lab:quiet:1')).catalog_buffer_size, 0);
      await assert.rejects(part.service.observe(db, org, 'nope:nothing:1', { x: 'a' }), { code: 404 });
    });

    it('deleting a custom domain removes its catalog; a refresh queued for it then does nothing', async () => {
      await part.service.observe(db, org, 'lab:assays:1.0', { assay: 'western blot' });
      await part.service.delete(actor(), 'lab:assays:1.0');
      const left = await db.query(`SELECT 1 FROM domain_catalog_buffer WHERE domain_id = 'lab:assays:1.0'`);
      assert.equal(left.length, 0);
      const ran = await db.transaction((tx) => part.service.catalog.refresh(tx, org, 'lab:assays:1.0', 'x'));
      assert.equal(ran, false);
      assert.equal((await db.query(`SELECT 1 FROM domain_catalogs WHERE domain_id = 'lab:assays:1.0'`)).length, 0);
    });
  });
}
