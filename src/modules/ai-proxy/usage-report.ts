import type { Queryable } from '../../platform/db/index.ts';
import { isEndUser, type Actor } from '../../shared/actor.ts';
import { unprocessable } from '../../shared/errors.ts';
import type { UsageQuery } from './ai-proxy.schemas.ts';
import { usageByDay, usageByKey, type UsageFilter } from './ai-proxy.store.ts';
import { PROVIDERS, type ProviderName } from './providers.ts';

/** The longest period one usage report covers. */
export const MAX_USAGE_DAYS = 366;
const DAY_MS = 86_400_000;

/** YYYY-MM-DD of `value`'s leading date (a date or an ISO date-time), or a 422 naming `field`. */
function dayOf(value: string, field: string): number {
  const day = value.slice(0, 10);
  const ms = Date.parse(`${day}T00:00:00Z`);
  // Before 1970 nothing was proxied (and year 0 is no date for PostgreSQL).
  if (Number.isNaN(ms) || ms < 0 || new Date(ms).toISOString().slice(0, 10) !== day)
    throw unprocessable(`${field} is not a date from 1970 on: ${value}`, { field });
  return ms;
}

const iso = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The report's UTC days, both included: `end` (default today) and `start` (default 29 days before it). */
export function usagePeriod(q: { start?: string; end?: string }, now: Date): { start: string; end: string } {
  const end = q.end ? dayOf(q.end, 'end') : Date.parse(`${now.toISOString().slice(0, 10)}T00:00:00Z`);
  const start = q.start ? dayOf(q.start, 'start') : end - 29 * DAY_MS;
  if (start > end) throw unprocessable('start is after end', { fields: ['start', 'end'] });
  if ((end - start) / DAY_MS + 1 > MAX_USAGE_DAYS)
    throw unprocessable(`A report covers at most ${MAX_USAGE_DAYS} days`, { fields: ['start', 'end'] });
  return { start: iso(start), end: iso(end) };
}

/**
 * The usage report of GET /v1/ai/usage: per day, provider and model, totals and per key. An
 * organization key sees its organization, a namespace key the calls of its namespace's keys,
 * an end user's token their own calls.
 */
export async function usageReport(
  db: Queryable,
  actor: Actor,
  query: UsageQuery,
  opts: { now: Date; configured: ProviderName[] },
) {
  const period = usagePeriod(query, opts.now);
  const filter: UsageFilter = {
    organizationId: actor.organizationId,
    ...period,
    provider: query.provider,
    model: query.model,
    namespaceId: actor.namespaceId ?? undefined,
    userId: isEndUser(actor) ? actor.userId : undefined,
  };
  const [days, keys] = await Promise.all([usageByDay(db, filter), usageByKey(db, filter)]);
  const totals = { requests: 0, errors: 0, input_tokens: 0, output_tokens: 0 };
  for (const d of days) for (const k of Object.keys(totals) as (keyof typeof totals)[]) totals[k] += d[k];
  const providers = Object.fromEntries(PROVIDERS.map((p) => [p, { configured: opts.configured.includes(p) }]));
  return {
    ...period,
    providers: providers as Record<ProviderName, { configured: boolean }>,
    totals,
    days: days.map((d) => ({ ...d, provider: d.provider as ProviderName })),
    by_api_key: keys.map((k) => ({ ...k, api_key_id: k.api_key_id || null })),
  };
}
