/**
 * Date expressions of the local extractor: "yesterday", "last weekend", "two weeks ago",
 * "the 5th of May", "next summer", "on Tues". Each is resolved against the memory's
 * `createdAt` to an ISO name at its own granularity (day, ISO week, weekend's Saturday,
 * month, season's year, year); a month or day without a year takes the nearest one in the
 * sentence's tense ("in May" said in past tense is the last May).
 */
import { has, isCap, span, surfaceOf, table, type Span, type Tok } from './extractor.local.tokens.ts';

/** A sentence's tense, as far as dates need it: which way a yearless date or bare weekday points. */
export type Tense = 'past' | 'present' | 'future';
/** Future on will/gonna/tomorrow/next/plan to…; past on any past-tense verb; else present. */
export function tenseOf(toks: Tok[]): Tense {
  const words = ` ${toks.map((t) => t.norm).join(' ')} `;
  if (/ (?:will|gonna|tomorrow|next|plan to|planning to|going to \w+) /.test(words)) return 'future';
  return toks.some((t) => has(t, 'PastTense')) ? 'past' : 'present';
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];
const RELATIVE_DAYS = table({ yesterday: -1, today: 0, tonight: 0, tomorrow: 1 });
const SHIFT = table({ last: -1, past: -1, this: 0, next: 1, coming: 1 });
const QUANTITY = table({
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
});
const SEASONS = table({ spring: 2, summer: 5, fall: 8, autumn: 8, winter: 11 }); // first month, 0-based
const DAY_MS = 86_400_000;

const monthOf = (t: Tok | undefined) => (t && has(t, 'Month') && isCap(t) ? MONTHS.indexOf(t.norm.slice(0, 3)) : -1);
const weekdayOf = (t: Tok | undefined) => (t && isCap(t) ? WEEKDAYS.indexOf(t.norm) : -1);
/** Also 'Tues', 'Thurs'…, accepted only after last/next/this/on, where they cannot be anything else. */
const weekdayAbbrevOf = (t: Tok | undefined) =>
  t && isCap(t) && /^(?:sun|mon|tue|tues|wed|thu|thur|thurs|fri|sat)$/.test(t.norm)
    ? WEEKDAYS.findIndex((d) => d.startsWith(t.norm.slice(0, 3)))
    : weekdayOf(t);
const dayOf = (t: Tok | undefined) => {
  const m = /^(\d{1,2})(?:st|nd|rd|th)?$/.exec(t?.norm ?? '');
  return m && +m[1] >= 1 && +m[1] <= 31 ? +m[1] : undefined;
};
const yearOf = (t: Tok | undefined) => (t && /^(?:1[89]|20)\d\d$/.test(t.norm) ? +t.norm : undefined);

const pad = (n: number) => String(n).padStart(2, '0');
const addDays = (d: Date, n: number) => new Date(d.getTime() + n * DAY_MS);
const isoDay = (d: Date) => d.toISOString().slice(0, 10);
/** 'YYYY-MM' of the month `shift` months from `d`. */
const isoMonth = (d: Date, shift = 0) => {
  const m = d.getUTCFullYear() * 12 + d.getUTCMonth() + shift;
  return `${Math.floor(m / 12)}-${pad((m % 12) + 1)}`;
};
/** ISO-8601 week ('2023-W19'): weeks start on Monday, week 1 holds the year's first Thursday. */
function isoWeek(d: Date): string {
  const thursday = addDays(d, 4 - (d.getUTCDay() || 7));
  const jan1 = Date.UTC(thursday.getUTCFullYear(), 0, 1);
  return `${thursday.getUTCFullYear()}-W${pad(Math.ceil(((thursday.getTime() - jan1) / DAY_MS + 1) / 7))}`;
}
/** The weekday `wd` before (dir -1), after (1) or on-or-after (0) `ref`. */
function weekdayNear(ref: Date, wd: number, dir: number): Date {
  let diff = wd - ref.getUTCDay();
  if (dir < 0 && diff >= 0) diff -= 7;
  else if (dir > 0 && diff <= 0) diff += 7;
  else if (dir === 0 && diff < 0) diff += 7;
  return addDays(ref, diff);
}
/** The Saturday of the weekend `shift` weekends from the current (or, on weekdays, the coming) one. */
function weekendOf(ref: Date, shift: number): Date {
  const lastSaturday = addDays(ref, -((ref.getUTCDay() + 1) % 7));
  const current = ref.getUTCDay() === 6 || ref.getUTCDay() === 0 ? lastSaturday : addDays(lastSaturday, 7);
  return addDays(current, 7 * shift);
}
/** A year for a month (and day) given without one: the nearest occurrence in the sentence's tense. */
function yearFor(ref: Date, month: number, day: number | undefined, tense: Tense): number {
  const when = month * 32 + (day ?? 0);
  const now = ref.getUTCMonth() * 32 + (day === undefined ? 0 : ref.getUTCDate());
  return ref.getUTCFullYear() + (tense === 'past' && when > now ? -1 : tense === 'future' && when < now ? 1 : 0);
}

/**
 * A date expression starting at token i, resolved against `ref` to an ISO name (day, week,
 * weekend, month or year). Unresolvable ones (relative, without `ref`) still claim their
 * tokens, so 'yesterday' never becomes a topic, but make no node.
 */
