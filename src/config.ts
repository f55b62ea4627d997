import { z } from 'zod';
import path from 'node:path';

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');
const int = (def: number, min = 0) => z.coerce.number().int().min(min).default(def);

/**
 * Every environment variable Engram reads, in one schema. `loadConfig` is the only
 * reader of `process.env`; everything else receives the parsed `Config`.
 */
export const configSchema = z.object({
  PORT: int(8080, 0).refine((p) => p <= 65535, 'must be a port number (0-65535)'),
  HOST: z.string().min(1).default('0.0.0.0'),
  /** Embedded store location and other local state (bootstrap key, model caches). */
  DATA_DIR: z.string().min(1).default('./data'),
  /** When set, PostgreSQL (with pgvector) replaces the embedded PGlite store. */
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
    .optional(),
  DATABASE_POOL_SIZE: int(10, 1),
  /** Value of the first organization key; generated and written to DATA_DIR when absent. */
  BOOTSTRAP_API_KEY: z.string().min(16, 'must be at least 16 characters').optional(),
  /** Roles this process runs: the HTTP API, the background worker, or both. */
  ROLES: z
    .string()
    .default('api,worker')
    .transform((s) => s.split(',').map((r) => r.trim()).filter(Boolean))
    .pipe(z.array(z.enum(['api', 'worker'])).min(1)),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Requests per window per API key (0 disables rate limiting). */
  RATE_LIMIT_MAX: int(1000, 0),
  RATE_LIMIT_WINDOW_MS: int(1000, 100),
  /** Largest accepted request body. */
  BODY_LIMIT_BYTES: int(10 * 1024 * 1024, 1024),
  /** Largest memory content in bytes (spec §8). */
  MAX_CONTENT_BYTES: int(15000, 1),
  /** Serve /docs (the OpenAPI viewer). */
  DOCS_ENABLED: bool.default(true),
});

export type Config = z.infer<typeof configSchema>;

/** Thrown with every problem listed, so an operator fixes them all in one go. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Parse and validate the environment. Empty strings count as unset. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const known = Object.keys(configSchema.shape);
  const input: Record<string, string> = {};
  for (const key of known) {
    const v = env[key];
    if (v !== undefined && v !== '') input[key] = v;
  }
  const parsed = configSchema.safeParse(input);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message} (got ${JSON.stringify(input[String(i.path[0])])})`),
    );
  }
  return { ...parsed.data, DATA_DIR: path.resolve(parsed.data.DATA_DIR) };
}
