import { createHash } from 'node:crypto';

/**
 * Secrets (API keys, session and refresh tokens, codes) are stored only as SHA-256 hashes;
 * lookups hash the presented one.
 */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}
