import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFacts, statesCurrent } from './facts.ts';
import { read } from './facts.testing.ts';
import { claimsOf, contradicts } from './facts.claims.ts';
import { mayBeOwner, ownerName, ownSubject, sameSubjects } from './facts.owner.ts';
import { slotOf } from './facts.classify.ts';
import { namedAttributes } from './facts.questions.ts';

describe('facts: what a memory states about single-valued attributes', () => {
  it('reads residence, employer, role, diet, relationship, partner and tastes in varied wording', () => {
    assert.deepEqual(read('I live in Lisbon.'), ['self|residence|lisbon']);
    assert.deepEqual(read('Moved to Porto last week!'), ['self|residence|porto']);
    assert.deepEqual(read("These days I'm based in New York City."), ['self|residence|new york city']);
    assert.deepEqual(read('I just moved into a new apartment in Brooklyn.'), ['self|residence|brooklyn']);
    assert.deepEqual(read('Since March, I work for Datadog.'), ['self|employer|datadog']);
    assert.deepEqual(read('Got promoted to engineering manager!'), ['self|role|engineering manager']);
    assert.deepEqual(read("I'm vegan now."), ['self|diet|vegan']);
    assert.deepEqual(read("I'm plant-based now."), ['self|diet|vegan'], 'spellings folded to one diet');
    assert.deepEqual(read('I got married last year.'), ['self|relationship|married']);
    assert.deepEqual(read('My usual coffee order is an oat milk cortado.'), ['self|taste:coffee|oat milk cortado']);
    assert.deepEqual(read('Flat white is my new favorite coffee these days.'), ['self|taste:coffee|flat white']);
    assert.deepEqual(read('My car is a Tesla Model 3 now.'), ['self|has:car|tesla model 3']);
    // "from A to B": B is where one lives now, A no longer.
    assert.deepEqual(read('Jonas moved from Porto to New York.'), [
      'jonas|residence|new york',
      'jonas|residence|porto|not',
      'jonas|*|porto|not',
    ]);
    assert.deepEqual(read('I started commuting by e-scooter.'), ['self|has:commute|e scooter']);
    // "… is my favourite now": "now" is not a kind of thing.
    assert.deepEqual(read('I used to love Phoenix, but Radiohead is my favourite now.'), []);
    assert.deepEqual(read('Radiohead is my favourite band now.'), ['self|taste:band|radiohead']);
    assert.deepEqual(read('Vim has become my daily driver.'), [], 'a possessive is no job title');
  });

  it('reads change and negation cues as the old value no longer holding', () => {
    assert.deepEqual(read('I stopped being vegetarian last month.'), ['self|diet|vegetarian|not']);
    assert.deepEqual(read('I no longer work at Google.'), ['self|employer|google|not']);
    assert.deepEqual(read("I'm not with Sam anymore."), ['self|partner|sam|not']);
    assert.deepEqual(read('I switched from Vim to VS Code.'), ['self|*|vim|not', 'self|tool:editor|vs code']);
    assert.ok(read('I left Google and joined Stripe.').includes('self|employer|stripe'));
    assert.ok(read('I left Google and joined Stripe.').includes('self|employer|google|not'));
  });

  it('keeps other people apart, and the owner’s own name is the owner', () => {
    assert.deepEqual(read('My sister lives in Oslo.'), ['my sister|residence|oslo']);
    assert.deepEqual(read('Tom works at Acme Corp now.'), ['tom|employer|acme corp']);
    assert.deepEqual(read('Maya works at Acme Corp now.', ['maya']), ['self|employer|acme corp']);
    assert.deepEqual(read('Caroline said, "I moved to Denver in May."'), ['caroline|residence|denver']);
    assert.deepEqual(read('She moved to Paris.'), [], 'an unresolved pronoun states nothing we can use');
  });

  it('states nothing from questions, wishes, plans, the past, visits or lower-case non-names', () => {
    for (const text of [
      'Do you live in Paris?',
      'Is Maya vegetarian?',
      "I'm thinking about moving to Berlin.",
      'I used to live in Rome when I was a kid.',
      'I visited Rome last summer.',
      'I want to work at Google someday.',
      'I like both tea and coffee.',
      'We moved to a bigger place.',
      'I joined a book club.',
    ])
      assert.deepEqual(read(text), [], text);
  });

  it('a known name says which attribute, whatever the verb (facts.gazetteer.ts)', () => {
    assert.deepEqual(read('Lena codes in Neovim.', ['lena']), ['self|tool:editor|neovim']);
    assert.deepEqual(read("I'm all in on Kotlin now."), ['self|tool:language|kotlin']);
    assert.deepEqual(read('I switched to Rust.'), ['self|tool:language|rust'], 'a language, not an editor');
    assert.deepEqual(read('I moved my whole setup to Sublime Text.'), ['self|tool:editor|sublime text']);
    assert.deepEqual(read("I stopped using IntelliJ IDEA, it's Vim for me now."), [
      'self|tool:editor|vim',
      'self|tool:editor|intellij idea|not',
    ]);
    assert.deepEqual(read('Arjun drinks a macchiato every morning.'), ['arjun|taste:drink|macchiato']);
    assert.deepEqual(read('I travel to work by tram every day.'), ['self|has:commute|tram']);
    assert.deepEqual(read('She takes the bus to work.'), [], 'an unresolved pronoun');
    assert.deepEqual(read('Tom walks to work.'), ['tom|has:commute|foot']);
    assert.deepEqual(read('I started commuting by bicycle.'), ['self|has:commute|bike']);
    assert.deepEqual(read('I no longer own a car.'), ['self|has:car|none'], 'no car is a value, not a negation');
    assert.deepEqual(read('Got a used Skoda Octavia last week.'), ['self|has:car|skoda octavia']);
    assert.deepEqual(read("Niklas's partner is Robin."), ['niklas|partner|robin']);
    assert.deepEqual(read('Oscar has a new partner, Mira.'), ['oscar|partner|mira']);
    assert.deepEqual(read('Nadia and I are in a relationship.'), [
      'self|relationship|in a relationship',
      'self|partner|nadia',
    ]);
    assert.deepEqual(read("It's over between Robin and me."), ['self|partner|robin|not']);
    assert.deepEqual(read("It's over with Theo; I'm taking some time on my own."), ['self|partner|theo|not']);
    assert.deepEqual(read("I'm seeing someone new: Felix."), ['self|partner|felix']);
    assert.deepEqual(read("Zoe's partner is called Elena."), ['zoe|partner|elena']);
    assert.deepEqual(read("I'm a nurse at St Mary's."), ["self|employer|st mary's", 'self|role|nurse']);
    assert.deepEqual(read("I've been at Spotify for two years."), ['self|employer|spotify']);
    assert.deepEqual(read('Stripe hired me in May.'), ['self|employer|stripe']);
  });

  it("reads a job from its paperwork, not a brand from one's things", () => {
    assert.deepEqual(read('Signed the offer from Bosch today!'), ['self|employer|bosch']);
    assert.deepEqual(read('First payday from Figma, feels good.'), ['self|employer|figma']);
    assert.deepEqual(read('My desk at Unilever is on the fourth floor.'), ['self|employer|unilever']);
    assert.deepEqual(read('My Spotify welcome pack arrived.'), ['self|employer|spotify']);
    assert.deepEqual(read("I've been at Zalando for about three years."), ['self|employer|zalando']);
    assert.deepEqual(read('Tomas is on staff at Atlassian.'), ['tomas|employer|atlassian']);
    assert.deepEqual(read('Handed in my notice at Datadog.'), ['self|employer|datadog|not']);
    assert.deepEqual(read('Got the new job, starting at Mozilla on Monday.'), ['self|employer|mozilla']);
    assert.deepEqual(read('The show is starting at Wembley on Friday.'), [], 'a venue');
    assert.deepEqual(read('Got my badge at Comic-Con.'), [], 'a conference');
    assert.deepEqual(read('My Dell laptop is slow.'), []);
    assert.deepEqual(read("I've been at the beach for two hours."), []);
    assert.deepEqual(read('The meeting is starting at noon.'), []);
  });

  it("a mentioned name stands only where the memory's meaning is of its family", () => {
    const claims = (text: string, slot: string | null) =>
      claimsOf(text, { slot }).map((f) => `${f.subject}|${f.slot}|${f.value}`);
    assert.deepEqual(claims('Elixir won me over this year.', 'tool:editor'), ['self|tool:language|elixir']);
    assert.deepEqual(claims('Elixir won me over this year.', null), []);
    assert.deepEqual(
      claims('A Toyota Corolla nearly hit me at the crossing.', 'vehicle'),
      ['self|vehicle|'],
      'no car of mine',
    );
    assert.deepEqual(claims('Loving my new Renault Zoe.', 'vehicle'), ['self|vehicle|renault zoe']);
    // Food and drink are the classifier's most frequent confusion: a known drink decides between them.
    assert.deepEqual(claims('My usual is a macchiato lately.', 'taste:food'), ['self|taste:drink|macchiato']);
    assert.deepEqual(claims('My usual is a macchiato lately.', 'residence'), ['self|residence|']);
  });

  it('source code states nothing about its writer', () => {
    const fn = 'def paste(xsel=False):\n    """Returns system clipboard contents."""\n    return run(["xclip", "-o"])';
    assert.equal(statesCurrent(fn, { short: false }), false);
    assert.deepEqual(read('I use Vim (mostly) and I live in Lisbon.'), [
      'self|residence|lisbon',
      'self|tool:editor|vim',
    ]);
  });

  it('contradiction: a new value, or the old one negated; never a negation of another value', () => {
    const f = (slot: string, value: string, negated = false) => ({ subject: 'self', slot, value, negated });
    assert.equal(contradicts(f('residence', 'porto'), f('residence', 'lisbon')), true);
    assert.equal(contradicts(f('residence', 'lisbon'), f('residence', 'lisbon')), false);
    assert.equal(contradicts(f('residence', 'rome', true), f('residence', 'lisbon')), false);
    assert.equal(contradicts(f('diet', 'vegetarian', true), f('diet', 'vegetarian')), true);
    assert.equal(contradicts(f('diet', 'vegetarian'), f('diet', 'vegetarian', true)), true);
    assert.equal(contradicts(f('*', 'vim', true), f('taste:editor', 'vim')), true);
    assert.equal(contradicts(f('employer', 'acme'), { ...f('employer', 'initech'), subject: 'tom' }), false);
  });
});

