/**
 * The names signal (names-signal.ts): what counts as naming something, and, through the search
 * route on both stores, that a question asking for a person's many things ranks that person's turn
 * naming one above their turn that only talks around the kind, while a question for one thing
 * keeps the words' order.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { testStores, type TestApp } from '../../../test/harness.ts';
import { addTurns, searchContents, SIGNAL_ALONE, signalOnAndOff } from '../../../test/memory-helpers.ts';
import { namesSomething, namingMemories } from './names-signal.ts';
import { candidateFacts } from './candidates.store.ts';

describe('namesSomething', () => {
  const speakers = new Set(['caroline', 'melanie']);
  it('reads a capitalised word inside a sentence as a name', () => {
    for (const text of [
      'Caroline said, "We finally went to Seattle last week."',
      'I have been playing Valorant every night.',
      'Melanie said, "Wow! Loved the show by Matt Patterson."',
      'Went to see "Summer Sounds" play, so much fun.',
    ])
      assert.equal(namesSomething(text, speakers), true, text);
  });
  it('does not count what is capitalised by rule, or a speaker addressed', () => {
    for (const text of [
      'Caroline said, "Thanks, Melanie! It was great." and shared a photo of a dog',
      'Melanie said, "I love it. What about you? I\'m so glad."',
      'Yes. Sure: Whatever works; Fine by me.',
      'we went camping and swimming with the kids',
      'The NASA launch was LOUD.',
    ])
      assert.equal(namesSomething(text, speakers), false, text);
  });
  it('takes every word of a speaker label as a speaker name', () => {
    const got = namingMemories(
      new Map([
        ['a', 'Hey there, Lopez, good to see you.'],
        ['b', 'I moved to Lisbon.'],
      ]),
      ['maria lopez'],
    );
    assert.deepEqual([...got], ['b']);
  });
});

for (const store of testStores) {
  describe(`names signal through search [${store.name}]`, () => {
    // The names bonus alone.
    const apps = signalOnAndOff(store, 'SEARCH_WEIGHT_NAMES_MANY', '0.5', SIGNAL_ALONE);

    it('lifts the turn that names a thing for a question asking for many things', async () => {
      const turns: [string, string][] = [
        ['Tim', 'Travel is the best, I love travel, travel cities are great, all the cities.'],
        ['Tim', 'Last spring I flew to Lisbon for a week of travel.'],
        ['John', 'I went swimming with the kids today.'],
        ['Tim', 'Pottery class was fun.'],
        ['John', 'Basketball practice ran late again.'],
      ];
      await addTurns([apps.on, apps.off], 'traveller', turns, { labelled: true });
      const ask = (app: TestApp, query: string) => searchContents(app, { query, external_user_id: 'traveller' });
      assert.match((await ask(apps.off, 'Which cities has Tim visited for travel?'))[0], /Travel is the best/);
      assert.match((await ask(apps.on, 'Which cities has Tim visited for travel?'))[0], /flew to Lisbon/);
      // One thing asked for: no bonus, the words' order stays.
      assert.match((await ask(apps.on, 'Which city did Tim visit for travel?'))[0], /Travel is the best/);
    });

    it("reads the beginning of a candidate's content only when asked to", async () => {
      await addTurns([apps.on], 'reader', [['Ana', 'I read Dune.']], { labelled: true });
      const [row] = await apps.on.db.query<{ id: string }>(`SELECT id FROM memories WHERE content LIKE 'Ana said%'`);
      const id = row.id;
      assert.equal((await candidateFacts(apps.on.db, apps.on.orgId, [id], { mentions: false })).get(id)?.content, null);
      assert.equal(
        (await candidateFacts(apps.on.db, apps.on.orgId, [id], { mentions: false, content: true })).get(id)?.content,
        'Ana said, "I read Dune."',
      );
    });
  });
}
