/**
 * The fact reader's patterns whose value is a known name (facts.gazetteer.ts) or a fan's band:
 * the language and editor one works in, the drink one orders, how one gets to work, the car one
 * drives, the music one is into. The name's class decides the attribute, so the verb can be any
 * of the many ways people say they use something ("codes in", "all in on", "moved my setup to").
 */
import { alternation, CAR_MAKES, CAR_MODELS, COMMUTE_MODES, DRINKS, EDITORS, LANGUAGES } from './facts.gazetteer.ts';
import { MADE_THE_SWITCH, NAME, NAME_START, r, type Rule } from './facts.patterns.ts';

/** A name of the list, not the start of a longer word ("Go" is not "Google", "C" not "C++"). */
const named = (names: string[]) => String.raw`(?<v>${alternation(names)})(?![\p{L}\p{N}+#])`;
/** Verbs of working in a tool now; "stopped using" and the like are the negated rule's. */
const TOOL_USE =
  String.raw`(?<!\b(?:stopped|quit|gave\s+up|ditched|dropped)\s+)\b(?:use|uses|using|code|codes|coding|` +
  String.raw`write|writes|writing|wrote|written|rewrote|rewritten|program|programs|programming|` +
  String.raw`develop|develops|developing|work|works|working|` +
  String.raw`live|lives|living|switched|switching|moved|migrated|migrating|prefer|prefers|preferring|` +
  String.raw`all\s+in|all-in|settled|stick|sticks|sticking|swear\s+by|swears\s+by|ship|ships|shipping|shipped|` +
  String.raw`${MADE_THE_SWITCH})\b` +
  String.raw`(?:\s+(?!from\b)[\p{L}'’-]+){0,4}?\s+`;
/** "switched from Vim to", "moved over from Java to": what follows is what one went to (the one left: rules.life). */
const FROM =
  String.raw`(?:switched|switching|moved|moving|migrated|migrating|changed|changing|went|gone)\s+(?:over\s+)?` +
  String.raw`from\s+[\p{L}\p{N}][\p{L}\p{N} .+#'’-]{0,30}?\s+(?:over\s+)?to`;
const FROM_TO = String.raw`\b${FROM}\s+(?:(?:a|an|the|my)\s+)?`;
const TOOL_STOP =
  String.raw`\b(?:stopped|quit|gave\s+up|ditched|dropped|abandoned|uninstalled|deleted)\s+` +
  String.raw`(?:using\s+|coding\s+in\s+|writing\s+|working\s+in\s+|my\s+)?`;
/** "it's Vim for me now", "it's all Kotlin these days". */
const ITS = String.raw`\b(?:it's|it’s|it\s+is)\s+(?:all\s+)?`;
const ITS_END = String.raw`(?=\s+(?:for\s+me|now|these\s+days|nowadays|all\s+the\s+way)\b)`;

/** A name the memory merely mentions: not a one-letter one ("C", "R") nor "Go", too often something else. */
const mentioned = (names: string[]) =>
  String.raw`(?<![\p{L}\p{N}])` + named(names.filter((n) => n.length > 2 || /\\/.test(n)));
const TOOLS = /^tool:/;

const tool = (slot: string, names: string[]): Rule[] => [
  { slot, kind: 'name', re: r(TOOL_USE + named(names)) },
  { slot, kind: 'name', re: r(FROM_TO + named(names)) },
  { slot, kind: 'name', family: TOOLS, re: r(mentioned(names)) },
  { slot, kind: 'name', negated: true, re: r(TOOL_STOP + named(names)) },
  { slot, kind: 'name', re: r(ITS + named(names) + ITS_END) },
];

/** A drink's name, not a thing named after it ("latte art", "espresso machine"). */
const drink =
  `(?<v>${alternation(Object.keys(DRINKS))})(?![\\p{L}-])` +
  String.raw`(?!\s+(?:art|machine|maker|shop|place|bar|class|mug|grinder|beans?)\b)`;
const modes = Object.keys(COMMUTE_MODES);
/**
 * Modes that are never anything else ("car", "foot" and "walking" are); "train" is one unless its
 * subject or "to" comes before it ("I train at the gym", "I want to train harder": a verb).
 */