describe("the owner's own name (facts.owner.ts)", () => {
  it('the clear majority name subject, never a value, never a phrase', () => {
    const n = (name: string, memories: number, asValue = false) => ({ name, memories, asValue });
    assert.equal(ownerName([n('maya', 3), n('tom', 1)]), 'maya');
    assert.equal(ownerName([n('maya', 1)]), null, 'one memory is not enough');
    assert.equal(ownerName([n('maya', 3), n('tom', 2)]), null, 'not a clear majority');
    assert.equal(ownerName([n('maya', 4), n('tom', 2)]), 'maya', 'twice as many');
    assert.equal(ownerName([n('theo', 5, true), n('maya', 2)]), 'maya', 'a value (a partner) is someone else');
    assert.equal(ownerName([n('my sister', 5)]), null);
    assert.deepEqual(sameSubjects('self', 'maya'), ['self', 'maya']);
    assert.deepEqual(sameSubjects('maya', 'maya'), ['self', 'maya']);
    assert.deepEqual(sameSubjects('tom', 'maya', true), ['tom'], 'the owner is known: another name is another person');
    assert.deepEqual(sameSubjects('priya', null, true), ['self', 'priya']);
    assert.deepEqual(sameSubjects('priya', null, false), ['priya']);
    assert.deepEqual(sameSubjects('my sister', null, true), ['my sister']);
    assert.equal(ownSubject('maya', 'maya'), 'self');
    assert.equal(ownSubject('tom', 'maya'), 'tom');
    assert.equal(mayBeOwner('lina', [n('lina', 1)]), true, 'a question may fall back on one memory');
    assert.equal(mayBeOwner('lina', [n('lina', 1), n('tom', 1)]), false);
    assert.equal(mayBeOwner('theo', [n('theo', 3, true)]), false);
  });
});

