/**
 * The full-size kill test (issue: durable background processing): a batch of KILL_SIZE (500)
 * memories, `kill -9` of the server mid-way, restart, and the exactly-once check. Prints the
 * outcome and the recovery time; exits 1 if any accepted memory was lost or completed twice.
 *   npm run bench:kill            (KILL_SIZE, KILL_GROUP, KILL_AFTER to change the shape)
 */
import { runKillScenario } from '../test/kill-scenario.ts';

const size = Number(process.env.KILL_SIZE ?? 500);
const groupSize = Number(process.env.KILL_GROUP ?? 10);
const killAfterStored = Number(process.env.KILL_AFTER ?? Math.floor(size / 5));
const r = await runKillScenario({ size, groupSize, killAfterStored: Math.min(killAfterStored, 200) });
console.log(JSON.stringify(r, null, 2));
const ok = r.accepted > 0 && r.notCompleted === 0 && r.completedOnce === r.accepted && r.completedTwice === 0;
console.log(
  `kill -9 with a ${size}-memory batch (groups of ${groupSize}): request ${r.outcome}; ${r.accepted} accepted; ` +
    `${r.completedOnce} completed exactly once, ${r.completedTwice} twice, ${r.notCompleted} not completed; ` +
    `${r.processingRuns} processing runs; recovered in ${(r.recoveryMs / 1000).toFixed(1)} s → ${ok ? 'PASS' : 'FAIL'}`,
);
process.exit(ok ? 0 : 1);
