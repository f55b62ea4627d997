/**
 * The fact reader's patterns for work and home: residence, employer, role (facts.ts reads them).
 */
import { OCCUPATIONS } from './facts.lexicon.ts';
import { each, NAME, NAME_START, r, occupation, type Rule } from './facts.patterns.ts';

/** An occupation's head word, plural allowed ("a nurse at", "engineers at"). */
const OCC = `(?:${[...OCCUPATIONS].join('|')})s?`;
const PLACE = String.raw`(?:apartment|flat|house|place|home|condo|studio|loft|room|cottage)`;

export const WORK_AND_HOME_RULES: Rule[] = [
  // Residence.
  {
    slot: 'residence',
    kind: 'name',
    ambiguous: true,
    re: r(String.raw`\b(?:moved|relocated)\s+(?:back\s+|over\s+)?(?:to|into)\s+(?:the\s+)?${NAME}`),
  },
  {
    // "moved from Porto to Vienna": the place after "to" (the rule below retires the one after "from").
    slot: 'residence',
    kind: 'name',
    ambiguous: true,
    re: r(
      String.raw`\b(?:moved|relocated)\s+(?:away\s+)?from\s+(?:the\s+)?[A-Z][\p{L}\p{N}'’&.-]*` +
        String.raw`(?:\s+[A-Z][\p{L}\p{N}'’&.-]*)*\s+(?:back\s+)?to\s+(?:the\s+)?${NAME}`,
    ),
  },
  {
    slot: 'residence',
    kind: 'name',
    re: r(
      String.raw`\b(?:live|lives|living|reside|resides|residing|based|settled|(?:have|'ve|` +
        String.raw`has)\s+lived)\s+(?:back\s+|over\s+|out\s+|here\s+)?(?:in|to|into)\s+(?:(?:a|` +
        String.raw`an|the|my|our)\s+(?:new\s+|bigger\s+|smaller\s+|little\s+)?(?:apartment|` +
        String.raw`flat|house|place|home|condo|studio)\s+(?:\w+\s+)?in\s+)?(?:the\s+)?${NAME}`,
    ),
  },
  {
    slot: 'residence',
    kind: 'name',
    re: r(
      String.raw`\b(?:moved|relocated)\s+(?:in|to|into)\s+(?:a|an|the|my|our)\s+(?:new\s+|` +
        String.raw`bigger\s+|smaller\s+|little\s+)?(?:apartment|flat|house|place|home|condo|` +
        String.raw`studio)\s+(?:\w+\s+)?in\s+(?:the\s+)?${NAME}`,
    ),
  },
  {
    slot: 'residence',
    kind: 'name',
    possessive: true,
    re: r(String.raw`\bmy\s+(?:home|place|apartment|flat|house)\s+is\s+(?:now\s+)?in\s+(?:the\s+)?${NAME}`),
  },
  { slot: 'residence', kind: 'name', re: r(String.raw`\b(?:call|calls)\s+${NAME}\s+home\b`) },
  {
    // "here" for the place the sentence named: "Got a library card in Dublin, feels like I live here now".
    // The writer's (`possessive`): the "I" or "we" is within the match, whatever comes before it.
    slot: 'residence',
    kind: 'name',
    possessive: true,
    re: r(
      String.raw`\b(?:in|to)\s+${NAME}\b[^.!?;]{0,80}?\b(?:I|we)\s+(?:actually\s+|really\s+|now\s+)?` +
        String.raw`(?:live|lives|living|belong)\s+here\b`,
    ),
  },
  {
    // "home is Lisbon now", "put down roots in Lyon", "stationed in Kiel", "a Lisbon resident".
    slot: 'residence',
    kind: 'name',
    re: r(
      String.raw`\b(?:home\s+(?:is|has\s+become|became)\s+(?:now\s+)?(?:in\s+)?|settled\s+down\s+in|` +
        String.raw`put\s+down\s+roots\s+in|(?:now\s+)?stationed\s+in|resident\s+of|` +
        String.raw`(?:rent|rents|renting|bought|own|owns|found|signed\s+a\s+lease\s+on)\s+(?:a|an|the|my|our)\s+` +
        String.raw`(?:(?:new|little|small|tiny|big|nice|cosy|cozy)\s+)?${PLACE}\s+(?:\w+\s+){0,2}?in\s+)` +
        String.raw`(?:the\s+)?${NAME}`,
    ),
  },
  {
    slot: 'residence',
    kind: 'name',
    re: r(String.raw`\b(?:made|make|making)\s+${NAME}\s+(?:my|our|his|her|their)\s+(?:new\s+)?home\b`),
  },
  {
    slot: 'residence',
    kind: 'name',
    re: r(String.raw`\b(?:am|'m|are|'re|is|now)\s+(?:now\s+)?(?<v>[A-Z][\p{L}]+(?:\s+[A-Z][\p{L}]+)*)-based\b`),
  },
  {
    slot: 'residence',
    kind: 'name',
    re: r(
      String.raw`(?:^|[,;:]\s*)${NAME_START}\s+is\s+(?:now\s+)?(?:home|my\s+(?:new\s+)?home|where\s+(?:I|we)\s+live)\b`,
    ),
  },
  // Somewhere now, or arrived to stay: a trip reads the same, so only where the meaning agrees.
  ...each(
    { slot: 'residence', kind: 'name', ambiguous: true },
    String.raw`\b(?:am|'m|are|'re|is)\s+(?:now\s+)?(?:back\s+)?in\s+(?:the\s+)?${NAME}` +
      String.raw`(?=\s+(?:now|these\s+days|nowadays|for\s+good|permanently)\b)`,
    String.raw`\b(?:ended\s+up|made\s+the\s+(?:big\s+)?move|transferred)\s+(?:in|to)\s+(?:the\s+)?${NAME}`,
  ),
  {
    slot: 'residence',
    kind: 'name',
    negated: true,
    ambiguous: true,
    re: r(String.raw`\b(?:moved|moving)\s+(?:away\s+)?(?:out\s+of|from|away\s+from)\s+(?:the\s+)?${NAME}`),
  },
  { slot: 'residence', kind: 'name', negated: true, ambiguous: true, re: r(String.raw`\bleft\s+${NAME}`) },
  // Employer.
  {
    slot: 'employer',
    kind: 'name',
    re: r(
      String.raw`\b(?:work|works|working|employed|interning|(?:have|'ve|has)\s+(?:been\s+)?work(?:ed|` +
        String.raw`ing))\s+(?:(?:full[- ]time|part[- ]time|remotely|now|currently|there)\s+)?(?:at|` +
        String.raw`for|by)\s+${NAME}`,
    ),
  },
  {
    slot: 'employer',
    kind: 'name',
    re: r(
      String.raw`\b(?:joined|(?:have|has)\s+(?:a\s+)?(?:new\s+)?(?:job|position|role)\s+(?:at|` +
        String.raw`with)|started\s+(?:a\s+new\s+job\s+|work\s+|working\s+)?at|got\s+(?:a\s+|` +
        String.raw`the\s+)?(?:new\s+)?(?:job|position|role|offer)\s+(?:at|with|from)|hired\s+(?:at|` +
        String.raw`by)|accepted\s+(?:a|an|the|their|my)\s+(?:new\s+)?(?:job\s+offer|job|offer|position|role)\s+(?:at|` +
        String.raw`with|from)|took\s+(?:a|the)\s+(?:new\s+)?(?:job|position|role)\s+(?:at|` +
        String.raw`with)|new\s+job\s+at)\s+${NAME}`,
    ),
  },
  {
    slot: 'employer',
    kind: 'name',
    possessive: true,
    re: r(String.raw`\bmy\s+(?:new\s+|current\s+)?(?:employer|company|workplace)\s+is\s+(?:now\s+)?${NAME}`),
  },
  {
    // The other way round: "Canva is my employer".
    slot: 'employer',
    kind: 'name',
    possessive: true,
    re: r(String.raw`${NAME_START}\s+is\s+(?:now\s+)?my\s+(?:new\s+|current\s+)?(?:employer|workplace)\b`),
  },
  {
    slot: 'employer',
    kind: 'name',
    negated: true,
    re: r(
      String.raw`\b(?:left|quit|resigned\s+from|(?:was|got|been)\s+(?:laid\s+off|fired|` +
        String.raw`let\s+go)\s+(?:from|by)|stopped\s+working\s+(?:at|for))\s+(?:my\s+(?:job|` +
        String.raw`position|role)\s+at\s+)?${NAME}`,
    ),
  },
  {
    // "I'm a nurse at St Mary's", "works as a designer for Shopify".
    slot: 'employer',
    kind: 'name',
    re: r(
      String.raw`\b(?:am|'m|is|are|as|became|become)\s+(?:(?:a|an|the|now|still|currently|one\s+of\s+the)\s+)*` +
        String.raw`(?:[\p{L}-]+\s+){0,3}?${OCC}\s+(?:at|for|with)\s+${NAME}`,
    ),
  },
  {
    // "jumped ship to Stripe", "landed a job at", "my first day at", "poached by".
    slot: 'employer',
    kind: 'name',
    re: r(
      String.raw`\b(?:jumped\s+ship\s+to|switched\s+(?:jobs|companies|employers)\s+to|` +
        String.raw`landed\s+(?:a|the)\s+(?:new\s+)?(?:job|role|position|gig)\s+(?:at|with)|signed\s+(?:on\s+)?with|` +
        String.raw`first\s+(?:day|week)\s+at|new\s+gig\s+(?:at|with)|onboarding\s+at|on\s+the\s+payroll\s+(?:at|of)|` +
        String.raw`on\s+(?:the\s+)?staff\s+(?:at|of)|` +
        String.raw`poached\s+by|recruited\s+by|went\s+to\s+work\s+(?:at|for))\s+${NAME}`,
    ),
  },
  {
    slot: 'employer',
    kind: 'name',
    re: r(String.raw`(?:^|[,;:]\s*)${NAME_START}\s+(?:hired|employs|recruited|poached|onboarded)\s+(?:me|us)\b`),
  },
  {
    // "I switched jobs, I'm at Stripe these days".
    slot: 'employer',
    kind: 'name',
    re: r(
      String.raw`\b(?:jobs?|employer|company|companies|gig|hired|career|work|working|office)\b` +
        String.raw`[^.;!?]{0,40}?\b(?:am|'m|is|are|been)\s+(?:now\s+)?(?:at|with)\s+${NAME}`,
    ),
  },
  {
    // "been at Spotify for two years": a stay of years is work (or school), not a visit.
    slot: 'employer',
    kind: 'name',
    re: r(
      String.raw`\b(?:been|am|'m|is|are)\s+(?:now\s+)?at\s+${NAME}` +
        String.raw`(?=\s+(?:for\s+(?:\w+\s+){0,2}(?:years?|months?)|since)\b)`,
    ),
  },
  {
    slot: 'employer',
    kind: 'name',
    ambiguous: true,
    re: r(
      String.raw`\b(?:am|'m|is|are)\s+(?:now\s+)?at\s+${NAME}(?=\s+(?:these\s+days|now|nowadays)\b|\s*[,.;!?]|\s*$)`,
    ),
  },
  { slot: 'employer', kind: 'name', negated: true, re: r(String.raw`\blast\s+(?:day|week)\s+at\s+${NAME}`) },
  // Role (an occupation's head word ends the phrase); "… at Acme" is read by the employer rules.
  {
    slot: 'role',
    kind: 'phrase',
    check: occupation,
    re: r(
      String.raw`\b(?:am|'m|is|are|became|become|work\s+as|works\s+as|working\s+as|started\s+as|employed\s+as|` +
        String.raw`hired\s+as|promoted\s+to|promotion\s+to|new\s+(?:role|job|position)\s+as)\s+(?:now\s+|` +
        String.raw`officially\s+|finally\s+)?(?:a\s+|an\s+|the\s+)?(?<v>(?:[\p{L}-]+\s+){0,3}?[\p{L}-]+)(?=\s+(?:at|` +
        String.raw`for|with|in)\b|\s*[,.;!?]|\s*$|\s+(?:now|these|since|and)\b)`,
    ),
  },
  {
    slot: 'role',
    kind: 'phrase',
    possessive: true,
    check: occupation,
    re: r(
      String.raw`\bmy\s+(?:new\s+|current\s+)?(?:job\s+title|title|role|position|job)\s+is\s+(?:now\s+)?(?:a\s+|` +
        String.raw`an\s+)?(?<v>(?:[\p{L}-]+\s+){0,3}?[\p{L}-]+)(?=\s+(?:at|for|with|in)\b|` +
        String.raw`\s*[,.;!?]|\s*$)`,
    ),
  },
  {
    slot: 'role',
    kind: 'phrase',
    negated: true,
    check: occupation,
    re: r(
      String.raw`\b(?:stopped|quit|gave\s+up)\s+being\s+(?:a\s+|an\s+)?` +
        String.raw`(?<v>(?:[\p{L}-]+\s+){0,2}?[\p{L}-]+)(?=\s*[,.;!?]|` +
        String.raw`\s*$|\s+(?:and|after|because)\b)`,
    ),
  },
];
