/** Reading time expressions in queries (time-signal.ts) and matching memories' times to them (time-match.ts). */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { isoNameInterval, mentionMatches, timeMatches } from './time-match.ts';
import { asksWhen, queryTimes, type TimeConstraint } from './time-signal.ts';

// A Wednesday.
const NOW = new Date('2026-11-25T15:00:00Z');
const day = (iso: string) => new Date(`${iso}T12:00:00Z`);
const matches = (q: string, iso: string) => timeMatches(day(iso), queryTimes(q, NOW));
const interval = (from: string, to: string): TimeConstraint => ({
  kind: 'interval',
  from: Date.parse(`${from}T00:00:00Z`),
  to: Date.parse(`${to}T00:00:00Z`),
});

describe('queryTimes', () => {
  it('reads absolute dates: month, day, year in the usual orders', () => {
    assert.deepEqual(queryTimes('What painting did Melanie show on October 13, 2023?', NOW), [
      { kind: 'calendar', year: 2023, months: [9], day: 13 },
    ]);
    assert.deepEqual(queryTimes('What did Gina find on 1 February, 2023?', NOW), [
      { kind: 'calendar', year: 2023, months: [1], day: 1 },
    ]);
    assert.deepEqual(queryTimes('the 5th of May', NOW), [{ kind: 'calendar', year: undefined, months: [4], day: 5 }]);
    assert.deepEqual(queryTimes('What setback did Melanie face in October 2023?', NOW), [
      { kind: 'calendar', year: 2023, months: [9], day: undefined },
    ]);
    assert.deepEqual(queryTimes('When did Melanie go camping in June?', NOW), [
      { kind: 'calendar', year: undefined, months: [5], day: undefined },
    ]);
    assert.deepEqual(queryTimes('notes from 2024-03-09', NOW), [{ kind: 'calendar', year: 2024, months: [2], day: 9 }]);
    assert.deepEqual(queryTimes('How many times did she go to the beach in 2023?', NOW), [
      { kind: 'calendar', year: 2023 },
    ]);
  });

  it('ignores month words that are ordinary words out of a time context', () => {
    assert.deepEqual(queryTimes('May I see what I wrote about the march on Washington?', NOW), []);
    assert.deepEqual(queryTimes('what did I do in may', NOW).length, 1);
    assert.deepEqual(queryTimes('Which recipes do I like?', NOW), []);
  });

  it('resolves relative expressions against the moment of the search', () => {
    assert.deepEqual(queryTimes('what did I eat yesterday', NOW), [interval('2026-11-24', '2026-11-25')]);
    assert.deepEqual(queryTimes('plans from last week', NOW), [interval('2026-11-16', '2026-11-23')]);
    assert.deepEqual(queryTimes('last weekend', NOW), [interval('2026-11-21', '2026-11-23')]);
    assert.deepEqual(queryTimes('what happened last month', NOW), [interval('2026-10-01', '2026-11-01')]);
    assert.deepEqual(queryTimes('three weeks ago', NOW), [interval('2026-11-02', '2026-11-09')]);
    assert.deepEqual(queryTimes('2 days ago', NOW), [interval('2026-11-23', '2026-11-24')]);
    assert.deepEqual(queryTimes('where did we go last summer', NOW), [interval('2026-06-01', '2026-09-01')]);
    assert.deepEqual(queryTimes('ski trip last winter', NOW), [interval('2025-12-01', '2026-03-01')]);
    assert.deepEqual(queryTimes('in the summer of 2023', NOW), [{ kind: 'calendar', year: 2023, months: [5, 6, 7] }]);
    assert.deepEqual(queryTimes('in May of 2021', NOW), [
      { kind: 'calendar', year: 2021, months: [4], day: undefined },
    ]);
  });
});

describe('timeMatches', () => {
  it('matches calendar fields and intervals', () => {
    assert.ok(matches('camping in June', '2023-06-17'));
    assert.ok(matches('camping in June', '2021-06-01'), 'a month without a year matches any year');
    assert.ok(!matches('camping in June', '2023-07-01'));
    assert.ok(matches('on October 13, 2023', '2023-10-13'));
    assert.ok(!matches('on October 13, 2023', '2023-10-14'));
    assert.ok(matches('yesterday', '2026-11-24'));
    assert.ok(!matches('yesterday', '2026-11-25'));
    assert.ok(!matches('Which recipes do I like?', '2026-11-24'), 'no constraint, no match');
  });
});

describe("dates a memory mentions (the graph's Date nodes)", () => {
  it('reads ISO names at each granularity', () => {
    assert.deepEqual(isoNameInterval('2023-W26'), {
      from: Date.parse('2023-06-26T00:00:00Z'),
      to: Date.parse('2023-07-03T00:00:00Z'),
    });
    assert.deepEqual(isoNameInterval('2023-06'), {
      from: Date.parse('2023-06-01T00:00:00Z'),
      to: Date.parse('2023-07-01T00:00:00Z'),
    });
    assert.equal(isoNameInterval('2023-06-17')!.to - isoNameInterval('2023-06-17')!.from, 86_400_000);
    assert.equal(isoNameInterval('next Tuesday'), undefined);
  });
  it('matches a mention that overlaps the asked time', () => {
    const june = queryTimes('camping in June', NOW);
    assert.ok(mentionMatches('2023-06-17', june));
    assert.ok(mentionMatches('2023-W26', june), 'a week starting in June');
    assert.ok(mentionMatches('2023-06', june));
    assert.ok(!mentionMatches('2023-07-04', june));
    assert.ok(!mentionMatches('2023', june), 'a year says nothing about June');
    assert.ok(mentionMatches('2023', queryTimes('what happened in 2023', NOW)));
  });
});

describe('asksWhen', () => {
  it('knows a question that asks for a time', () => {
    for (const q of [
      'When did Caroline go to the support group?',
      'when is the talent show',
      'What year did John start playing?',
      'In which month did Maria adopt Shadow?',
      'How long ago was the wedding?',
      'Since when has Tim played the violin?',
    ])
      assert.equal(asksWhen(q), true, q);
    for (const q of [
      'What did Caroline research?',
      'Where did we camp when it rained?',
      'Whenever I travel, what do I pack?',
      'What time management technique does Tim use?',
    ])
      assert.equal(asksWhen(q), false, q);
  });
});
