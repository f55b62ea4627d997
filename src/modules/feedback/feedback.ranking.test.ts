/**
 * Feedback as a ranking signal, end to end: a memory a user rates up rises in that user's later
 * searches and falls after negative feedback, bounded, for that user only; FEEDBACK_RANKING=false
 * stores feedback without moving anything. And the mapping of docs/feedback.md, exactly.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, testStores, type TestApp } from '../../../test/harness.ts';
import { addMemory, post } from '../../../test/memory-helpers.ts';
import { boostOf, signalOf } from './ranking.ts';

const DRAWERS = [
  'Ana keeps her passport in the blue drawer of the hall cabinet.',
  'Ana keeps her passport in the red drawer of the hall cabinet.',
  'Ana renewed her passport at the embassy last spring.',
  'The hall cabinet has three drawers and a mirror.',
  'Ana lost a glove in the hall last winter.',
];
const QUERY = 'Which drawer does Ana keep her passport in?';

/** Ana's memories, readable by bob too (so both search the same memories). */
async function seed(t: TestApp): Promise<void> {
  for (const content of DRAWERS)
    await addMemory(t, { content, external_user_id: 'ana', policy: { acl: { read: ['external_user:bob'] } } });
}

async function ranking(t: TestApp, user: string) {
  const res = await post(t, '/v1/memory/search', { query: QUERY, external_user_id: user });
  assert.equal(res.statusCode, 200, res.body);
  const body = res.json();
  return {
    searchId: body.search_id as string,
    memories: body.data.memories as { id: string; content: string; relevance_score: number }[],
  };
}

async function feedback(t: TestApp, searchId: string, memoryId: string, data: object) {
  const res = await post(t, '/v1/feedback', {
    search_id: searchId,
    feedbackData: { feedbackSource: 'memory_citation', citedMemoryIds: [memoryId], ...data },
  });
  assert.equal(res.statusCode, 200, res.body);
  return res.json();
}

describe('feedback → signal → boost (docs/feedback.md)', () => {
  it('maps each feedback type to its signal', () => {
    const s = (feedbackType: string, feedbackScore?: number) => signalOf({ feedbackType, feedbackScore } as never);
    assert.equal(s('thumbs_up'), 1);
    assert.equal(s('save_action'), 1);
    assert.equal(s('copy_action'), 0.5);
    assert.equal(s('create_document'), 0.5);
    assert.equal(s('thumbs_down'), -1);
    assert.equal(s('report'), -1);
    assert.equal(s('thumbs_up', -1), 1, 'a fixed type keeps its direction whatever the score');
    assert.deepEqual(
      [1, 2, 3, 4, 5].map((x) => s('rating', x)),
      [-1, -0.5, 0, 0.5, 1],
    );
    assert.equal(s('rating'), 0);
    assert.equal(s('memory_relevance', 0.8), 0.8);
    assert.equal(s('answer_quality', -0.4), -0.4);
    assert.equal(s('correction', -1), -1);
    assert.equal(s('correction'), 0);
  });

  it('saturates: tanh(net / 2), bounded by ±1', () => {
    assert.ok(Math.abs(boostOf(1) - Math.tanh(0.5)) < 1e-12);
    assert.ok(boostOf(2) > boostOf(1) && boostOf(100) <= 1 && boostOf(-100) >= -1);
    assert.equal(boostOf(0), 0);
  });
});

for (const store of testStores) {
  describe(`feedback as a ranking signal [${store.name}]`, () => {
    let t: TestApp;
    before(async () => {
      t = await startApp(store);
      await seed(t);
    });
    after(() => t.close());

    it('a memory rated up rises for its user, falls after negative feedback; another user sees no change', async () => {
      const initial = await ranking(t, 'ana');
      const bobInitial = (await ranking(t, 'bob')).memories.map((m) => m.id);
      const [first, second] = initial.memories;
      assert.ok(first && second, 'two drawers found');
      assert.ok(DRAWERS.slice(0, 2).includes(second.content), `the other drawer is second: ${second.content}`);
      const top = first.relevance_score;

      // Positive: the second drawer overtakes the first for ana.
      await feedback(t, initial.searchId, second.id, { feedbackType: 'thumbs_up' });
      const up = await ranking(t, 'ana');
      assert.equal(up.memories[0].id, second.id, 'rated up: first now');
      const boosted = up.memories[0].relevance_score - second.relevance_score;
      assert.ok(boosted > 0, 'its score rose');
      // Bounded: at most FEEDBACK_WEIGHT (0.2) of the best first-stage score, here tanh(1/2) of it.
      assert.ok(Math.abs(boosted - 0.2 * Math.tanh(0.5) * top) < 1e-6, `boost ${boosted} of top ${top}`);
      assert.deepEqual(
        (await ranking(t, 'bob')).memories.map((m) => m.id),
        bobInitial,
        'bob’s ranking of the same memories is unchanged',
      );

      // Negative: two thumbs down (net -1) and it falls below the first drawer again.
      await feedback(t, up.searchId, second.id, { feedbackType: 'thumbs_down' });
      await feedback(t, up.searchId, second.id, { feedbackType: 'report', feedbackSource: 'answer_panel' });
      const down = await ranking(t, 'ana');
      const ids = down.memories.map((m) => m.id);
      assert.ok(ids.indexOf(second.id) > ids.indexOf(first.id), 'rated down: below the other drawer');
      const fell = down.memories.find((m) => m.id === second.id)!.relevance_score;
      assert.ok(fell < second.relevance_score, 'its score fell below its unrated score');
      assert.deepEqual(
        (await ranking(t, 'bob')).memories.map((m) => m.id),
        bobInitial,
        'still unchanged for bob',
      );
    });

    it('feedback without citations, or of a scored type without a score, moves nothing', async () => {
      const before = (await ranking(t, 'bob')).memories;
      const s = before[0].id;
      const search = await ranking(t, 'bob');
      await post(t, '/v1/feedback', {
        search_id: search.searchId,
        feedbackData: { feedbackType: 'thumbs_down', feedbackSource: 'inline' },
      });
      await feedback(t, search.searchId, s, { feedbackType: 'rating' });
      assert.deepEqual(
        (await ranking(t, 'bob')).memories.map((m) => [m.id, m.relevance_score]),
        before.map((m) => [m.id, m.relevance_score]),
      );
    });
  });

  describe(`FEEDBACK_RANKING=false stores feedback only [${store.name}]`, () => {
    let t: TestApp;
    before(async () => {
      t = await startApp(store, { env: { FEEDBACK_RANKING: 'false' } });
      await seed(t);
    });
    after(() => t.close());

    it('the ranking is unchanged after feedback', async () => {
      const initial = await ranking(t, 'ana');
      const second = initial.memories[1];
      const body = await feedback(t, initial.searchId, second.id, { feedbackType: 'thumbs_up' });
      assert.equal(body.details.memories_signalled, 1, 'stored with its signal, for when ranking is switched on');
      const after = await ranking(t, 'ana');
      assert.deepEqual(
        after.memories.map((m) => [m.id, m.relevance_score]),
        initial.memories.map((m) => [m.id, m.relevance_score]),
      );
    });
  });
}
