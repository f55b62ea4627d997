/**
 * The one error type services throw. The HTTP layer maps it to the spec's envelope
 * `{code, status: "error", error, details}` with the HTTP status equal to `code`.
 */
export class AppError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly details: Record<string, unknown> | null = null,
    /** Set false when retrying would duplicate work (sent as `x-should-retry`). */
    readonly shouldRetry?: boolean,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const badRequest = (msg: string, details: Record<string, unknown> | null = null) =>
  new AppError(400, msg, details);
export const unauthorized = (msg = 'Missing or invalid credentials') => new AppError(401, msg);
export const forbidden = (msg: string, details: Record<string, unknown> | null = null) =>
  new AppError(403, msg, details);
export const notFound = (what: string) => new AppError(404, `${what} not found`);
export const unprocessable = (msg: string, details: Record<string, unknown> | null = null) =>
  new AppError(422, msg, details);
