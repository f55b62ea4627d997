/**
 * The API surface around memories: AI proxy, documents, feedback, telemetry.
 * Part of the one schema assembled in src/config.ts.
 */
import { z } from 'zod';
import { bool, int } from './fields.ts';

export const surfaceFields = {
  /**
   * The AI proxy's upstreams (docs/ai-proxy.md): a provider is served when its base URL or its
   * key is set (the base URL defaults to the provider's own API). Callers never name an upstream.
   */
  AI_OPENAI_BASE_URL: z.url().optional(),
  AI_OPENAI_API_KEY: z.string().optional(),
  AI_ANTHROPIC_BASE_URL: z.url().optional(),
  AI_ANTHROPIC_API_KEY: z.string().optional(),
  /** `anthropic-version` sent when the caller sends none. */
  AI_ANTHROPIC_VERSION: z.string().min(1).default('2023-06-01'),
  AI_GOOGLE_BASE_URL: z.url().optional(),
  AI_GOOGLE_API_KEY: z.string().optional(),
  /** How long an upstream may take to answer, and the longest silence inside its (streamed) answer. */
  AI_TIMEOUT_MS: int(120_000, 100),
  /** Memories the proxy adds to a request at most, and their budget in characters. */
  AI_MEMORY_MAX: int(5, 1).pipe(z.number().max(50)),
  AI_MEMORY_CHARS: int(4000, 100),
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
  /**
   * Feedback as a ranking signal (docs/feedback.md): memories a user cited or rated up rise in
   * that user's later searches, those rated down fall. false: feedback is stored only.
   */
  FEEDBACK_RANKING: bool.default(true),
  /** The most feedback moves a memory: this share of the search's best first-stage score, up or down. */
  FEEDBACK_WEIGHT: z.coerce.number().min(0).max(1).default(0.2),
  /** A feedback counts half after this many days, a quarter after twice as many (0: it never fades). */
  FEEDBACK_HALF_LIFE_DAYS: z.coerce.number().min(0).default(180),
  /**
   * Store the telemetry events clients send (POST /v1/telemetry/events; docs/telemetry.md).
   * false: they are answered (events_processed 0) and nothing is stored.
   */
  TELEMETRY_ENABLED: bool.default(true),
  /** Telemetry events are deleted this many days after they were received. */
  TELEMETRY_RETENTION_DAYS: int(90, 1),
};
