/**
 * What every model adapter (embedders, extractors) throws: a `code` callers branch on, whether
 * the same call may succeed later, and how long the server asked us to wait.
 */
export class ModelError<Code extends string> extends Error {
  /** How long a server asked us to wait before retrying (`Retry-After`), if it said. */
  readonly retryAfterMs?: number;

  constructor(
    readonly code: Code,
    message: string,
    /** True when the same call may succeed later (timeouts, 429, 5xx). */
    readonly retryable = false,
    options: { cause?: unknown; retryAfterMs?: number } = {},
  ) {
    super(message, { cause: options.cause });
    this.retryAfterMs = options.retryAfterMs;
  }
}
