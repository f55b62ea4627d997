/**
 * The fact reader's patterns for a job read from its paperwork (facts.ts reads them after
 * facts.rules.ts): an offer signed, a first payday, a desk at the company, a welcome pack, a
 * start after a notice or offer — and handing in one's notice, which ends the job; and a role as
 * an office held. Apart from facts.rules.ts's verbs of working so that each file stays small.
 */
import { each, NAME, occupation, r, type Rule } from './facts.patterns.ts';

export const JOB_RULES: Rule[] = [
  {
    // The paperwork of a new job: "signed the offer from Bosch", "first payday from Figma", "my desk
    // at Unilever", "my Spotify welcome pack". Not "my Dell laptop" (a brand before a thing one owns
    // is what it is, not whom one works for), nor "my badge at Comic-Con" (conferences have badges).
    slot: 'employer',
    kind: 'name',
    re: r(
      String.raw`\b(?:(?:signed|took)\s+(?:the|their|an?|my)\s+(?:job\s+)?offer\s+(?:from|with|at)|` +
        String.raw`first\s+(?:payday|pay\s*check|pay\s*cheque|payslip|pay\s*slip|salary|wage)\s+(?:from|at)|` +
        String.raw`(?:my|our)\s+(?:desk|onboarding|probation)\s+at|` +
        String.raw`starting\s+(?:a\s+)?(?:new\s+)?(?:job|role|position|work)\s+at)\s+${NAME}`,
    ),
  },
  {
    // "Handed in my notice at Datadog; starting at Mozilla on Monday": a start after a job's end or
    // offer (a bare "starting at" is as often a venue: "the show is starting at Wembley").
    slot: 'employer',
    kind: 'name',
    re: r(String.raw`\b(?:notice|offer|new\s+(?:job|role|position))\b[^.!?]{0,60}?\bstarting\s+at\s+${NAME}`),
  },
  {
    slot: 'employer',
    kind: 'name',
    re: r(String.raw`\bmy\s+${NAME}\s+(?:welcome\s+(?:pack|kit|box)|onboarding|work\s+(?:laptop|email|badge))\b`),
  },
  {
    slot: 'employer',
    kind: 'name',
    negated: true,
    re: r(String.raw`\b(?:handed|gave|put)\s+in\s+(?:my|her|his)\s+notice\s+(?:at|to)\s+${NAME}`),
  },
  // An office held: "Clara holds the product manager role", "holds the position of staff engineer".
  ...each(
    { slot: 'role', kind: 'phrase', check: occupation },
    String.raw`\b(?:hold|holds|holding)\s+the\s+(?<v>(?:[\p{L}-]+\s+){0,3}?[\p{L}-]+)\s+(?:role|position|title|post)\b`,
    String.raw`\b(?:hold|holds|holding)\s+(?:the|a|an)\s+(?:role|position|title|post)\s+of\s+(?:an?\s+)?` +
      String.raw`(?<v>(?:[\p{L}-]+\s+){0,3}?[\p{L}-]+)(?=\s+(?:at|for|with|in|on)\b|\s*[,.;!?]|\s*$)`,
  ),
];
