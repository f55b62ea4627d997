/**
 * Word pools for the synthetic corpus: hand-written lists for the slots where realism
 * matters (foods, hobbies, tasks…), and compromise's lexicon (pinned in package.json, so
 * deterministic) for the thousands of names, places, nouns and adjectives that make texts
 * varied enough for BM25 and embeddings to do real work.
 */
import nlp from 'compromise';

const list = (s: string) =>
  s
    .split(',')
    .map((w) => w.trim())
    .filter(Boolean);

export const FOODS =
  list(`sushi, ramen, pad thai, tacos al pastor, margherita pizza, lasagna, pho, bibimbap, falafel, hummus, shakshuka,
  paella, risotto, gnocchi, carbonara, dumplings, dim sum, peking duck, butter chicken, chana masala, dal makhani,
  biryani, masala dosa, samosas, ceviche, empanadas, arepas, feijoada, moussaka, souvlaki, spanakopita, baklava,
  tiramisu, cheesecake, apple pie, pancakes, waffles, french toast, eggs benedict, avocado toast, granola, oatmeal,
  bagels with lox, croissants, sourdough bread, ciabatta, quiche, ratatouille, bouillabaisse, coq au vin,
  beef bourguignon, steak frites, fish and chips, shepherd's pie, bangers and mash, poutine, clam chowder,
  lobster rolls, barbecue ribs, brisket, pulled pork, fried chicken, mac and cheese, cornbread, gumbo, jambalaya,
  burritos, enchiladas, quesadillas, nachos, guacamole, chili con carne, caesar salad, greek salad, caprese salad,
  poke bowls, teriyaki salmon, tempura, udon, soba noodles, okonomiyaki, takoyaki, katsu curry, kimchi stew, bulgogi,
  japchae, laksa, nasi goreng, satay, rendang, banh mi, spring rolls, green curry, massaman curry, tom yum soup,
  miso soup, lentil soup, minestrone, gazpacho, borscht, pierogi, goulash, schnitzel, pretzels, bratwurst, fondue,
  raclette, crepes, macarons, gelato, sorbet, frozen yogurt, chocolate cake, carrot cake, banana bread,
  blueberry muffins, cinnamon rolls, churros, mochi, matcha latte, cold brew, chai, kombucha, oat milk cappuccino,
  espresso, green smoothies, acai bowls, protein shakes, trail mix, dark chocolate, cheese platters`);

export const CUISINES =
  list(`Italian, Japanese, Thai, Mexican, Indian, Korean, Vietnamese, Greek, Lebanese, Turkish, Spanish, French,
  Ethiopian, Moroccan, Peruvian, Brazilian, Chinese, Sichuan, Cantonese, Malaysian, Indonesian, Georgian, Persian,
  Portuguese, Argentinian, Cajun, Caribbean, Nepalese, Sri Lankan, Filipino, vegan, vegetarian, seafood,
  farm-to-table`);

export const OCCASIONS =
  list(`birthday dinners, date night, team lunches, Sunday brunch, family gatherings, the holidays, Thanksgiving,
  Christmas Eve, New Year's Eve, weeknight dinners, road trips, long flights, movie nights, game nights, picnics,
  camping trips, housewarming parties, baby showers, weddings, anniversaries, client dinners, working lunches,
  late-night snacks, post-workout meals, rainy days, summer barbecues, office parties, graduation parties, potlucks,
  book club evenings, the kids' school events, hiking days, beach weekends, ski trips, business trips,
  breakfast meetings`);

export const HOBBIES =
  list(`rock climbing, bouldering, trail running, marathon training, cycling, mountain biking, swimming, yoga,
  pilates, tennis, padel, badminton, table tennis, golf, surfing, kayaking, sailing, scuba diving, skiing,
  snowboarding, ice skating, salsa dancing, tango, ballet, pottery, woodworking, knitting, crochet, quilting,
  embroidery, watercolor painting, oil painting, sketching, calligraphy, photography, film photography, birdwatching,
  gardening, beekeeping, baking sourdough, home brewing, fermenting, cooking classes, chess, go, bridge, poker,
  board games, jigsaw puzzles, crosswords, sudoku, reading mysteries, science fiction, poetry, journaling, blogging,
  podcasting, learning Spanish, learning Japanese, playing guitar, piano lessons, violin, drumming, choir singing,
  ukulele, stand-up comedy, improv theater, volunteering at the shelter, coaching youth soccer, astronomy, geocaching,
  model trains, drone flying, 3D printing, electronics tinkering, coding side projects, chess puzzles, meditation`);