describe('facts: the attribute by meaning (slotOf)', () => {
  // Three examples on orthogonal axes; a statement's vectors are placed among them by hand.
  const axes = [
    [1, 0, 0],
    [0, 1, 0],
    [0, 0, 1],
  ];
  const examples = {
    slots: ['residence', 'employer', 'none'],
    questions: [false, false, false],
    primary: { model: 'p', vectors: axes },
    secondary: { model: 's', vectors: axes },
  };
  const at = { k: 3, min: 0.6, mixed: 0.6, share: 0.5, questions: false };
  const v = (p: number[], s?: number[]) => ({
    primary: { model: 'p', vector: p },
    secondary: s ? { model: 's', vector: s } : null,
  });
  it('needs the nearest example close enough and a majority of the vote', () => {
    assert.equal(slotOf(v([1, 0.1, 0.1]), examples, at), 'residence');
    assert.equal(slotOf(v([0.2, 0.3, 1]), examples, at), null, '`none` wins: no attribute');
    // Nearest is close enough, but residence holds less than half the vote.
    assert.equal(slotOf(v([0.62, 0.6, 0.5]), examples, at), null);
  });
  it('with both embedders, keeps the attribute only when the primary alone votes for it too', () => {
    assert.equal(slotOf(v([1, 0.1, 0], [1, 0, 0]), examples, at), 'residence');
    // Mixed: residence 0.7·0.5 + 0.3·1 leads; the primary alone sees an employer: no claim.
    assert.equal(slotOf(v([0.5, 0.8, 0], [1, 0, 0]), examples, { ...at, share: 0 }), null);
  });
});

