import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { runKillScenario } from './kill-scenario.ts';
import { runWorkerKillScenario } from './kill-worker-scenario.ts';

describe('kill -9 during a batch (PGlite data directory)', () => {
  it('after a restart every accepted memory is completed exactly once', { timeout: 240_000 }, async (t) => {
    const r = await runKillScenario({ size: 50, groupSize: 5 });
    t.diagnostic(`request: ${r.outcome}; accepted ${r.accepted} of 50; processing runs ${r.processingRuns}`);
    assert.ok(r.accepted > 0 && r.accepted <= 50, `${r.accepted} accepted`);
    if (r.outcome === 'killed') assert.ok(r.accepted % 5 === 0, 'whole groups are stored or none of a group');
    assert.equal(r.notCompleted, 0, 'every accepted memory is completed');
    assert.equal(r.completedOnce, r.accepted, 'every memory went through processing → completed once');
    assert.equal(r.completedTwice, 0);
    // One memory.process job per accepted memory, all done (no webhooks were asked for).
    assert.deepEqual(r.jobs, [{ status: 'completed', n: r.accepted }]);
  });
});

describe('kill -9 of one of two workers during a batch (PostgreSQL)', () => {
  it(
    'the other worker resumes its jobs within 15 s of the kill (one lease), every memory processed once',
    { timeout: 300_000 },
    async (t) => {
      const r = await runWorkerKillScenario({ size: 200 });
      t.diagnostic(
        `killed worker held ${r.victimJobs} jobs; first reclaimed ${(r.firstReclaimMs / 1000).toFixed(1)} s ` +
          `after the kill, all of them done after ${(r.victimJobsDoneMs / 1000).toFixed(1)} s`,
      );
      assert.ok(r.victimJobs > 0, 'the killed worker held jobs');
      assert.ok(r.firstReclaimMs > 0 && r.firstReclaimMs < 15_000, `reclaimed ${r.firstReclaimMs} ms after the kill`);
      assert.equal(r.notCompleted, 0, 'every memory is completed');
      assert.equal(r.completedOnce, r.size, 'every memory went to completed exactly once');
      assert.equal(r.completedTwice, 0);
      assert.equal(r.processedTwice, 0, 'no memory entered processing twice');
      assert.deepEqual(r.jobs, [{ status: 'completed', n: r.size }]);
      assert.deepEqual(r.survivorErrors, [], 'the surviving worker logged no errors');
    },
  );
});
