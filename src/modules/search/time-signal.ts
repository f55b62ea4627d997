/**
 * The time-aware signal (issue #24; docs/retrieval.md, "Speakers and times"): a query that names
 * a time ("in June", "on October 13, 2023", "in 2022", "last week", "three days ago", "last
 * summer") prefers memories whose time falls in it — the memory's `createdAt` (when it happened,
 * as the client says), else when it was stored. Absolute expressions match calendar fields (a
 * month without a year matches that month of any year: memories span years, and "in June" asked
 * in November usually means the last June, which the other signals then tell apart); relative
 * ones are resolved against the moment of the search. On LoCoMo dev, 113 of the 116 evidence
 * turns of questions naming a month were said in that month.
 *
 * A cheap, regex-level reading of the query, not the graph extractor's full date parser: it runs
 * on every search. Ambiguous month words (may, march, august) count only next to a number or
 * after a time preposition ("in May", "May 5", "last March").
 */

/** What a query's time expression asks for. Months are 0-based; `to` is exclusive (ms). */
export type TimeConstraint =
  { kind: 'calendar'; year?: number; months?: number[]; day?: number } | { kind: 'interval'; from: number; to: number };

const MONTHS: Record<string, number> = {
  january: 0,
  jan: 0,
  february: 1,
  feb: 1,
  march: 2,
  mar: 2,
  april: 3,
  apr: 3,
  may: 4,
  june: 5,
  jun: 5,
  july: 6,
  jul: 6,
  august: 7,
  aug: 7,
  september: 8,
  sep: 8,
  sept: 8,
  october: 9,
  oct: 9,
  november: 10,
  nov: 10,
  december: 11,
  dec: 11,
};
/** Month words that are also common words: months only in a time context. */
const AMBIGUOUS = new Set(['may', 'march', 'mar', 'aug', 'august', 'jan', 'sep', 'dec', 'oct', 'nov', 'jun', 'jul']);
const TIME_PREPOSITIONS = new Set([
  'in',
  'during',
  'since',
  'until',
  'till',
  'before',
  'after',
  'of',
  'from',
  'by',
  'last',
  'this',
  'next',
  'early',
  'late',
  'mid',
  'around',
  'through',
  'throughout',
  'on',
]);
/** Northern-hemisphere seasons: their months (0-based). Winter spans the year's turn. */
const SEASONS: Record<string, number[]> = {
  spring: [2, 3, 4],
  summer: [5, 6, 7],
  fall: [8, 9, 10],
  autumn: [8, 9, 10],
  winter: [11, 0, 1],
};
const NUMBERS: Record<string, number> = {
  a: 1,
  an: 1,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
};
export const DAY = 86_400_000;

const dayNumber = (w: string | undefined) => {
  const m = /^(\d{1,2})(?:st|nd|rd|th)?$/.exec(w ?? '');
  return m && +m[1] >= 1 && +m[1] <= 31 ? +m[1] : undefined;
};
const yearNumber = (w: string | undefined) => (w && /^(?:19|20)\d\d$/.test(w) ? +w : undefined);
const startOfDay = (t: number) => Math.floor(t / DAY) * DAY;
export const monthStart = (y: number, m: number) => Date.UTC(y, m, 1);

/** The interval of the unit (`day`, `week` from Monday, `month`, `year`) `shift` units from `now`'s. */
function unitInterval(now: Date, unit: string, shift: number): { from: number; to: number } | undefined {
  const y = now.getUTCFullYear();
  const m = now.getUTCMonth();
  if (unit === 'day') {
    const from = startOfDay(now.getTime()) + shift * DAY;
    return { from, to: from + DAY };
  }
  if (unit === 'week') {
    const monday = startOfDay(now.getTime()) - ((now.getUTCDay() + 6) % 7) * DAY + shift * 7 * DAY;
    return { from: monday, to: monday + 7 * DAY };
  }
  if (unit === 'weekend') {
    // This weekend: the current one on Saturday and Sunday, else the coming one.
    const dow = now.getUTCDay();
    const lastSaturday = startOfDay(now.getTime()) - ((dow + 1) % 7) * DAY;
    const current = dow === 6 || dow === 0 ? lastSaturday : lastSaturday + 7 * DAY;
    const from = current + shift * 7 * DAY;
    return { from, to: from + 2 * DAY };
  }
  if (unit === 'month') return { from: monthStart(y, m + shift), to: monthStart(y, m + shift + 1) };
  if (unit === 'year') return { from: Date.UTC(y + shift, 0, 1), to: Date.UTC(y + shift + 1, 0, 1) };
  return undefined;
}