describe('facts: "train" as a verb', () => {
  it('reads a commute by train, not a workout', () => {
    const commute = (t: string) =>
      readFacts(t, {})
        .filter((f) => f.slot === 'has:commute')
        .map((f) => f.value);
    assert.deepEqual(commute('I take the train to work.'), ['train']);
    assert.deepEqual(commute('I train at the Fitness First gym on Main Street.'), []);
    assert.deepEqual(commute('We train every Tuesday.'), []);
    assert.deepEqual(commute('I want to train harder.'), []);
  });
});

describe('facts: the attribute a question asks about (facts.questions.ts)', () => {
  it('reads the attribute a question names, several or none left to the examples', () => {
    const cases: [string, string[]][] = [
      ["What's Ravi's role these days?", ['role']],
      ['What does Clara do for a living now?', ['role']],
      ['How does Chloe eat these days?', ['diet']],
      ['What do I like eating most these days?', ['taste:food']],
      ['What company should I put on the form?', ['employer']],
      ['Who is Lena seeing at the moment?', ['partner']],
      ['How does Diego get into the office?', ['commute']],
      ['What does Lena order at the café these days?', ['taste:drink']],
      ['What do I usually get at the café?', ['taste:drink']],
      ['Which city am I in these days?', ['residence']],
      ['How do I get to work by car?', ['commute', 'vehicle']],
      ['What did Caroline paint last weekend?', []],
      ['What does Tom love to eat?', ['taste:food']],
      ['Which neighbourhood is Sara in now?', ['residence']],
      ['Who employs Ravi these days?', ['employer']],
      ["What's Ana's career now?", ['role']],
      ['What kind of tunes is Kai into?', ['taste:music']],
      ["What's Lee's tech stack?", ['tool:language']],
      ['Which mobile does Ada carry?', ['phone']],
      ['Where did Noor move to?', ['residence']],
      ['Where has Ines relocated?', ['residence']],
      ['What does Omar do for work?', ['role']],
      ['Does Priya still avoid dairy?', ['diet']],
      ["Who is Sam's better half?", ['partner']],
      ['How is Ben getting to the office?', ['commute']],
      ['What wheels does Mia have these days?', ['vehicle']],
      ['Which takeaway does Leo always pick?', ['taste:food']],
      ['What brew does Kim start the day with?', ['taste:drink']],
      ['What has Zoe had on repeat?', ['taste:music']],
    ];
    for (const [q, want] of cases) assert.deepEqual(namedAttributes(q), want, q);
  });
});
