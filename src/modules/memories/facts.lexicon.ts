/**
 * Word lists of the fact reader (facts.ts): the values an attribute can take when they are
 * common words rather than names (diets, relationship states, occupations), the possessions a
 * person has one of at a time, and the words that are never a sentence's subject. Lexicons,
 * not templates: the reader matches any wording around them.
 */

const words = (s: string) => new Set(s.trim().split(/\s+/));

/** Diets, with their spellings folded to one value. */
export const DIETS: Record<string, string> = {
  vegetarian: 'vegetarian',
  veggie: 'vegetarian',
  vegan: 'vegan',
  'plant-based': 'vegan',
  pescatarian: 'pescatarian',
  pescetarian: 'pescatarian',
  keto: 'keto',
  paleo: 'paleo',
  'gluten-free': 'gluten-free',
  'dairy-free': 'dairy-free',
  carnivore: 'carnivore',
  flexitarian: 'flexitarian',
  omnivore: 'omnivore',
};

/** Relationship states (one at a time). */
export const RELATIONSHIP_STATES = words('single married engaged divorced separated widowed');

/** Partners: "my girlfriend Kim", "I'm dating Kim". */
export const PARTNER_NOUNS = words(
  'boyfriend girlfriend partner wife husband spouse fiance fiancee fiancé fiancée bf gf',
);

/** Heads of occupation phrases ("senior software engineer", "head nurse", "barista"). */
export const OCCUPATIONS = words(`
  engineer developer programmer designer manager director lead architect analyst scientist researcher
  consultant teacher professor lecturer nurse doctor physician surgeon dentist pharmacist lawyer attorney
  paralegal accountant chef cook baker barista waiter waitress server bartender writer editor journalist
  reporter photographer artist illustrator animator musician actor actress producer marketer salesperson
  recruiter officer administrator assistant coordinator specialist technician mechanic electrician plumber
  carpenter pilot driver cashier clerk student intern founder co-founder cofounder ceo cto cfo coo vp president
  owner entrepreneur freelancer contractor therapist counselor counsellor psychologist psychiatrist
  veterinarian vet librarian firefighter paramedic soldier tutor coach trainer instructor nanny caregiver
  realtor agent banker trader investor economist statistician mathematician physicist chemist biologist
  translator interpreter secretary receptionist supervisor executive strategist planner curator historian
  archaeologist farmer gardener florist tailor stylist hairdresser janitor scrum pm dev sre dba
  principal associate partner advisor adviser auditor underwriter actuary pharmacologist radiologist
  optometrist midwife surveyor welder machinist operator dispatcher courier postman teller broker
`);

/** What one has one of at a time: "my car is …", "my dentist is …". */
export const SINGLE_POSSESSIONS = words(`
  car phone laptop computer gym commute dentist doctor therapist bank carrier provider email address
  hometown landlord barber hairdresser hairstylist mechanic vet school university college major team
  coach mentor boss manager supervisor rent salary editor ide browser os router bike
`);

/** Attributes of taste whose current value is one thing: "favourite X", "usual X", "go-to X". */
export const TASTE_MARKERS =
  /\b(?:(?:all-time|new|current|absolute|personal)\s+)?(favou?rite|usual|regular|go-to|default|daily|preferred)\s+/;

/** Words that precede a verb without being its subject (time, manner, fillers). */
export const FILLERS = words(`
  so and but well also oh btw update fyi just now recently finally officially actually currently already
  still have has had 've am 'm is are was were be been then since today yesterday lately nowadays
  last this next past a an the in on at of for from after before week weeks month months year years
  weekend morning evening night day days ago summer spring fall autumn winter monday tuesday wednesday
  thursday friday saturday sunday january february march april may june july august september october
  november december earlier later back eventually ok okay yes yeah anyway guess what news big as
  ve s m ll d it's its there here again happily got get gets started became left quit joined moved
  excited thrilled proud happy glad good great sadly unfortunately luckily honestly these those that
  apparently basically obviously seriously personally frankly clearly literally no
  first second third fourth fifth sixth seventh eighth ninth tenth
  made took went bought drove sold came found gave spent rode caught kept brought felt saw ate
`);

/** Clauses that speak of what is not (yet) the case: wishes, plans, conditions, the past. */
export const NOT_NOW =
  /\b(?:want|wants|wanted|plan|plans|planning|planned|hope|hopes|hoping|thinking|considering|consider|might|could|would|should|will|shall|'ll|gonna|going to(?! (?:work|the office|office|school|class|the gym)\b)|used to|if|unless|when i was|as a kid|as a child|growing up|dream|dreams|dreaming|wish|someday|one day|maybe|perhaps|whether|tomorrow|next year|next month|next week|(?<!as )soon(?! as)|about to)\b/;
