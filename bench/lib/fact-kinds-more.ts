/** Attribute kinds of the fact-update benchmark: getting around and getting work done. */
import { lines, type AttributeKind } from './fact-template.ts';

const words = (text: string) => text.trim().split(/\s*,\s*/);

export const commute: AttributeKind = {
  kind: 'commute',
  values: ['by bike', 'by train', 'by bus', 'on foot', 'by car', 'by e-scooter', 'by tram', 'by subway'],
  dev: {
    first: lines(`
      I commute {v}.
      I get to work {v}.
      {name} goes to the office {v}.
      My commute is {v}.
      I travel to work {v} every day.
      I usually go in {v}.
    `),
    update: lines(`
      I switched to commuting {v}.
      I go to work {v} now.
      {name} started commuting {v}.
      No longer commuting {prev}; I go {v}.
      These days I get to the office {v}.
      I get to work {v}.
    `),
    current: lines(`
      How does {name} get to work?
      How do I commute?
      What's my way to the office?
    `),
    past: lines(`
      How did {name} commute in {when}?
    `),
    distract: lines(`
      My partner commutes {other}.
      We went to the beach {other} on Saturday.
      I used to go to school {other}.
    `),
  },
  heldout: {
    first: lines(`
      Morning routine: coffee, then off to the office {v}.
      The trip in {v} takes about twenty minutes.
      {name}'s daily trip to work is {v}.
      Nothing beats getting in {v}, honestly.
      Forty minutes each way {v}, every weekday.
      Arrived at work {v} again today.
    `),
    update: lines(`
      Gave up going in {prev}; it's {v} for me now.
      Week one of getting to the office {v}.
      {name}'s trip to work is {v} since the spring.
      New routine: I head in {v}.
      Tried going in {v} and never looked back.
      Arrived at the office {v}, as usual lately.
    `),
    current: lines(`
      What's {name}'s mode of transport to work?
      How do I get to my job?
      How am I getting to the office lately?
    `),
    past: lines(`
      How was I getting to work around {when}?
    `),
    distract: lines(`
      {rel} gets to work {other}.
      The day trip {other} to the lake was fun.
      Thinking about trying to go {other} some day.
    `),
  },
};

export const editor: AttributeKind = {
  kind: 'editor',
  values: ['VS Code', 'Neovim', 'Emacs', 'IntelliJ IDEA', 'Sublime Text', 'Zed', 'Helix', 'Vim'],
  dev: {
    first: lines(`
      I use {v} as my editor.
      My editor is {v}.
      {name} codes in {v}.
      I write code in {v}.
      {v} is my editor of choice.
      I do all my editing in {v}.
    `),
    update: lines(`
      I switched to {v}.
      I use {v} now.
      {name} uses {v} these days.
      I stopped using {prev}, it's {v} for me now.
      I moved my setup to {v}.
      I use {v} as my editor.
    `),
    current: lines(`
      What editor does {name} use?
      Which editor do I code in?
      What is my text editor?
    `),
    past: lines(`
      Which editor did {name} use in {when}?
    `),
    distract: lines(`
      My teammate uses {other}.
      I tried {other} for a day.
      I watched a talk about {other}.
    `),
  },
  heldout: {
    first: lines(`
      My dotfiles are mostly {v} config.
      Spent an hour tweaking my {v} theme.
      {name}'s screen always has {v} open.
      Keybindings in {v} are second nature to me.
      Opened {v} first thing this morning, like always.
      Plugins for {v} are my weekend hobby.
    `),
    update: lines(`
      Deleted my {prev} config; {v} does everything I need.
      Migrated my whole workflow into {v}.
      {name} is a {v} convert.
      {v} has become my daily driver.
      Fresh {v} setup on the work laptop.
      Learning {v} shortcuts, loving it.
    `),
    current: lines(`
      Which code editor is {name} using?
      What do I edit code with?
      What's my daily editor?
    `),
    past: lines(`
      What was my editor around {when}?
    `),
    distract: lines(`
      {rel} swears by {other}.
      A coworker demoed {other} at lunch.
      The {other} release notes look interesting.
    `),
  },
};

export const car: AttributeKind = {
  kind: 'car',
  values: words(
    'Golf, Tesla Model 3, Toyota Corolla, Honda Civic, Skoda Octavia, Renault Zoe, Mazda 3, Volvo XC40, Fiat 500',
  ),
  dev: {
    first: lines(`
      I drive a {v}.
      My car is a {v}.
      {name} drives a {v}.
      I own a {v}.
      I have a {v}.
      My {v} is parked outside.
    `),
    update: lines(`
      I bought a {v}.
      I drive a {v} now.
      {name} got a {v}.
      I sold my {prev} and got a {v}.
      My new car is a {v}.
      I drive a {v}.
    `),
    negation: lines(`
      I sold my {prev} and don't have a car now.
      I no longer own a car.
    `),
    current: lines(`
      What car does {name} drive?
      What's my car?
      Which car do I own?
    `),
    past: lines(`
      What car did {name} drive in {when}?
    `),
    distract: lines(`
      My dad drives a {other}.
      I rented a {other} on vacation.
      I test drove a {other}.
    `),
  },
  heldout: {
    first: lines(`
      Washed the {v} this morning, it looks brand new.
      Took the {v} in for an oil change.
      {name}'s ride is a {v}.
      Parking a {v} downtown is easy.
      Road trip in my {v} this weekend.
      The {v} needs new tyres.
    `),
    update: lines(`
      Traded in the {prev}; picked up my {v} today.
      Keys to my {v} are finally in my hand.
      {name} is driving a {v} since spring.
      Loving my new {v}.
      Insurance for the {v} was cheaper than expected.
      First long drive in the {v}, smooth.
    `),
    negation: lines(`
      Car-free life since the {prev} went to its new owner.
      Got rid of the {prev}; no car for me anymore.
    `),
    current: lines(`
      Which vehicle is {name} driving?
      What do I drive?
      What's parked in my driveway currently?
    `),
    past: lines(`
      What was I driving around {when}?
    `),
    distract: lines(`
      {rel} bought a {other}.
      A {other} nearly hit me at the crossing.
      The taxi to the airport was a {other}.
    `),
  },
};
