/**
 * Everyday memories of the fact-update benchmark: events and opinions that state no attribute, so
 * nothing may retire them; and the people who appear in them. Split like the attribute wordings.
 */
import { lines, type TemplateSet } from './fact-template.ts';

export const USER_NAMES = lines(`
  Maya Jonas Priya Tomas Aisha Lena Marco Yuki Sofia Daniel Amara Niklas Chloe Ravi Ingrid Mateo Zoe
  Kofi Hannah Emil Leila Oscar Freya Diego Nora Arjun Clara Tariq Elif Samir Greta Hugo
`).flatMap((l) => l.split(' '));

/** Other people, for {rel}. */
export const RELATIVES = [
  'my sister',
  'my brother',
  'my mum',
  'my dad',
  'my colleague Ines',
  'my roommate',
  'my best friend Leo',
  'my cousin Ana',
  'my neighbour',
  'my manager',
];

/** Slot fillers: {friend}, {day}, {thing}. */
export const FRIENDS = ['Ben', 'Carla', 'Dev', 'Eva', 'Finn', 'Gina', 'Ivo', 'Julia', 'Kai', 'Lara', 'Milo', 'Noor'];
export const DAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
export const THINGS = ['book', 'podcast', 'movie', 'series', 'museum', 'bakery', 'board game', 'park', 'album'];

export const EVERYDAY: Record<TemplateSet, string[]> = {
  dev: lines(`
    Had a long meeting with {friend} on {day}.
    I think the {thing} {friend} recommended was overrated.
    I need to call {friend} back about the {thing}.
    Went for a run on {day} morning.
    I should clean the kitchen on {day}.
    {friend} lent me a {thing} recommendation, will check it out.
    I forgot my umbrella on {day} and got soaked.
    Dentist appointment moved to {day}.
  `),
  heldout: lines(`
    Ugh, {day}s. {friend} cancelled our plans again.
    That {thing} {friend} mentioned? Surprisingly good.
    Note to self: return {friend}'s charger before {day}.
    Slept terribly, blame the thunderstorm on {day}.
    Spent {day} evening doing taxes, never again.
    {friend}'s birthday is coming up, maybe a {thing} as a gift.
    Plumber finally showed up on {day}.
    Lost my keys for an hour on {day}; they were in the fridge.
  `),
};
