/**
 * The name the owner's own memories call them by. Applications often write memories about
 * their user in the third person ("Maya moved to Berlin", an extraction pipeline's "Maya works
 * at Stripe") beside first-person ones ("I live in Lisbon"), and ask about them by name ("Where
 * does Maya live?"), while the owner's external id says nothing of the name ("user-4411"). A
 * claim's subject is then `maya` for some memories and `self` for others, and neither a later
 * statement nor a question would connect them.
 *
 * The rule: among the single-word name subjects of the owner's claims, the one stated by the
 * most memories is the owner when it is stated by at least MIN memories, by at least RATIO
 * times as many as any other name, and is never someone else: a claim's value (a partner, "I've
 * been with Theo") or introduced as kin or another person ("my colleague Tom works at …";
 * owner.store.ts reads both as `asValue`). Why a clear majority: memories are the owner's own, so the
 * person they describe attribute by attribute is mostly the owner; a friend spoken of as often
 * leaves the owner unnamed (no alias) rather than merged with someone else.
 */
import { OTHERS } from './facts.subject.ts';

/** The kin and others "my …" introduces ("my colleague Ines"), as a regular expression's alternatives. */
const RELATIONS = OTHERS.source.replace(/^\^\(\?:/, '').replace(/\)\$$/, '');

/** Whether `text` introduces `name` as kin or another person ("my colleague Tom", "our neighbour Ana"). */
export function introducedAsOther(text: string, name: string): boolean {
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(String.raw`\b(?:my|our)\s+(?:\w+\s+)?(?:${RELATIONS})\s+${escaped}\b`, 'iu').test(text);
}

/** One name subject of an owner's claims: how many memories state something of it; whether it is someone else. */
export interface NameSubject {
  name: string;
  memories: number;
  asValue: boolean;
}

export const OWNER_NAME = { min: 2, ratio: 2 };

/** A subject that may be a person's single name ("maya", "o'neil", "anne-marie"). */
export const NAME_SUBJECT = /^[\p{L}][\p{L}'-]*$/u;

export function ownerName(subjects: NameSubject[], min = OWNER_NAME.min): string | null {
  const names = subjects
    .filter((s) => s.name !== 'self' && !s.asValue && NAME_SUBJECT.test(s.name))
    .sort((a, b) => b.memories - a.memories || (a.name < b.name ? -1 : 1));
  const [top, next] = names;
  if (!top || top.memories < min) return null;
  if (next && top.memories < OWNER_NAME.ratio * next.memories) return null;
  return top.name;
}

/**
 * A question's fallback (owner.store.ts `subjectsFor`): a name the owner's memories state nothing
 * of in the attribute asked, while it is the name they speak of most (one memory is enough here:
 * nothing is retired on it, only which statement answers first) — the owner, written of by name.
 */
export const mayBeOwner = (name: string, subjects: NameSubject[]) => ownerName(subjects, 1) === name;

/**
 * The subjects that mean the same person as `subject` for an owner called `owner`. `unknown`:
 * whether `subject` is a name none of the owner's memories contains — a question naming someone
 * the owner's memories never mention, while they do not say the owner's name, asks about the
 * owner (an assistant asking the user's own memory about the user), not about a stranger of whom
 * nothing is known.
 */
export function sameSubjects(subject: string, owner: string | null, unknown = false): string[] {
  if (owner && (subject === 'self' || subject === owner)) return ['self', owner];
  if (!owner && unknown && subject !== 'self' && NAME_SUBJECT.test(subject)) return ['self', subject];
  return [subject];
}

/** `subject` with the owner's name folded to `self`. */
export const ownSubject = (subject: string, owner: string | null) => (owner && subject === owner ? 'self' : subject);
