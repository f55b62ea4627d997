/**
 * Whether a memory falls in the times a query names (time-signal.ts reads them): by its own time,
 * or by a date its content mentions (its graph's Date nodes, named as ISO dates, weeks, months
 * or years).
 */
import { DAY, monthStart, type TimeConstraint } from './time-signal.ts';

/** Whether time `at` satisfies one of `constraints`. */
export function timeMatches(at: Date, constraints: TimeConstraint[]): boolean {
  const t = at.getTime();
  return constraints.some((c) =>
    c.kind === 'interval'
      ? t >= c.from && t < c.to
      : (c.year === undefined || at.getUTCFullYear() === c.year) &&
        (c.months === undefined || c.months.includes(at.getUTCMonth())) &&
        (c.day === undefined || at.getUTCDate() === c.day),
  );
}

/**
 * The days an ISO date name covers, as the graph's Date nodes name them ('2023', '2023-06',
 * '2023-W26', '2023-06-17'); undefined for anything else.
 */
export function isoNameInterval(name: string): { from: number; to: number } | undefined {
  let m = /^(\d{4})$/.exec(name);
  if (m) return { from: Date.UTC(+m[1], 0, 1), to: Date.UTC(+m[1] + 1, 0, 1) };
  m = /^(\d{4})-(\d{2})$/.exec(name);
  if (m) return { from: monthStart(+m[1], +m[2] - 1), to: monthStart(+m[1], +m[2]) };
  m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(name);
  if (m) {
    const from = Date.UTC(+m[1], +m[2] - 1, +m[3]);
    return { from, to: from + DAY };
  }
  m = /^(\d{4})-W(\d{2})$/.exec(name);
  if (m) {
    // ISO week 1 holds January 4th; weeks start on Monday.
    const jan4 = Date.UTC(+m[1], 0, 4);
    const from = jan4 - ((new Date(jan4).getUTCDay() + 6) % 7) * DAY + (+m[2] - 1) * 7 * DAY;
    return { from, to: from + 7 * DAY };
  }
  return undefined;
}

/**
 * Whether a date the memory's content mentions (an ISO name, see isoNameInterval) falls in one of
 * `constraints`: the span's first or last day does (a month or week named by a query and a week
 * or month mentioned overlap that way).
 */
export function mentionMatches(name: string, constraints: TimeConstraint[]): boolean {
  const span = isoNameInterval(name);
  if (!span) return false;
  if (span.to - span.from > 40 * DAY) {
    // A year mentioned: only a query's year (alone) is that specific.
    const year = new Date(span.from).getUTCFullYear();
    return constraints.some((c) => c.kind === 'calendar' && c.year === year && !c.months && !c.day);
  }
  return timeMatches(new Date(span.from), constraints) || timeMatches(new Date(span.to - DAY), constraints);
}
