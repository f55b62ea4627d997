import { z } from 'zod';
import path from 'node:path';

import { modelFields } from './config/models.ts';
import { checkOAuthConfig, oauthFields } from './config/oauth.ts';
import { serviceFields } from './config/service.ts';
import { surfaceFields } from './config/surface.ts';

/**
 * Every environment variable Engram reads, in one schema (its fields grouped by area in
 * src/config/). `loadConfig` is the only reader of `process.env`; everything else receives the
 * parsed `Config`.
 */
export const configSchema = z
  .object({ ...serviceFields, ...modelFields, ...oauthFields, ...surfaceFields })
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
  if (c.MEMORY_UPDATE_DECIDER === 'llm' && !(c.LLM_BASE_URL && c.LLM_MODEL))
    throw new ConfigError(['MEMORY_UPDATE_DECIDER=llm needs LLM_BASE_URL and LLM_MODEL']);
  if (c.EMBEDDER === 'onnx' && !c.MODELS_DIR) throw new ConfigError(['EMBEDDER=onnx needs MODELS_DIR']);
  const dataDir = path.resolve(c.DATA_DIR);
  return {
    ...c,
    DATA_DIR: dataDir,
    MODELS_CACHE_DIR: path.resolve(c.MODELS_CACHE_DIR ?? path.join(dataDir, 'models')),
    WORKER_LEASE_MS: c.WORKER_LEASE_MS ?? c.WORKER_VISIBILITY_MS ?? 10_000,
  };
}