export const VENUES =
  list(`farmers market, public library, community center, climbing gym, yoga studio, coworking space, coffee roastery,
  bakery, bookstore, art museum, botanical garden, city park, riverside trail, harbor, train station, airport lounge,
  hospital, dental clinic, pharmacy, hardware store, garden center, music school, dance studio, swimming pool,
  tennis club, golf course, ski resort, conference center, town hall, post office, bike shop, cinema, jazz club,
  wine bar, brewery, night market, food hall, science museum, aquarium, zoo, stadium, concert hall, university campus`);

export const RELATIONS =
  list(`my sister, my brother, my mom, my dad, my wife, my husband, my partner, my son, my daughter, my cousin,
  my aunt, my uncle, my grandmother, my grandfather, my best friend, my neighbor, my manager, my colleague, my mentor,
  my roommate, my landlord, my coach, my therapist, my accountant, my doctor`);

export const TASK_VERBS =
  list(`review, renew, book, cancel, reschedule, send, sign, file, pay, update, call, email, pick up, drop off,
  return, order, buy, fix, clean, organize, prepare, print, scan, submit, confirm, back up, pack, water, walk,
  register for, sign up for, follow up on, write up, draft, proofread, approve, deploy, test, refactor, archive,
  migrate, document, benchmark, present, outline, budget for, research, compare, plan, invite people to`);

export const TECH = list(`TypeScript, Python, Go, Rust, Kotlin, Swift, PostgreSQL, pgvector, Redis, Kafka, Kubernetes,
  Docker, Terraform, React, Vue, Svelte, Next.js, Fastify, Django, Flask, Rails, GraphQL, gRPC, WebSockets, S3,
  Lambda, BigQuery, Snowflake, Airflow, dbt, Spark, Elasticsearch, OpenSearch, SQLite, DuckDB, Tailwind, Figma, Jira,
  Linear, Notion, Slack, GitHub Actions, Sentry, Grafana, Prometheus, OpenTelemetry, Stripe, Twilio, Auth0, Vercel,
  Cloudflare`);

export const JOBS = list(`product manager, software engineer, data scientist, designer, nurse, pharmacist, teacher,
  professor, architect, lawyer, paralegal, accountant, consultant, recruiter, sales director, marketing lead, chef,
  barista, electrician, plumber, carpenter, veterinarian, dentist, physiotherapist, photographer, journalist, editor,
  translator, pilot, flight attendant, civil engineer, researcher, librarian, social worker, real estate agent,
  financial advisor, operations manager, startup founder, game developer, musician`);

export const CHANNELS = list(
  `email, text message, phone call, Slack, WhatsApp, Signal, video call, LinkedIn, Telegram`,
);

export const ALLERGENS = list(`peanuts, tree nuts, shellfish, gluten, lactose, eggs, soy, sesame, strawberries, kiwi,
  cat dander, pollen, penicillin, latex, bee stings, mustard, celery, sulfites`);

export const TRANSPORT = list(`bus, tram, subway, ferry, commuter train, bike, e-scooter, car, carpool`);

export const PARTS_OF_DAY = list(`morning, afternoon, evening, late evening, lunch break, early morning`);
export const WEEKDAYS = list(`Monday, Tuesday, Wednesday, Thursday, Friday, Saturday, Sunday`);
export const MONTHS = list(
  `January, February, March, April, May, June, July, August, September, October, November, December`,
);

/** Closing remarks appended to some memories, so lengths spread over 10-40 words. */
export const FOLLOW_UPS = [
  'Mentioned it twice this week, so it seems important',
  'Asked me to keep this in mind for next time',
  'Said the last attempt went badly',
  'Wants a reminder the day before',
  'Not urgent, but it should not slip again',
  'This came up while planning the weekend',
  'Noted after a long phone call',
  'Said it is fine to share this with the family',
  'Double-check the details before confirming',
];

/** Lowercase alphabetic words of one part-of-speech tag from compromise's lexicon. */
function lexicon(tag: string): string[] {
  const lex = (nlp.model() as { one: { lexicon: Record<string, string | string[]> } }).one.lexicon;
  return Object.entries(lex)
    .filter(([w, t]) => t === tag && /^[a-z]{3,}$/.test(w))
    .map(([w]) => w)
    .sort(); // object order is an implementation detail; sorted lists keep the corpus stable
}

const capitalise = (w: string) => w[0].toUpperCase() + w.slice(1);

/** The large pools, read once from compromise's lexicon. */
export const LEXICON = (() => ({
  firstNames: [...lexicon('FemaleName'), ...lexicon('MaleName'), ...lexicon('FirstName')].map(capitalise),
  lastNames: lexicon('LastName').map(capitalise),
  cities: lexicon('City').map(capitalise),
  countries: lexicon('Country').map(capitalise),
  nouns: lexicon('Singular'),
  pluralNouns: lexicon('Plural'),
  adjectives: lexicon('Adjective'),
}))();
