/**
 * For the fact reader's tests (facts*.test.ts): what a memory states, one line per fact
 * ("subject|slot|value", "|not" when negated), and its claims likewise.
 */
import { claimsOf } from './facts.claims.ts';
import { readFacts, type Fact } from './facts.ts';

export const line = (f: Fact) => `${f.subject}|${f.slot}|${f.value}${f.negated ? '|not' : ''}`;

/** The statements read from the words, mentions left out: they are claims only where the meaning agrees (claimsOf). */
export const read = (text: string, selfNames: string[] = []) =>
  readFacts(text, { selfNames })
    .filter((f) => !f.family)
    .map(line);

/** The claims of a memory whose meaning is `slot`. */
export const claims = (text: string, slot: string | null) => claimsOf(text, { slot }).map(line);
