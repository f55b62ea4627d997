import type { Queryable } from '../../platform/db/index.ts';

/** One proxied call's counts, added to its row of the day (migration 0025). */
export interface UsageRecord {
  organizationId: string;
  /** UTC day, YYYY-MM-DD. */
  day: string;
  provider: string;
  model: string;
  apiKeyId: string | null;
  namespaceId: string | null;
  userId: string | null;
  error: boolean;
  inputTokens: number;
  outputTokens: number;
}

/** One upsert per call: the row of (organization, day, provider, model, caller) counts it. */
export async function recordUsage(db: Queryable, r: UsageRecord): Promise<void> {
  await db.query(
    `INSERT INTO ai_usage (organization_id, day, provider, model, api_key_id, namespace_id, user_id,
       requests, errors, input_tokens, output_tokens)
     VALUES ($1, $2::date, $3, $4, $5, $6, $7, 1, $8, $9, $10)
     ON CONFLICT (organization_id, day, provider, model, api_key_id, namespace_id, user_id) DO UPDATE SET
       requests = ai_usage.requests + 1,
       errors = ai_usage.errors + EXCLUDED.errors,
       input_tokens = ai_usage.input_tokens + EXCLUDED.input_tokens,
       output_tokens = ai_usage.output_tokens + EXCLUDED.output_tokens,
       updated_at = now()`,
    [
      r.organizationId,
      r.day,
      r.provider,
      r.model,
      r.apiKeyId ?? '',
      r.namespaceId ?? '',
      r.userId ?? '',
      r.error ? 1 : 0,
      Math.round(r.inputTokens),
      Math.round(r.outputTokens),
    ],
  );
}

export interface UsageFilter {
  organizationId: string;
  start: string;
  end: string;
  provider?: string;
  model?: string;
  /** A namespace key sees the usage of its namespace's keys only. */
  namespaceId?: string;
  /** An end user's token sees only what was spent as them. */
  userId?: string;
}

export interface UsageRow {
  day: string;
  provider: string;
  model: string;
  requests: number;
  errors: number;
  input_tokens: number;
  output_tokens: number;
}

const WHERE = `organization_id = $1 AND day BETWEEN $2::date AND $3::date
  AND ($4::text IS NULL OR provider = $4) AND ($5::text IS NULL OR model = $5)
  AND ($6::text IS NULL OR namespace_id = $6) AND ($7::text IS NULL OR user_id = $7)`;

const SUMS = `SUM(requests)::float8 AS requests, SUM(errors)::float8 AS errors,
  SUM(input_tokens)::float8 AS input_tokens, SUM(output_tokens)::float8 AS output_tokens`;

const params = (f: UsageFilter) => [
  f.organizationId,
  f.start,
  f.end,
  f.provider ?? null,
  f.model ?? null,
  f.namespaceId ?? null,
  f.userId ?? null,
];

/** Per day, provider and model (all keys and users of the filter together), oldest first. */
export function usageByDay(db: Queryable, f: UsageFilter): Promise<UsageRow[]> {
  return db.query<UsageRow>(
    `SELECT to_char(day, 'YYYY-MM-DD') AS day, provider, model, ${SUMS}
     FROM ai_usage WHERE ${WHERE}
     GROUP BY day, provider, model ORDER BY day, provider, model`,
    params(f),
  );
}

export interface KeyUsageRow extends Omit<UsageRow, 'day' | 'provider' | 'model'> {
  api_key_id: string;
}

/** Per API key over the whole filter ('' is an end user's own token). */
export function usageByKey(db: Queryable, f: UsageFilter): Promise<KeyUsageRow[]> {
  return db.query<KeyUsageRow>(
    `SELECT api_key_id, ${SUMS} FROM ai_usage WHERE ${WHERE} GROUP BY api_key_id ORDER BY api_key_id`,
    params(f),
  );
}
