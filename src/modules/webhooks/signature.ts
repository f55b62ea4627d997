import { createHmac } from 'node:crypto';

/**
 * `sha256=<hex HMAC-SHA256 of "<timestamp>.<raw body>">`. The timestamp is inside the signed
 * text so a receiver can reject replays of an old delivery (docs/webhooks.md).
 */
export function signWebhook(key: string, timestamp: number, body: string): string {
  return `sha256=${createHmac('sha256', key).update(`${timestamp}.${body}`).digest('hex')}`;
}
