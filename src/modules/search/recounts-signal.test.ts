/**
 * The recounting signal (recounts-signal.ts): what counts as recounting and as a question about
 * the past, and, through the search route on both stores, that such a question ranks the speaker's
 * turn telling what happened above a turn reacting in the same words, while a question in the
 * present, or memories without speakers, keep the words' order.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { testStores, type TestApp } from '../../../test/harness.ts';
import { addTurns, post, searchContents, SIGNAL_ALONE, signalOnAndOff } from '../../../test/memory-helpers.ts';
import { asksAboutPast, recounts } from './recounts-signal.ts';

describe('recounts', () => {
  it('reads a first-person subject with a past or perfect verb', () => {
    for (const text of [
      'I went to Paris.',
      "We've been camping a lot.",
      'My husband and I finally finished the deck.',
      'Caroline said, "Last week I painted a sunset."',
      'Tom and I ran a 5K.',
    ])
      assert.equal(recounts(text), true, text);
  });
  it('does not read a reaction, a wish or the present', () => {
    for (const text of [
      'That sounds great, Caroline!',
      'I love it.',
      'I need something new.',
      'Indeed it was.',
      'You painted that? Wow.',
      'I want to go to Paris.',
    ])
      assert.equal(recounts(text), false, text);
  });
  it('tells a question about the past from one about the present', () => {
    for (const q of ['What did Melanie paint?', 'Where has John been?', 'Who was at the party?'])
      assert.equal(asksAboutPast(q), true, q);
    for (const q of ['What are Joanna’s hobbies?', 'What does Melanie do to destress?'])
      assert.equal(asksAboutPast(q), false, q);
  });
});

for (const store of testStores) {
  describe(`recounting turns through search [${store.name}]`, () => {
    // The recounting bonus alone.
    const apps = signalOnAndOff(store, 'SEARCH_WEIGHT_RECOUNTS', '0.5', SIGNAL_ALONE);

    it('lifts the turn that tells what happened for a question about the past', async () => {
      const turns: [string, string][] = [
        ['Anna', 'A pottery class, pottery bowls, pottery is so great, pottery for everyone!'],
        ['Ben', 'Last week I tried a pottery class and made two bowls.'],
        ['Anna', 'Basketball practice ran late again.'],
        ['Ben', 'Swimming with the kids today.'],
      ];
      await addTurns([apps.on, apps.off], 'potters', turns, { labelled: true });
      const ask = (app: TestApp, query: string) => searchContents(app, { query, external_user_id: 'potters' });
      assert.match((await ask(apps.off, 'What did they make in the pottery class?'))[0], /pottery is so great/);
      assert.match((await ask(apps.on, 'What did they make in the pottery class?'))[0], /made two bowls/);
      // A question in the present: no bonus.
      assert.match((await ask(apps.on, 'What do they make in the pottery class?'))[0], /pottery is so great/);
    });

    it('leaves memories without a speaker as they are', async () => {
      for (const content of [
        'A pottery class, pottery bowls, pottery is so great, pottery for everyone!',
        'Last week I tried a pottery class and made two bowls.',
        'Basketball practice ran late again.',
      ]) {
        const res = await post(apps.on, '/v1/memory', { content, external_user_id: 'notes' });
        assert.equal(res.statusCode, 200, res.body);
      }
      const got = await searchContents(apps.on, {
        query: 'What did I make in the pottery class?',
        external_user_id: 'notes',
      });
      assert.match(got[0], /pottery is so great/);
    });
  });
}
