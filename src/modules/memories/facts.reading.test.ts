import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { attributeOf } from './facts.claims.ts';
import { readFacts, statesCurrent } from './facts.ts';
import { read } from './facts.testing.ts';

// Statements read whatever their verb (facts.test.ts has the reader's main cases).

describe('facts: commutes, cars, partners and languages whatever the verb', () => {
  it('a commute by its mode whatever the verb, a car by its make or model, a diary verb is no subject', () => {
    assert.deepEqual(read('Made it to work by subway in record time this morning.'), ['self|has:commute|subway']);
    assert.deepEqual(read('Got to work by bus again today.'), ['self|has:commute|bus']);
    assert.deepEqual(read('Getting to the office by car takes me twenty minutes.'), ['self|has:commute|car']);
    assert.deepEqual(read('My Honda Civic is due for a service soon.'), ['self|has:car|honda civic']);
    assert.deepEqual(read('I drive my Golf everywhere.'), ['self|has:car|golf']);
    assert.deepEqual(read("I'm driving the Golf now."), ['self|has:car|golf']);
    assert.deepEqual(read('Parked my Skoda Octavia in the usual spot.'), ['self|has:car|skoda octavia']);
    assert.deepEqual(read("Mia's Golf is in the garage."), [], 'another person’s car is not read as the writer’s');
    assert.deepEqual(read('Played golf with my boss.'), []);
    assert.deepEqual(read('I bought a Smart TV.'), [], '"Smart" is left out of the makes');
    assert.deepEqual(read('Alfred moved to Leeds.'), ['alfred|residence|leeds'], 'a name ending in -ed');
  });

  it('"my …" is the writer\'s whoever the verb\'s subject; two others named as a couple', () => {
    assert.deepEqual(read('Bought a gift for my partner, Jordan.'), ['self|partner|jordan']);
    assert.deepEqual(read('Leila and Chris are a couple.'), ['leila|partner|chris']);
    assert.deepEqual(read('Ravi and Lucas have separated.'), ['ravi|partner|lucas|not']);
    assert.deepEqual(read('Nadia and I are together.'), ['self|partner|nadia']);
  });

  it('a language by what is written in it; what one wrote at an old job is the past', () => {
    assert.deepEqual(read('Finally shipped my first service written in Swift!'), ['self|tool:language|swift']);
    assert.deepEqual(read('Rewrote the whole backend in Elixir over the last month.'), ['self|tool:language|elixir']);
    assert.equal(statesCurrent('I wrote Java at my old job.'), false);
    assert.equal(statesCurrent('I just wrote my first Rust crate.'), true);
    assert.deepEqual(read('My walk to work is lovely.'), ['self|has:commute|foot'], 'a bare "my" is the writer');
  });

  it('"<name>\'s X is …" says of that person what "my X is …" says of the writer', () => {
    assert.deepEqual(read("Maya's favourite artist is Beach House."), ['maya|taste:artist|beach house']);
    assert.deepEqual(read("Tom's employer is Canva."), ['tom|employer|canva']);
    assert.deepEqual(read("Arjun's car is a Golf."), ['arjun|has:car|golf']);
    assert.deepEqual(read("Honestly, Leila's editor is Vim."), ['leila|has:editor|vim']);
    assert.deepEqual(
      readFacts("Maya's favourite artist is Beach House.", { selfNames: ['Maya'] }).map((f) => f.subject),
      ['self'],
      "the owner's own name is the owner",
    );
    // A word of time or everyone is no one's: nothing read.
    assert.deepEqual(read("Today's favourite snack is popcorn."), []);
    assert.deepEqual(read("Everyone's favourite food is pizza."), []);
  });

  it('a time said beside a taste is no part of its kind ("my usual these days")', () => {
    assert.deepEqual(read('My favourite food these days is pho.'), ['self|taste:food|pho']);
    assert.deepEqual(read('My favourite food now is pho.'), ['self|taste:food|pho']);
    // No kind named, only a time: the value's own class (a drink) says which, as a mention.
    assert.deepEqual(
      readFacts('My usual these days is cappuccino.').map((f) => `${f.slot}|${f.value}`),
      ['taste:drink|cappuccino'],
    );
  });
});

