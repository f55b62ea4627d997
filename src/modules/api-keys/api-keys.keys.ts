import { createHash, randomBytes } from 'node:crypto';

/** Kinds of key, visible in the key itself so a leaked key is recognisable. */
export type KeyKind = 'org' | 'ns';

/** A new random key: `ek_<kind>_` + 32 random bytes in base64url (256 bits). */
export function generateApiKey(kind: KeyKind): string {
  return `ek_${kind}_${randomBytes(32).toString('base64url')}`;
}

/** Keys are stored only as SHA-256 hashes; lookups hash the presented key. */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** The masked part shown on later reads (the client contract: first 24 characters). */
export function keyPrefix(key: string): string {
  return key.slice(0, 24);
}
