import { randomBytes } from 'node:crypto';

export { hashSecret } from '../../shared/secrets.ts';

/** Kinds of key, visible in the key itself so a leaked key is recognisable. */
export type KeyKind = 'org' | 'ns';

/** A new random key: `ek_<kind>_` + 32 random bytes in base64url (256 bits). */
export function generateApiKey(kind: KeyKind): string {
  return `ek_${kind}_${randomBytes(32).toString('base64url')}`;
}

/** The masked part shown on later reads (the client contract: first 24 characters). */
export function keyPrefix(key: string): string {
  return key.slice(0, 24);
}
