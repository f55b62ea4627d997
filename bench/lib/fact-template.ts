/**
 * The shape of one attribute kind of the fact-update benchmark (bench/updates.ts): its values
 * and its wordings. Wordings are written as one template per line so the data reads as data;
 * placeholders are {v} (the new value), {prev} (the value it replaces), {name} (the user, for
 * third-person wordings), {when} (a month and year, in past-date questions), {other} (some
 * other value of the kind) and {rel} (another person: "my sister", "my colleague Ines").
 */

/** Dev wordings may be looked at while building a detector; heldout ones are for measuring it. */
export type TemplateSet = 'dev' | 'heldout';
export const TEMPLATE_SETS: TemplateSet[] = ['dev', 'heldout'];
/**
 * dev2 (fact-kinds-dev2.ts): a third set, written without sight of the other two or of the
 * detector's examples, to steer a change once dev is saturated; generated on its own
 * (`factChains({ wordings: 'dev2' })`), never mixed into bench:updates' two sets.
 */
export type WordingSet = TemplateSet | 'dev2';

/** The wordings of one attribute kind in one template set. */
export interface Wording {
  /** The first statement of a value (no change cue). */
  first: string[];
  /** A later statement of a new value; some with change cues, some without. */
  update: string[];
  /** An update that only retracts {prev} (the value becomes "none"); kinds without it cannot lapse. */
  negation?: string[];
  /** Questions about the current value. */
  current: string[];
  /** Questions about the value at {when}. */
  past: string[];
  /**
   * Memories that mention the kind but must not retire the user's value: another person's value,
   * a childhood value, a wish, a visit, a both-and preference.
   */
  distract: string[];
}

export interface AttributeKind {
  kind: string;
  values: string[];
  /** Values a negation may retract (default: all). */
  negatable?: string[];
  dev: Wording;
  heldout: Wording;
}

/** The non-empty trimmed lines of `text`: one template per line. */
export function lines(text: string): string[] {
  return text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l.length > 0);
}