const VEHICLES = modes.filter((m) => !/^(?:car|foot|walking|boat|tube|underground|carpool|train)$/.test(m));
const A_VEHICLE = `${alternation(VEHICLES)}|(?<!\\b(?:[Ii]|[Ww]e|[Yy]ou|[Tt]hey|[Hh]e|[Ss]he|to)\\s+)train`;
const GETTING_ABOUT = /^(?:commute|vehicle)$/;
/** A make and up to two words of its model ("Tesla Model 3", "VW Golf"), or a known model alone ("Golf"). */
const CAR =
  String.raw`(?<v>(?:${alternation(CAR_MAKES)})(?:\s+[A-Z0-9][\p{L}\p{N}-]*){0,2}|` +
  String.raw`(?:${alternation(CAR_MODELS)}))(?![\p{L}\p{N}])`;
const WORKPLACE = String.raw`(?:work|(?:the|my|her|his)\s+office|the\s+lab|campus|school|uni|the\s+studio)`;

export const TOOL_RULES: Rule[] = [
  ...tool('tool:language', LANGUAGES),
  ...tool('tool:editor', EDITORS),
  // The drink one has: "drinks a macchiato every morning", "orders an oat milk cortado".
  {
    slot: 'taste:drink',
    kind: 'phrase',
    fold: DRINKS,
    re: r(
      String.raw`(?<!\b(?:stopped|quit|gave\s+up)\s+)\b(?:drink|drinks|drinking|order|orders|ordering|get|gets|` +
        String.raw`getting|have|has|having|grab|grabs|grabbing|live\s+on|lives\s+on|(?:am|'m|is)\s+on|` +
        String.raw`switched\s+to|moved\s+(?:on\s+)?to|prefer|prefers|starts?\s+(?:my|her|his|the)\s+days?\s+with|` +
        String.raw`${MADE_THE_SWITCH}|${FROM})\s+` +
        String.raw`(?:(?:a|an|my|the|one|two|double|triple|large|small|big|iced|hot|oat|oat\s+milk|soy|almond|` +
        String.raw`decaf|skinny|usual|daily|morning)\s+){0,3}${drink}`,
    ),
  },
  {
    slot: 'taste:drink',
    kind: 'phrase',
    negated: true,
    fold: DRINKS,
    re: r(
      String.raw`\b(?:stopped\s+(?:drinking|ordering|having)|quit|gave\s+up|no\s+more)\s+(?:(?:a|an|my)\s+)?${drink}`,
    ),
  },
  // Getting to work: "goes to the office by bus", "takes the tram to work", "walks to work".
  {
    slot: 'has:commute',
    kind: 'phrase',
    fold: COMMUTE_MODES,
    re: r(
      String.raw`\b(?:go|goes|going|get|gets|getting|travel|travels|travelling|traveling|commute|commutes|` +
        String.raw`commuting|head|heads|heading|come|comes|coming)\s+(?:(?:in\s+)?to\s+|into\s+)?${WORKPLACE}\s+` +
        String.raw`(?:(?:every\s+day|daily|each\s+day)\s+)?(?:by|on|via|in)\s+(?:(?:the|a|an|my|her|his)\s+)?` +
        String.raw`(?<v>${alternation(modes)})(?![\p{L}-])`,
    ),
  },
  // Whatever the verb ("made it", "got", "the new route"): "to work by bus", "into the office on foot".
  {
    slot: 'has:commute',
    kind: 'phrase',
    fold: COMMUTE_MODES,
    re: r(
      String.raw`\b(?:in\s+)?(?:to|into)\s+${WORKPLACE}\s+(?:(?:again|today|now|daily|every\s+day|each\s+day)\s+)?` +
        String.raw`(?:by|on|via)\s+(?:(?:the|a|an|my|her|his)\s+)?(?<v>${alternation(modes)})(?![\p{L}-])`,
    ),
  },
  {
    slot: 'has:commute',
    kind: 'phrase',
    fold: COMMUTE_MODES,
    re: r(
      String.raw`\b(?:take|takes|taking|ride|rides|riding|catch|catches|catching)\s+` +
        String.raw`(?:(?:the|a|an|my|her|his)\s+)?` +
        String.raw`(?<v>${alternation(modes)})\s+(?:in\s+)?(?:to|into)\s+${WORKPLACE}`,
    ),
  },
  {
    slot: 'has:commute',
    kind: 'phrase',
    fold: {
      walk: 'foot',
      walks: 'foot',
      walking: 'foot',
      cycle: 'bike',
      cycles: 'bike',
      cycling: 'bike',
      bike: 'bike',
      bikes: 'bike',
      biking: 'bike',
      drive: 'car',
      drives: 'car',
      driving: 'car',
    },
    re: r(
      String.raw`\b(?<v>walk|walks|walking|cycle|cycles|cycling|bike|bikes|biking|drive|drives|driving)` +
        String.raw`\s+(?:in\s+)?(?:to|into)\s+${WORKPLACE}`,
    ),
  },
  {
    slot: 'taste:drink',
    kind: 'phrase',
    fold: DRINKS,
    family: /^taste:(?:drink|food)$/,
    re: r(String.raw`(?<![\p{L}-])` + drink),
  },
  {
    slot: 'has:commute',
    kind: 'phrase',
    fold: COMMUTE_MODES,
    family: GETTING_ABOUT,
    re: r(String.raw`(?<![\p{L}-])(?<v>${A_VEHICLE})(?![\p{L}-])`),
  },
  {
    slot: 'has:car',
    kind: 'name',
    family: GETTING_ABOUT,
    re: r(String.raw`\b(?:my|our)\s+(?:(?:new|old|trusty|beloved|little|electric)\s+)?${CAR}`),
  },
  {
    slot: 'has:car',
    kind: 'fixed',
    value: 'none',
    absent: true,
    re: r(
      String.raw`\b(?:no\s+longer|don't|do\s+not|doesn't|does\s+not|never)\s+(?:own|have|drive)\s+a\s+car\b|` +
        String.raw`\b(?:sold|got\s+rid\s+of)\s+(?:my|her|his|the)\s+car\b`,
    ),
  },
  // A car of one's own by its name, whatever the sentence does with it: "My Honda Civic is due for a service".
  {
    slot: 'has:car',
    kind: 'name',
    re: r(String.raw`(?<![\p{L}'’])(?:[Mm]y|[Oo]ur)\s+(?:(?:new|old|trusty|beloved|little|electric)\s+)?${CAR}`),
  },
  // The car one has: "got a Tesla Model 3", "leasing a VW Golf".
  {
    slot: 'has:car',
    kind: 'name',
    re: r(
      String.raw`\b(?:drive|drives|driving|own|owns|bought|buy|got|leased|leasing|lease|leases|have|has|` +
        String.raw`picked\s+up)\s+(?:a|an|the|my|her|his)\s+(?:(?:new|used|second-hand|secondhand|electric|` +
        String.raw`hybrid|red|blue|black|white|silver|grey|gray|green|little|old|tiny|vintage)\s+)*${CAR}`,
    ),
  },
  // The music one is into: open names, so only where the meaning agrees (ambiguous: teams, shows).
  {
    slot: 'taste:music',
    kind: 'name',
    ambiguous: true,
    re: r(String.raw`\b(?:huge|big|massive|die-hard|diehard|true)\s+${NAME}\s+fan\b`),
  },
  {
    slot: 'taste:music',
    kind: 'name',
    ambiguous: true,
    re: r(String.raw`\b(?:obsessed\s+with|hooked\s+on|addicted\s+to)\s+${NAME}`),
  },
  {
    slot: 'taste:music',
    kind: 'name',
    ambiguous: true,
    re: r(
      String.raw`(?:^|[,;:]\s*)${NAME_START}\s+(?:is|are)\s+(?:always\s+|constantly\s+|still\s+)?` +
        String.raw`on\s+(?:repeat|my\s+(?:playlist|rotation|headphones))`,
    ),
  },
  // A fan's signs: "my top artist is Phoenix", "my first Bon Iver T-shirt at the merch stand" (only
  // music has merch stands and top artists); "tickets to see Massive Attack live" (a team plays live too).
  {
    slot: 'taste:music',
    kind: 'name',
    re: r(String.raw`\btop\s+(?:artist|band|act)\s+(?:this\s+year\s+)?(?:is|was)\s+${NAME}`),
  },
  {
    slot: 'taste:music',
    kind: 'name',
    re: r(String.raw`\b${NAME}\s+(?:T-shirt|t-shirt|tee|shirt|hoodie|poster)\s+(?:at|from)\s+the\s+merch\b`),
  },
  {
    slot: 'taste:music',
    kind: 'name',
    ambiguous: true,
    re: r(String.raw`\btickets\s+to\s+(?:see\s+)?${NAME}\s+(?:live|in\s+concert|on\s+tour)\b`),
  },
  // A partner: "is with Ines these days", "I've been with Theo for a year" (ambiguous: "with Google now").
  {
    slot: 'partner',
    kind: 'name',
    ambiguous: true,
    re: r(
      String.raw`\b(?:am|'m|is|are|been)\s+(?:together\s+)?with\s+${NAME}(?=\s+(?:these\s+days|now|` +
        String.raw`nowadays|for\s+(?:a|an|\d+|two|three|several|many|some)\b|since\b))`,
    ),
  },
];
