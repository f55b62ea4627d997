import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { applyBoosts, feedbackRanked, type FeedbackBoosts } from './feedback-signal.ts';

const ranked: [string, number][] = [
  ['a', 1],
  ['b', 0.9],
  ['c', 0.5],
  ['d', 0],
];

describe('feedback boosts on the first stage (bounded)', () => {
  it('moves a memory by at most weight × the best score, re-sorted with ties by id', () => {
    const out = applyBoosts(ranked, new Map([['b', 1]]), 0.2);
    assert.deepEqual(out, [
      ['b', 1.1],
      ['a', 1],
      ['c', 0.5],
      ['d', 0],
    ]);
    // The weakest candidate (0 after min-max normalisation) can rise too.
    assert.deepEqual(applyBoosts(ranked, new Map([['d', 0.5]]), 0.2).at(-1), ['d', 0.1]);
    // Down: never below 0, never more than the bound.
    const down = new Map(
      applyBoosts(
        ranked,
        new Map([
          ['a', -1],
          ['c', -1],
        ]),
        0.2,
      ),
    );
    assert.ok(Math.abs(down.get('a')! - 0.8) < 1e-12);
    assert.equal(down.get('c'), 0.3);
    assert.equal(new Map(applyBoosts(ranked, new Map([['d', -1]]), 0.2)).get('d'), 0);
  });

  it('clamps out-of-range boosts and ignores non-finite ones; no boosts or weight 0 change nothing', () => {
    assert.deepEqual(applyBoosts(ranked, new Map([['c', 50]]), 0.2), applyBoosts(ranked, new Map([['c', 1]]), 0.2));
    assert.deepEqual(applyBoosts(ranked, new Map([['c', Number.NaN]]), 0.2), ranked);
    assert.equal(applyBoosts(ranked, new Map(), 0.2), ranked);
    assert.equal(applyBoosts(ranked, new Map([['c', 1]]), 0), ranked);
  });

  it('asks the port once for the candidates of a user; not at all without a user, a port or a weight', async () => {
    const calls: string[][] = [];
    const port: FeedbackBoosts = {
      boosts: async (_db, scope, ids) => {
        calls.push([scope.userId, ...ids]);
        return new Map([['c', 1]]);
      },
    };
    const db = {} as never;
    const scope = { organizationId: 'o', userId: 'u' };
    const out = await feedbackRanked({ db, feedback: port, feedbackWeight: 1 }, scope, ranked);
    assert.deepEqual(out[0], ['c', 1.5]);
    assert.deepEqual(calls, [['u', 'a', 'b', 'c', 'd']]);
    assert.equal(
      await feedbackRanked({ db, feedback: port, feedbackWeight: 1 }, { ...scope, userId: null }, ranked),
      ranked,
    );
    assert.equal(await feedbackRanked({ db, feedbackWeight: 1 }, scope, ranked), ranked);
    assert.equal(await feedbackRanked({ db, feedback: port, feedbackWeight: 0 }, scope, ranked), ranked);
    assert.equal(calls.length, 1);
  });
});
