/** Attribute kinds of the fact-update benchmark: where and how the user lives. */
import { lines, type AttributeKind } from './fact-template.ts';

const city: AttributeKind = {
  kind: 'city',
  values: lines(`
    Lisbon Porto Berlin Munich Oslo Amsterdam Barcelona Madrid Toronto Vancouver Austin Denver
    Seattle Dublin Edinburgh Vienna Prague Copenhagen Melbourne Tokyo Singapore Montreal Zurich Helsinki
  `).flatMap((l) => l.split(' ')),
  dev: {
    first: lines(`
      I live in {v}.
      My home is in {v}.
      I'm based in {v}.
      {name} lives in {v}.
      I've been living in {v} for a while now.
      Our apartment is in {v}.
    `),
    update: lines(`
      I moved to {v} last week.
      These days I'm based in {v}.
      I live in {v} now.
      {name} moved from {prev} to {v}.
      I left {prev} and relocated to {v}.
      I live in {v}.
    `),
    current: lines(`
      Where does {name} live?
      What city am I in these days?
      Where is my home?
    `),
    past: lines(`
      Where did {name} live in {when}?
    `),
    distract: lines(`
      My sister lives in {other}.
      I used to live in {other} when I was a kid.
      I visited {other} for a long weekend.
    `),
  },
  heldout: {
    first: lines(`
      Home for me is a small flat in {v}.
      Been a {v} resident for years.
      {name} calls {v} home.
      Rent in {v} keeps going up, but it's where I live.
      I walk around my neighbourhood in {v} every evening.
      My address is in {v}.
    `),
    update: lines(`
      Just got the keys to our new place in {v}.
      Packing is done, {prev} is behind me, hello {v}!
      {name} relocated and is in {v} these days.
      We finally settled in {v}.
      Signed a lease in {v} and gave up the one in {prev}.
      My new neighbourhood in {v} is lovely.
    `),
    current: lines(`
      Which city is {name} living in at the moment?
      Where's my place?
      Where do I reside currently?
    `),
    past: lines(`
      Which city was I living in around {when}?
    `),
    distract: lines(`
      {rel} just moved to {other}.
      Grew up in {other}, long before any of my later moves.
      Flying to {other} for a conference next month.
    `),
  },
};

const partner: AttributeKind = {
  kind: 'partner',
  values: lines(`Sam Alex Jordan Chris Robin Nadia Lucas Elena Omar Hana Felix Ines Theo Mira`).flatMap((l) =>
    l.split(' '),
  ),
  dev: {
    first: lines(`
      I'm dating {v}.
      My partner is {v}.
      {v} and I are in a relationship.
      {name} is seeing {v}.
      I'm in a relationship with {v}.
      I've been with {v} for a year.
    `),
    update: lines(`
      I'm dating {v} now.
      I broke up with {prev} and started seeing {v}.
      My new partner is {v}.
      {name} is with {v} these days.
      {v} and I got together recently.
      My partner is {v}.
    `),
    negation: lines(`
      I'm not with {prev} anymore.
      {prev} and I broke up.
    `),
    current: lines(`
      Who is {name} dating?
      Who is my partner?
      Am I in a relationship with anyone?
    `),
    past: lines(`
      Who was {name} dating in {when}?
    `),
    distract: lines(`
      {rel} is dating someone named {other}.
      My ex from high school, {other}, sent me a message.
      I had lunch with my old friend {other}.
    `),
  },
  heldout: {
    first: lines(`
      {v} cooked dinner for the two of us, best date night.
      Celebrating our anniversary with {v} on Friday.
      {name}'s partner is {v}.
      Met {v}'s parents this weekend, we're getting serious.
      {v} is the person I share my life with.
      Love waking up next to {v}.
    `),
    update: lines(`
      After {prev}, I didn't expect to fall for {v} so fast.
      Introducing {v}, the new love of my life.
      {name} has a new partner, {v}.
      {v} asked me to be exclusive and I said yes.
      Spent the weekend with {v}, we're officially a couple.
      Things with {v} are going great.
    `),
    negation: lines(`
      Single again since {prev} ended things.
      It's over between {prev} and me.
    `),
    current: lines(`
      Who is {name} in a relationship with?
      Who's my significant other right now?
      Who am I seeing?
    `),
    past: lines(`
      Who was my partner around {when}?
    `),
    distract: lines(`
      {rel} keeps talking about {other}, the guy from work.
      Went to {other}'s wedding, such a lovely couple.
      If I ever have a son I might call him {other}.
    `),
  },
};

const diet: AttributeKind = {
  kind: 'diet',
  values: lines(`vegetarian vegan pescatarian flexitarian keto`).flatMap((l) => l.split(' ')),
  negatable: ['vegetarian', 'vegan', 'pescatarian', 'keto'],
  dev: {
    first: lines(`
      I'm {v}.
      I follow a {v} diet.
      {name} is {v}.
      I've been eating {v} for years.
      I'm a strict {v}.
      I keep a {v} diet.
    `),
    update: lines(`
      I switched to a {v} diet.
      I'm {v} now.
      {name} went {v}.
      I stopped being {prev} and I'm {v} these days.
      I decided to go {v} this year.
      I'm {v}.
    `),
    negation: lines(`
      I stopped being {prev}.
      I'm no longer {prev}, I eat everything again.
    `),
    current: lines(`
      What diet does {name} follow?
      What do I eat, diet-wise?
      Am I vegetarian?
    `),
    past: lines(`
      What diet was {name} on in {when}?
    `),
    distract: lines(`
      My sister is {other}.
      I tried a {other} restaurant downtown.
      I was {other} for one week as a teenager.
    `),
  },
  heldout: {
    first: lines(`
      Please keep in mind that my meals have to be {v}.
      Cooking {v} every night is easy once you get used to it.
      {name} only orders {v} dishes.
      Being {v} is part of who I am.
      When booking restaurants, remember I eat {v}.
      My fridge is fully {v}.
    `),
    update: lines(`
      Day 30 of eating {v}, feeling great.
      Goodbye {prev} life, my plate is {v} from now on.
      {name} has gone {v}.
      Doctor suggested {v}, so that's how I eat now.
      My meals are {v} these days.
      Cooking strictly {v} this year.
    `),
    negation: lines(`
      Had a steak yesterday, the {prev} phase is officially over.
      Gave up on eating {prev}; everything is back on the menu.
    `),
    current: lines(`
      Does {name} have any dietary restrictions?
      What kind of eater am I?
      Which diet am I following currently?
    `),
    past: lines(`
      How was I eating around {when}?
    `),
    distract: lines(`
      {rel} went {other} last month.
      Read an article about {other} athletes.
      Would I ever go {other}? Maybe someday.
    `),
  },
};

export const LIFE_KINDS = [city, partner, diet];