export function matchDate(toks: Tok[], i: number, ref: Date | undefined, tense: Tense): Span | undefined {
  const t = toks[i];
  const n = t.norm;
  const next = toks[i + 1];
  let end = i + 1;
  let value: [string, string] | undefined; // [iso name, granularity]
  const ago = matchAgo(toks, i);
  const season = SEASONS[next?.norm ?? ''];
  if (n in RELATIVE_DAYS) {
    if (/^(?:morning|afternoon|evening|night)$/.test(next?.norm ?? '')) end++;
    if (ref) value = [isoDay(addDays(ref, RELATIVE_DAYS[n])), 'day'];
  } else if (n in SHIFT && next && (/^(?:week|weekend|month|year)$/.test(next.norm) || weekdayAbbrevOf(next) >= 0)) {
    end = i + 2;
    const k = SHIFT[n];
    if (!ref)
      value = undefined; // claimed, but nothing to resolve against
    else if (next.norm === 'week') value = [isoWeek(addDays(ref, 7 * k)), 'week'];
    else if (next.norm === 'weekend') value = [isoDay(weekendOf(ref, k)), 'weekend'];
    else if (next.norm === 'month') value = [isoMonth(ref, k), 'month'];
    else if (next.norm === 'year') value = [String(ref.getUTCFullYear() + k), 'year'];
    else value = [isoDay(weekdayNear(ref, weekdayAbbrevOf(next), k === 0 ? (tense === 'past' ? -1 : 0) : k)), 'day'];
  } else if (n in SHIFT && season !== undefined) {
    // "last summer": the latest one that has ended; "next summer": the first one not yet begun. Named by its year.
    end = i + 2;
    const [y, m] = [ref?.getUTCFullYear() ?? 0, ref?.getUTCMonth() ?? 0];
    const k = SHIFT[n];
    const year = k < 0 ? (m > season + 2 ? y : y - 1) : k > 0 ? (m < season ? y : y + 1) : y;
    if (ref) value = [String(year), 'season'];
  } else if (ago) {
    const { q, unit } = ago;
    end = ago.end;
    if (ref && unit === 'day') value = [isoDay(addDays(ref, -q)), 'day'];
    else if (ref && unit === 'week') value = [isoWeek(addDays(ref, -7 * q)), 'week'];
    else if (ref && unit === 'month') value = [isoMonth(ref, -q), 'month'];
    else if (ref) value = [String(ref.getUTCFullYear() - q), 'year'];
  } else if (dayOf(t) && (monthOf(next) >= 0 || (next?.norm === 'of' && monthOf(toks[i + 2]) >= 0))) {
    const m = next.norm === 'of' ? i + 2 : i + 1; // "7 May 2023", "the 5th of May"
    const year = yearOf(toks[m + 1]);
    end = year ? m + 2 : m + 1;
    value = dayValue(ref, monthOf(toks[m]), dayOf(t)!, year, tense);
  } else if (monthOf(t) >= 0) {
    const day = dayOf(next);
    const year = yearOf(day ? toks[i + 2] : next);
    end = i + 1 + (day ? 1 : 0) + (year ? 1 : 0);
    if (day) value = dayValue(ref, monthOf(t), day, year, tense);
    else if (year || ref)
      value = [`${year ?? yearFor(ref!, monthOf(t), undefined, tense)}-${pad(monthOf(t) + 1)}`, 'month'];
  } else if (weekdayOf(t) >= 0 || (toks[i - 1]?.norm === 'on' && weekdayAbbrevOf(t) >= 0)) {
    if (ref)
      value = [isoDay(weekdayNear(ref, weekdayAbbrevOf(t), tense === 'past' ? -1 : tense === 'future' ? 1 : 0)), 'day'];
  } else if (yearOf(t) && (has(t, 'Year') || /^(?:in|since|of|from|until|by)$/.test(toks[i - 1]?.norm ?? ''))) {
    value = [String(yearOf(t)), 'year'];
  } else return undefined;
  const s = span(
    toks,
    i,
    end,
    'Date',
    value?.[0] ?? '',
    value ? { granularity: value[1], text: surfaceOf(toks.slice(i, end)) } : {},
  );
  return value ? s : { ...s, dropped: true };
}

/** "two days ago", "a couple of weeks ago", "3 years ago". */
function matchAgo(toks: Tok[], i: number): { q: number; unit: string; end: number } | undefined {
  const n = toks[i].norm;
  let u = i + 1;
  let q = QUANTITY[n] ?? (/^\d+$/.test(n) ? +n : NaN);
  if (n === 'couple' || toks[u]?.norm === 'couple') {
    u = n === 'couple' ? u : u + 1;
    [q, u] = [2, toks[u]?.norm === 'of' ? u + 1 : u];
  }
  const unit = /^(day|week|month|year)s?$/.exec(toks[u]?.norm ?? '')?.[1];
  return unit && toks[u + 1]?.norm === 'ago' && q > 0 ? { q, unit, end: u + 2 } : undefined;
}

/**
 * A day of a month as [ISO day, 'day']; the year inferred when absent; undefined for
 * "30 February" or with nothing to infer from.
 */
function dayValue(
  ref: Date | undefined,
  month: number,
  day: number,
  year: number | undefined,
  tense: Tense,
): [string, string] | undefined {
  const y = year ?? (ref ? yearFor(ref, month, day, tense) : undefined);
  if (y === undefined) return undefined;
  const d = new Date(Date.UTC(y, month, day));
  return d.getUTCDate() === day ? [isoDay(d), 'day'] : undefined;
}
