/**
 * The service: network, store, roles, jobs, retention, webhooks, limits.
 * Part of the one schema assembled in src/config.ts.
 */
import { z } from 'zod';
import { bool, int } from './fields.ts';

export const serviceFields = {
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
  /**
   * Hot statements prepared once per connection (docs/retrieval.md, "Prepared statements"). Off
   * behind a transaction-mode pooler that does not track prepared statements (PgBouncer before
   * 1.21, or its max_prepared_statements = 0): there a named statement can meet another connection.
   */
  DATABASE_PREPARED_STATEMENTS: bool.default(true),
  /** Value of the first organization key; generated and written to DATA_DIR when absent. */
  BOOTSTRAP_API_KEY: z.string().min(16, 'must be at least 16 characters').optional(),
  /** Operator credential of the admin API (`/admin/...`); the API is off (404) without it. */
  ADMIN_API_KEY: z.string().min(32, 'must be at least 32 characters').optional(),
  /** Roles this process runs: the HTTP API, the background worker, or both. */
  ROLES: z
    .string()
    .default('api,worker')
    .transform((s) =>
      s
        .split(',')
        .map((r) => r.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.enum(['api', 'worker'])).min(1)),
  /** Background jobs run at once per worker process (docs/jobs.md). */
  WORKER_CONCURRENCY: int(4, 1),
  /** Poll interval of the worker; LISTEN/NOTIFY wakes it sooner. */
  WORKER_POLL_MS: int(1000, 10),
  /**
   * The job lease (default 10000): a worker holds each job it runs for this long and renews it
   * every third of it, so the jobs of a worker that died (kill -9) or lost the store run again
   * on another worker about this long after its last renewal (docs/jobs.md).
   */
  WORKER_LEASE_MS: z.coerce.number().int().min(1000).optional(),
  /** @deprecated The former name of WORKER_LEASE_MS, read when that is unset. */
  WORKER_VISIBILITY_MS: z.coerce.number().int().min(1000).optional(),
  /** On shutdown, how long the worker waits for jobs in hand before handing them back. */
  WORKER_SHUTDOWN_GRACE_MS: int(10_000, 0),
  /** First retry delay of a failed job; each further retry doubles it (capped at 10 minutes). */
  JOB_BACKOFF_BASE_MS: int(1000, 10),
  /** Completed jobs are deleted this many days after they finished (dead jobs stay). */
  JOBS_RETENTION_DAYS: int(7, 1),
  /** Memory lifecycle events and finished webhook deliveries are deleted after this many days. */
  EVENTS_RETENTION_DAYS: int(30, 1),
  /** Sync tombstones (deleted memories in the change feed) are kept this many days; older cursors get a 410. */
  SYNC_TOMBSTONE_RETENTION_DAYS: int(90, 1),
  /** Deliver webhooks to loopback and private addresses (tests, trusted networks only). */
  WEBHOOK_ALLOW_PRIVATE: bool.default(false),
  /** Delivery attempts before a webhook is recorded as failed (docs/webhooks.md). */
  WEBHOOK_MAX_ATTEMPTS: int(6, 1),
  /** How long one delivery attempt may take. */
  WEBHOOK_TIMEOUT_MS: int(10_000, 100),
  /** WebSocket status streams re-read the status this often in case a NOTIFY was missed. */
  WS_POLL_MS: int(5000, 50),
  /** Time a socket without header credentials has to send its auth message. */
  WS_AUTH_TIMEOUT_MS: int(10_000, 100),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Requests per window per API key (0 disables rate limiting). */
  RATE_LIMIT_MAX: int(1000, 0),
  RATE_LIMIT_WINDOW_MS: int(1000, 100),
  /** Largest accepted request body. */
  BODY_LIMIT_BYTES: int(10 * 1024 * 1024, 1024),
  RERANK_BODY_LIMIT_BYTES: int(33_554_432, 1024),
  /**
   * Responses from this size on are compressed (br, gzip or deflate) when the client accepts
   * it; spec §8 says over 1 KB. Cheap at the settings of src/platform/http/app.ts (a 20 KB
   * page costs 0.05–0.1 ms end to end; `npm run bench:compress`).
   */
  COMPRESS_MIN_BYTES: int(1024, 0),
  /** Largest memory content in bytes (spec §8). */
  MAX_CONTENT_BYTES: int(15000, 1),
  /** Duplicates on write unless a request says otherwise: near (exact and near), exact, off (docs/truth.md). */
  MEMORY_DEDUPE: z.enum(['near', 'exact', 'off']).default('near'),
  /** Supersession of older facts on write unless a request says otherwise: auto or off (docs/truth.md). */
  MEMORY_SUPERSEDE: z.enum(['auto', 'off']).default('auto'),
  /**
   * Who decides supersession on write: `offline` (facts and attribute classification) alone, or
   * also `llm`, the chat server of LLM_BASE_URL and LLM_MODEL, whose decisions are added to the
   * offline ones; a failing LLM leaves the write to the offline detection (docs/truth.md).
   */
  MEMORY_UPDATE_DECIDER: z.enum(['offline', 'llm']).default('offline'),
};
