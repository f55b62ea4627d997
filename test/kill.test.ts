import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { runKillScenario } from './kill-scenario.ts';

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