describe('facts: a denied copula', () => {
  it('"is not", "isn\'t", "is no longer" deny the value; they are no part of it', () => {
    assert.deepEqual(read('My favourite food is no longer pho.'), ['self|taste:food|pho|not']);
    assert.deepEqual(read("My employer isn't Canva anymore."), ['self|employer|canva|not']);
    assert.deepEqual(read('Pho is no longer my favourite food.'), ['self|taste:food|pho|not']);
    assert.deepEqual(read("Tom's employer is not Canva."), ['tom|employer|canva|not']);
    assert.deepEqual(read('My job is not easy.'), [], 'not an occupation, denied or not');
  });

  it('what a denied value is contrasted with, said without a verb, is the value now', () => {
    assert.deepEqual(read('Honestly, my go-to comfort food is no longer pierogi but pho.'), [
      'self|taste:comfort food|pierogi|not',
      'self|taste:comfort food|pho',
    ]);
    assert.deepEqual(read("My role isn't site reliability engineer anymore; it's UX designer."), [
      'self|role|site reliability engineer|not',
      'self|role|ux designer',
    ]);
    assert.deepEqual(read("My employer isn't Canva anymore, but I love it."), ['self|employer|canva|not']);
    assert.deepEqual(
      read('My favourite food is no longer pho. Sad.'),
      ['self|taste:food|pho|not'],
      'a sentence of its own',
    );
  });

  it('the other way round ("Canva is my employer"), and a state that began and holds ("has been")', () => {
    assert.deepEqual(read('Canva is my employer.'), ['self|employer|canva']);
    assert.deepEqual(read('The Golf is my car.'), ['self|has:car|golf']);
    assert.deepEqual(read('That is my car.'), [], 'a demonstrative names nothing');
    assert.deepEqual(read('My favourite food has been pho since March.'), ['self|taste:food|pho']);
    assert.deepEqual(read('My editor has been Vim for years.'), ['self|has:editor|vim'], 'a duration ends the value');
    assert.deepEqual(read("Tom's been vegan for a year."), ['tom|diet|vegan']);
    assert.deepEqual(read("My sister's been to Lisbon."), [], 'been to a place is a visit');
  });

  it('a role as an office held', () => {
    assert.deepEqual(read('Clara holds the product manager role on the team.'), ['clara|role|product manager']);
    assert.deepEqual(read('I hold the position of staff engineer.'), ['self|role|staff engineer']);
    assert.deepEqual(read('He holds the record for the longest run.'), []);
    assert.deepEqual(read('I held the product manager role at Acme.'), [], 'the past');
  });

  it('a taste\'s kind is its head word when the whole is not known ("comfort food" is a food)', () => {
    assert.equal(attributeOf('taste:comfort food'), 'taste:food');
    assert.equal(attributeOf('taste:iced coffee'), 'taste:drink');
    assert.equal(attributeOf('taste:music act'), 'taste:music');
    assert.equal(attributeOf('taste:hobby'), 'taste:hobby');
  });

  it('a change to a new one: switched from X to Y, a thing replaced, a light verb, a diet kept, "here"', () => {
    assert.deepEqual(read("I've switched from macchiato to americano."), [
      'self|*|macchiato|not',
      'self|taste:drink|americano',
    ]);
    assert.deepEqual(read('Moved over from Java to Kotlin last year.'), [
      'self|*|java|not',
      'self|tool:language|kotlin',
    ]);
    assert.deepEqual(read('Switched from my usual latte to a flat white.'), [
      'self|*|latte|not',
      'self|taste:drink|flat white',
    ]);
    assert.deepEqual(read('Replaced my old car with the Golf.'), ['self|has:car|golf']);
    assert.deepEqual(read('Traded in my phone for a Pixel 8.'), ['self|has:phone|pixel 8']);
    assert.deepEqual(read('Replaced my phone with a new one.'), [], '"one" names no phone');
    assert.deepEqual(read('Replaced the old car battery with a new one.'), [], 'not my car: a thing of it');
    assert.deepEqual(read('Mateo sticks to a strictly vegetarian diet.'), ['mateo|diet|vegetarian']);
    assert.deepEqual(read('Restocked the fridge for my new vegan diet.'), ['self|diet|vegan']);
    assert.deepEqual(read('I gave up my vegan diet last month.'), ['self|diet|vegan|not']);
    assert.deepEqual(read('Amara made the jump to eating pescatarian.'), ['amara|diet|pescatarian']);
    assert.deepEqual(read('I made the switch to Rust.'), ['self|tool:language|rust']);
    assert.deepEqual(read('Made the move over to Neovim.'), ['self|tool:editor|neovim']);
    assert.deepEqual(read('Got a library card in Dublin, feels like I actually live here now.'), [
      'self|residence|dublin',
    ]);
    assert.deepEqual(read('Visited Rome with my sister, I could live here.'), [], 'a wish');
  });
});
