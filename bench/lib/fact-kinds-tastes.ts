/** Attribute kinds of the fact-update benchmark: tastes and belongings. */
import { lines, type AttributeKind } from './fact-template.ts';

const words = (text: string) => text.trim().split(/\s*,\s*/);

const food: AttributeKind = {
  kind: 'food',
  values: words('ramen, tacos, lasagna, pad thai, sushi, paella, pho, shakshuka, dumplings, biryani, pierogi, falafel'),
  dev: {
    first: lines(`
      My favourite food is {v}.
      I love {v} more than anything.
      {name}'s favourite dish is {v}.
      {v} is my favourite meal.
      Nothing beats {v} for me.
      I could eat {v} every day.
    `),
    update: lines(`
      My favourite food is {v} now.
      I'm obsessed with {v} these days.
      {name}'s favourite food is {v} now.
      I used to love {prev}, but now it's {v}.
      {v} became my new favourite.
      My favourite food is {v}.
    `),
    current: lines(`
      What is {name}'s favourite food?
      What's my favourite dish?
      Which meal do I love most?
    `),
    past: lines(`
      What was {name}'s favourite food in {when}?
    `),
    distract: lines(`
      My sister's favourite food is {other}.
      I had {other} for lunch today.
      I like both {other} and curry.
    `),
  },
  heldout: {
    first: lines(`
      If I could pick one last meal it would be {v}.
      Birthday dinner has to be {v}, always.
      {name} orders {v} at every chance.
      Comfort food for me means {v}.
      Top of my food ranking: {v}.
      Rainy days call for {v}.
    `),
    update: lines(`
      Sorry {prev}, {v} has taken the crown.
      Discovered {v} and can't stop ordering it.
      {name} can't get enough of {v} lately.
      New number one dish in my book: {v}.
      Craving {v} all the time.
      Honestly {v} is the best thing I've ever eaten.
    `),
    current: lines(`
      Which dish does {name} like best?
      What food do I crave most?
      What's my top food pick right now?
    `),
    past: lines(`
      Which dish did I love most around {when}?
    `),
    distract: lines(`
      {rel} makes amazing {other}.
      Cooking class tonight: we're making {other}.
      There's a new {other} place near the station.
    `),
  },
};

const coffee: AttributeKind = {
  kind: 'coffee',
  values: words(
    'flat white, oat latte, double espresso, cortado, cappuccino, americano, cold brew, iced mocha, macchiato',
  ),
  dev: {
    first: lines(`
      My usual coffee order is a {v}.
      I always order a {v}.
      {name} drinks a {v} every morning.
      I take my coffee as a {v}.
      My go-to coffee is a {v}.
      I order a {v} at the café.
    `),
    update: lines(`
      I switched my coffee order to a {v}.
      I drink a {v} now.
      {name} orders a {v} these days.
      No more {prev}, I get a {v} now.
      My usual is a {v} lately.
      My usual coffee order is a {v}.
    `),
    current: lines(`
      What's {name}'s usual coffee order?
      What coffee do I order?
      How do I take my coffee?
    `),
    past: lines(`
      What coffee did {name} order in {when}?
    `),
    distract: lines(`
      My boss drinks a {other}.
      I like both tea and {other}.
      I tried a {other} at the airport.
    `),
  },
  heldout: {
    first: lines(`
      The barista knows me: one {v}, no questions asked.
      Can't start the day without my {v}.
      {name}'s morning ritual is a {v}.
      A {v} at nine, then I'm a functioning human.
      Every café visit ends with me holding a {v}.
      The {v} at the corner shop is my fuel.
    `),
    update: lines(`
      Traded my {prev} habit for a {v}.
      The barista had to learn my new order: {v}.
      {name} has been on {v} for weeks.
      A {v} is my new morning fix.
      Ordering {v} every day since the summer.
      Give me a {v} and I'm happy.
    `),
    current: lines(`
      What does {name} usually get at the café?
      What's my regular coffee?
      Which coffee drink do I go for lately?
    `),
    past: lines(`
      What was my coffee order around {when}?
    `),
    distract: lines(`
      {rel} is hooked on {other}.
      The new café's {other} was disappointing.
      Bought a {other} for the whole team.
    `),
  },
};

const band: AttributeKind = {
  kind: 'band',
  values: words(
    'Radiohead, Arctic Monkeys, Fleetwood Mac, Tame Impala, Daft Punk, The National, Bon Iver, Phoenix, ' +
      'Massive Attack, Beach House, Khruangbin, Portishead',
  ),
  dev: {
    first: lines(`
      My favourite band is {v}.
      I listen to {v} all the time.
      {name}'s favourite band is {v}.
      {v} is the band I love most.
      I'm a huge {v} fan.
      {v} is always on my playlist.
    `),
    update: lines(`
      My favourite band is {v} now.
      I'm really into {v} these days.
      {name} is obsessed with {v} now.
      I used to love {prev}, but {v} is my favourite now.
      {v} became my favourite band.
      My favourite band is {v}.
    `),
    current: lines(`
      What is {name}'s favourite band?
      Which band do I like most?
      Who is my favourite band?
    `),
    past: lines(`
      What was {name}'s favourite band in {when}?
    `),
    distract: lines(`
      My brother loves {other}.
      I saw {other} live once.
      I like both {other} and jazz.
    `),
  },
  heldout: {
    first: lines(`
      Every road trip soundtrack I make is wall-to-wall {v}.
      Got the {v} vinyl box set, my prized possession.
      {name} knows every {v} lyric by heart.
      Headphones on, {v} on repeat.
      No band moves me like {v}.
      Spotify wrapped says {v} again.
    `),
    update: lines(`
      {prev} is out, {v} is all I play.
      Can't stop streaming {v}.
      {name} has {v} on repeat lately.
      Bought tickets for {v}, the band I love most now.
      Discovered {v} and they're my number one.
      {v} is the soundtrack of my year.
    `),
    current: lines(`
      Which band is {name} into?
      What music do I love most?
      Which group is my top favourite?
    `),
    past: lines(`
      Which band was I into around {when}?
    `),
    distract: lines(`
      {rel} dragged me to a {other} concert.
      The radio played {other} in the taxi.
      A {other} documentary came out.
    `),
  },
};

export const TASTE_KINDS = [food, coffee, band];