/** The season `shift` seasons from the current one (last summer: the latest that has begun and is not the current). */
function seasonInterval(now: Date, months: number[], shift: number): { from: number; to: number } {
  const first = months[0];
  let year = now.getUTCFullYear();
  const current = now.getUTCFullYear() * 12 + now.getUTCMonth();
  // The occurrence starting in `year`; step to the one the shift names.
  let start = year * 12 + first;
  if (shift < 0)
    while (start + 3 > current) start -= 12; // ended before now
  else if (shift > 0)
    while (start <= current) start += 12; // not yet begun
  else while (start + 3 <= current) start += 12; // this one: current or coming
  year = Math.floor(start / 12);
  return { from: monthStart(year, start % 12), to: monthStart(year, (start % 12) + 3) };
}

/** The time constraints a query names (none for most queries). */
export function queryTimes(query: string, now: Date): TimeConstraint[] {
  const out: TimeConstraint[] = [];
  const ISO = /\b((?:19|20)\d\d)-(\d\d)-(\d\d)\b/g;
  for (const m of query.matchAll(ISO)) out.push({ kind: 'calendar', year: +m[1], months: [+m[2] - 1], day: +m[3] });
  const w =
    query
      .replace(ISO, ' ')
      .toLowerCase()
      .match(/[a-z]+|\d+(?:st|nd|rd|th)?/g) ?? [];
  /** A year right after word i ("June 2023"), or after "of" ("summer of 2023"): its index. */
  const yearAt = (i: number) => (yearNumber(w[i + 1]) ? i + 1 : w[i + 1] === 'of' && yearNumber(w[i + 2]) ? i + 2 : -1);
  const used = new Set<number>();
  for (let i = 0; i < w.length; i++) {
    const month = MONTHS[w[i]];
    if (month !== undefined) {
      const dayBefore = dayNumber(w[i - 1]) ?? (w[i - 1] === 'of' ? dayNumber(w[i - 2]) : undefined);
      const dayAfter = yearNumber(w[i + 1]) ? undefined : dayNumber(w[i + 1]);
      const at = yearAt(dayAfter ? i + 1 : i);
      const year = at >= 0 ? yearNumber(w[at]) : undefined;
      const context = dayBefore || dayAfter || year || TIME_PREPOSITIONS.has(w[i - 1]);
      if (AMBIGUOUS.has(w[i]) && !context) continue;
      if (at >= 0) used.add(at);
      out.push({ kind: 'calendar', year, months: [month], day: dayBefore ?? dayAfter });
      continue;
    }
    if (SEASONS[w[i]]) {
      const shift = { last: -1, this: 0, next: 1 }[w[i - 1] ?? ''];
      const at = yearAt(i);
      const year = at >= 0 ? yearNumber(w[at]) : undefined;
      if (at >= 0) used.add(at);
      if (shift !== undefined && !year) out.push({ kind: 'interval', ...seasonInterval(now, SEASONS[w[i]], shift) });
      else out.push({ kind: 'calendar', year, months: SEASONS[w[i]] });
      continue;
    }
    if (w[i] === 'yesterday' || w[i] === 'today' || w[i] === 'tonight') {
      out.push({ kind: 'interval', ...unitInterval(now, 'day', w[i] === 'yesterday' ? -1 : 0)! });
      continue;
    }
    const shift = { last: -1, past: -1, this: 0, next: 1 }[w[i]];
    if (shift !== undefined && ['week', 'weekend', 'month', 'year'].includes(w[i + 1])) {
      out.push({ kind: 'interval', ...unitInterval(now, w[i + 1], shift)! });
      i++;
      continue;
    }
    // "three weeks ago", "2 days ago"
    const count = NUMBERS[w[i]] ?? (/^\d{1,3}$/.test(w[i]) ? +w[i] : undefined);
    const unit = w[i + 1]?.replace(/s$/, '');
    if (count !== undefined && w[i + 2] === 'ago' && ['day', 'week', 'month', 'year'].includes(unit ?? '')) {
      out.push({ kind: 'interval', ...unitInterval(now, unit!, -count)! });
      i += 2;
      continue;
    }
    const year = yearNumber(w[i]);
    if (year && !used.has(i)) out.push({ kind: 'calendar', year });
  }
  return out;
}

/** "When …", "since when …", "how long ago …", or a time unit asked for before its verb ("What year did …"). */
const ASKS_WHEN = new RegExp(
  String.raw`^\W*(?:when|since when|how long ago|(?:what|which|in what|in which) (?:year|month|day|date|time|week)s?` +
    String.raw` (?:did|does|do|is|was|were|will|would|has|have|had|are|of)|(?:what|which) (?:date|year)\b)\b`,
  'i',
);
/**
 * Whether the query asks for a time ("When did …", "What year …", "How long ago …"): its answer is
 * in a memory that states one, so memories whose words mention a date (their graph's Date nodes:
 * "yesterday", "last week", "in May") are preferred, by the time signal's weight.
 */
export function asksWhen(query: string): boolean {
  return ASKS_WHEN.test(query);
}
