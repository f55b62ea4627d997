import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { statesCurrent } from './facts.ts';
import { claims, read } from './facts.testing.ts';

// Whose a stated value is, and which sentences state nothing now (facts.ts statesCurrent,
// facts.claims.ts): split from facts.test.ts, which reads the values themselves.

describe('facts: states that are another person’s, and events about a topic', () => {
  it('a name said to be on repeat is what the writer plays, not a person', () => {
    assert.deepEqual(claims('Tame Impala has been on repeat for the whole month.', 'taste:music'), [
      'self|taste:music|',
    ]);
    assert.deepEqual(claims('Tom has been on the phone all month.', 'taste:music'), ['tom|taste:music|']);
  });

  it("a fan's signs name the music: a top artist, merch, tickets to a live show (where the meaning agrees)", () => {
    assert.deepEqual(read('My year-end streaming recap says my top artist is Phoenix.'), ['self|taste:music|phoenix']);
    assert.deepEqual(read('Just bought my first Bon Iver T-shirt at the merch stand.'), ['self|taste:music|bon iver']);
    const live = (slot: string) => claims('Got tickets to see Arsenal live.', slot).filter((c) => c.includes('music'));
    assert.deepEqual(live('taste:music'), ['self|taste:music|arsenal']);
    assert.deepEqual(live('taste:drink'), [], 'a team plays live too: only where the meaning is music');
  });

  it('a sentence adverb first does not make the writer the subject', () => {
    assert.deepEqual(
      claims('Apparently my cousin Ana swears by Vim.', 'tool:editor').filter((c) => c.startsWith('self|')),
      [],
    );
  });

  it('a name first that is the value of a thing or the partner, in a sentence the writer speaks in', () => {
    assert.deepEqual(claims('Daft Punk has been on repeat in my head all month.', 'taste:music'), [
      'self|taste:music|',
    ]);
    assert.deepEqual(claims('Chris left a toothbrush at my place.', 'partner'), ['self|partner|']);
    // Someone's own, by possessive or without the writer in it, stays theirs.
    assert.deepEqual(claims("Tom's favourite band plays at my local pub.", 'taste:music'), ['tom|taste:music|']);
    assert.deepEqual(claims('Tom loves Radiohead.', 'taste:music'), ['tom|taste:music|']);
  });

  it('a sentence that opens on a thing, without the writer in it, claims nothing of the writer', () => {
    assert.deepEqual(claims('The café on the corner is advertising cortado this week.', 'taste:drink'), []);
    assert.deepEqual(claims('The new Radiohead album is everywhere this month.', 'taste:music'), []);
    assert.deepEqual(claims('A vegan bakery opened next to the station.', 'diet'), []);
    // One sentence only: a diary line after it is still the writer's.
    assert.deepEqual(claims('A long week. Moved to Denver at last!', null), ['self|residence|denver']);
    // The writer in it: the writer's still.
    assert.deepEqual(claims('The barista knows to make my iced mocha as soon as I walk in.', 'taste:drink'), [
      'self|taste:drink|mocha',
    ]);
  });

  it('a relative clause states its person’s attribute, not the writer’s', () => {
    assert.deepEqual(read('Got a postcard from my mum, who lives in Dublin.'), ['my mum|residence|dublin']);
    assert.deepEqual(read('I live in Oslo.'), ['self|residence|oslo']);
  });

  it('the meaning claims nothing for the writer when the state is someone else’s', () => {
    for (const [text, slot] of [
      ['Cooked tacos for my neighbour, it’s their favourite.', 'taste:food'],
      ['Cooked dinner for my sister, who is vegetarian.', 'diet'],
      ['Went for a ride in the new car that my cousin bought.', 'vehicle'],
      ['Helped my dad set up his laptop with a new editor.', 'tool:editor'],
      ['Gave my neighbour directions for getting to their office by bus.', 'commute'],
    ] as const)
      assert.deepEqual(
        claims(text, slot).filter((c) => c.startsWith('self|')),
        [],
        text,
      );
    assert.deepEqual(
      claims('Picked up a cortado for my dad on the way in.', null).filter((c) => c.startsWith('self|')),
      [],
    );
    assert.deepEqual(claims('I take the bus to work, unlike my sister, who drives.', null), ['self|commute|bus']);
    // The writer's own state beside another person stays the writer's.
    assert.deepEqual(claims('My new manager at the studio is great.', 'employer'), ['self|employer|']);
  });

  it('a denial after "but" claims nothing by meaning', () => {
    assert.deepEqual(claims("I like ramen too, but it's not my favourite.", 'taste:food'), []);
    assert.deepEqual(claims("Learned Java at university but haven't used it since.", 'tool:language'), []);
    assert.deepEqual(claims("It's not cheap, but ramen is my favourite now.", 'taste:food'), ['self|taste:food|']);
    // A "but" in another sentence says nothing of the value.
    assert.deepEqual(
      claims('I live in Lisbon now. The flat is small but we manage.', null).filter((c) => c.includes('residence')),
      ['self|residence|lisbon'],
    );
  });

  it('reading or watching a piece about a thing is not having it', () => {
    assert.equal(statesCurrent('Read a long thread arguing Emacs is the best editor ever made.'), false);
    assert.equal(statesCurrent('Watched a documentary comparing electric cars.'), false);
    assert.equal(statesCurrent('I read every evening now.'), true);
    assert.equal(statesCurrent('Read a study claiming people who travel by subway are happier.'), false);
    // Travelling by a means is getting around, not a trip.
    assert.equal(statesCurrent('I no longer go in by car; I travel by tram now.'), true);
    assert.equal(statesCurrent('We travel to Lisbon every spring.'), false);
    // A stage of life past is not now, whatever the verb.
    for (const text of [
      'As a teenager I went vegetarian for about a month.',
      'In my twenties I drove a Fiat Panda.',
      'Growing up, my favourite food was pierogi.',
    ])
      assert.equal(statesCurrent(text), false, text);
  });

  it('idioms of now (if you asked me, without thinking, since that trip) are now; plans and trips are not', () => {
    assert.equal(statesCurrent('If you asked me today, my favourite would be ramen, hands down.'), true);
    assert.equal(statesCurrent("If I had to pick, I'd say Vim."), true);
    assert.equal(statesCurrent('If I move to Berlin I would cycle.'), false);
    assert.equal(statesCurrent('I would love to live in Rome.'), false);
    // Done "without even thinking about it" is a habit; "since that trip" dates a change, it is no trip.
    assert.equal(statesCurrent('Asked the waiter for the keto options without even thinking about it.'), true);
    assert.equal(statesCurrent("Craving ramen constantly since that trip; it's my new number one."), true);
    assert.equal(statesCurrent('Thinking about going keto.'), false);
    assert.equal(statesCurrent('Back from our trip to Lisbon.'), false);
  });

  it('a known name of another attribute is not a place, whatever the verb', () => {
    assert.deepEqual(read('I moved over to IntelliJ IDEA.'), ['self|tool:editor|intellij idea']);
    assert.deepEqual(read('I moved to Lisbon.'), ['self|residence|lisbon']);
  });
});
