/** Attribute kinds of the fact-update benchmark: the user's work. */
import { lines, type AttributeKind } from './fact-template.ts';

const employer: AttributeKind = {
  kind: 'employer',
  values: lines(`
    Stripe Shopify Spotify Atlassian Figma Canva Siemens Deloitte Airbus Zalando Datadog Netflix
    Adobe SAP Philips IKEA Unilever Mozilla GitLab Bosch
  `).flatMap((l) => l.split(' ')),
  dev: {
    first: lines(`
      I work at {v}.
      My employer is {v}.
      {name} works for {v}.
      I'm employed by {v}.
      I have a job at {v}.
      I've been at {v} for two years.
    `),
    update: lines(`
      I left {prev} and joined {v}.
      I work at {v} now.
      {name} works at {v} now.
      I just started a new job at {v}.
      I switched jobs, I'm at {v} these days.
      I work at {v}.
    `),
    negation: lines(`
      I quit my job at {prev}.
      I no longer work at {prev}.
    `),
    current: lines(`
      Where does {name} work?
      Who is my employer?
      Which company do I work for?
    `),
    past: lines(`
      Where did {name} work in {when}?
    `),
    distract: lines(`
      My brother works at {other}.
      I had an interview at {other} but turned it down.
      I bought some shares of {other}.
    `),
  },
  heldout: {
    first: lines(`
      Badge photo for {v} was terrible, but the office is nice.
      Another long sprint at {v}.
      {name}'s company is {v}.
      Payday at {v} is on the 25th.
      My team at {v} ships on Thursdays.
      Proud to be part of {v}.
    `),
    update: lines(`
      First day at {v} went well!
      Handed in my laptop at {prev}; on Monday I start at {v}.
      {name} accepted an offer from {v}.
      Onboarding at {v} is intense.
      Got my {v} badge today.
      My manager at {v} is great.
    `),
    negation: lines(`
      Last day at {prev} today, taking a break before anything new.
      Resigned from {prev}; I'm between jobs for now.
    `),
    current: lines(`
      Which company is {name} with at the moment?
      Who pays my salary?
      What organisation am I employed by now?
    `),
    past: lines(`
      Which company was I at around {when}?
    `),
    distract: lines(`
      {rel} got a job offer from {other}.
      Recruiters from {other} keep emailing me.
      Fun fact: my first internship, years ago, was at {other}.
    `),
  },
};

const role: AttributeKind = {
  kind: 'role',
  values: [
    'product manager',
    'data scientist',
    'backend engineer',
    'engineering manager',
    'UX designer',
    'QA lead',
    'solutions architect',
    'technical writer',
    'site reliability engineer',
    'marketing analyst',
    'staff engineer',
    'team lead',
  ],
  dev: {
    first: lines(`
      I'm a {v}.
      My job title is {v}.
      {name} works as a {v}.
      I work as a {v}.
      My role is {v}.
      I'm employed as a {v}.
    `),
    update: lines(`
      I got promoted to {v}.
      I'm a {v} now.
      {name} is a {v} now.
      I moved from {prev} to {v}.
      I changed roles, I work as a {v} these days.
      My job title is {v}.
    `),
    current: lines(`
      What is {name}'s job title?
      What's my role?
      What do I do for a living?
    `),
    past: lines(`
      What was {name}'s job in {when}?
    `),
    distract: lines(`
      My dad was a {other}.
      I'm hiring a {other} for my team.
      I'd like to become a {other} someday.
    `),
  },
  heldout: {
    first: lines(`
      Business cards arrived, they say {v}.
      As the team's {v} I spend a lot of time in meetings.
      {name}'s position: {v}.
      Being a {v} is tiring but rewarding.
      Wrote my yearly review as a {v}.
      LinkedIn headline: {v}.
    `),
    update: lines(`
      New title on my contract: {v}.
      Said goodbye to being a {prev}; my new position is {v}.
      {name} took on the {v} position.
      Starting Monday I'm the {v}.
      Updated my LinkedIn headline to {v}.
      The {v} work suits me better.
    `),
    current: lines(`
      What position does {name} hold?
      What's my current job title?
      Which role do I have at work?
    `),
    past: lines(`
      What position did I have around {when}?
    `),
    distract: lines(`
      {rel} is training to be a {other}.
      Interviewed a candidate for a {other} opening.
      Watched a documentary about a famous {other}.
    `),
  },
};

const language: AttributeKind = {
  kind: 'language',
  values: lines(`Python Rust Go TypeScript Kotlin Elixir Java C# Haskell Scala Ruby Swift`).flatMap((l) =>
    l.split(' '),
  ),
  dev: {
    first: lines(`
      My favourite programming language is {v}.
      I mostly code in {v}.
      {name} prefers {v} for programming.
      I write {v} every day.
      {v} is my language of choice.
      I do all my side projects in {v}.
    `),
    update: lines(`
      I switched to {v}.
      My go-to language is {v} now.
      {name} prefers {v} these days.
      I stopped using {prev} and moved to {v}.
      I'm all in on {v} now.
      My favourite programming language is {v}.
    `),
    current: lines(`
      What programming language does {name} prefer?
      Which language do I code in?
      What's my favourite programming language?
    `),
    past: lines(`
      What language did {name} prefer in {when}?
    `),
    distract: lines(`
      My colleague loves {other}.
      I read a blog post about {other}.
      I learned {other} in university.
    `),
  },
  heldout: {
    first: lines(`
      Nothing feels as productive to me as writing {v}.
      Spent the evening hacking on a {v} project, as always.
      {name} reaches for {v} whenever there's code to write.
      Type systems aside, {v} just clicks for me.
      My GitHub is basically all {v}.
      Code reviews in {v} are my happy place.
    `),
    update: lines(`
      Rewrote my tool from {prev} into {v} and I'm not going back.
      Fell in love with {v}.
      {name} has become a {v} person.
      {v} won me over this year.
      New projects start in {v} for me.
      Spent the whole weekend writing {v}.
    `),
    current: lines(`
      Which programming language does {name} like best?
      What do I write my code in?
      What's my preferred language for coding?
    `),
    past: lines(`
      Which language was I into around {when}?
    `),
    distract: lines(`
      {rel} is learning {other}.
      Our legacy service is written in {other}, sadly.
      Went to a {other} meetup for the free pizza.
    `),
  },
};

export const WORK_KINDS = [employer, role, language];
