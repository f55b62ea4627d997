/**
 * The speaker-aware signal's matching on its own (speaker-signal.ts): which questions ask for a
 * person's many things, which candidates a named speaker matches, the scopes known to have no
 * speakers, and the bonus (signal-tools.ts). speaker-time.routes.test.ts runs it through search.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { asksForMany, mayNameSomeone, namedSpeakerMatches } from './speaker-signal.ts';
import { absenceHints, withBonus } from './signal-tools.ts';
import { graphWeightOf } from './first-stage.ts';

describe('asksForMany', () => {
  it("reads a question for a person's several things or a count of them", () => {
    for (const q of [
      'What books has Tim read?',
      'Which cities has Jon visited?',
      'How many tournaments has Nate won?',
      'What LGBTQ+ events has Caroline participated in?',
      'What instruments does Melanie play?',
    ])
      assert.equal(asksForMany(q), true, q);
    for (const q of [
      'What did Caroline research?',
      'What is Caroline’s relationship status?',
      'Where did Jon travel?',
      'What was Melanie’s favourite book as a child?',
      'Which city was John in before Chicago?',
      'books Tim read',
    ])
      assert.equal(asksForMany(q), false, q);
  });

  it('takes the agentic walk out of such a question, and leaves it in others', () => {
    assert.equal(graphWeightOf('What books has Tim read?', 0.05), 0);
    assert.equal(graphWeightOf('Where did Jon travel?', 0.05), 0.05);
  });
});

describe('namedSpeakerMatches', () => {
  const speakers = new Map([
    ['a', 'caroline'],
    ['b', 'melanie'],
    ['c', 'caroline'],
    ['d', 'jon snow'],
  ]);
  it('matches a named speaker whatever the case, possessives included', () => {
    assert.deepEqual([...namedSpeakerMatches('What did Caroline research?', speakers)].sort(), ['a', 'c']);
    assert.deepEqual([...namedSpeakerMatches("what are melanie's hobbies", speakers)], ['b']);
    assert.deepEqual([...namedSpeakerMatches('Where did Jon travel?', speakers)], ['d']);
  });
  it('matches nothing when no speaker or every speaker present is named', () => {
    assert.equal(namedSpeakerMatches('What did they research?', speakers).size, 0);
    assert.equal(namedSpeakerMatches('Caroline, Melanie and Jon met', speakers).size, 0);
    assert.equal(namedSpeakerMatches('Caroline?', new Map()).size, 0);
    // A word inside another word is not a name.
    assert.equal(
      namedSpeakerMatches(
        'carolines research',
        new Map([
          ['a', 'caroline'],
          ['b', 'x y'],
        ]),
      ).size,
      0,
    );
  });
  it('takes every speaker named, one only as an owner, as the other one speaking', () => {
    const two = new Map([
      ['a', 'jon'],
      ['b', 'gina'],
      ['c', 'jon'],
    ]);
    assert.deepEqual([...namedSpeakerMatches("What did Jon say about Gina's store?", two)].sort(), ['a', 'c']);
    assert.deepEqual([...namedSpeakerMatches('How does Gina feel about Jon’s studio?', two)], ['b']);
    // Both named as themselves, or both only as owners: nothing tells them apart.
    assert.equal(namedSpeakerMatches('How do Jon and Gina destress?', two).size, 0);
    assert.equal(namedSpeakerMatches("Jon's and Gina's shops", two).size, 0);
  });
  it('looks for names only in queries with a capitalised word that is not a stop word', () => {
    assert.ok(mayNameSomeone('What did Caroline research?'));
    assert.ok(mayNameSomeone("Melanie's hobbies"));
    assert.ok(!mayNameSomeone('What did she research?'));
    assert.ok(!mayNameSomeone('what did caroline research'));
  });
  it('remembers for a while that a scope has no speakers, and forgets it once one is seen', () => {
    const hints = absenceHints(1000, 2);
    assert.equal(hints.skip('a', 0), false);
    hints.saw('a', false, 0);
    assert.equal(hints.skip('a', 500), true);
    assert.equal(hints.skip('a', 1500), false, 'expired');
    hints.saw('a', false, 2000);
    hints.saw('a', true, 2100);
    assert.equal(hints.skip('a', 2200), false, 'a speaker seen');
    hints.saw('b', false, 0);
    hints.saw('c', false, 0);
    hints.saw('d', false, 0);
    assert.equal(hints.skip('b', 1), false, 'the oldest is dropped beyond the bound');
  });
  it('adds the bonus to matched candidates only', () => {
    const out = withBonus(
      new Map([
        ['a', 0.5],
        ['b', 0.9],
      ]),
      new Set(['a', 'zz']),
      0.25,
    );
    assert.deepEqual(
      [...out],
      [
        ['a', 0.75],
        ['b', 0.9],
      ],
    );
    assert.deepEqual([...withBonus(new Map([['a', 0.5]]), new Set(['a']), 0)], [['a', 0.5]]);
  });
});
