import { randomBytes } from 'node:crypto';

/**
 * Time-ordered ids (UUIDv7 layout). Ordered ids keep B-tree inserts local and make
 * "newest first" cheap; they are stored as text so any caller-supplied string can be
 * looked up (and simply not found) without cast errors.
 */
export function newId(): string {
  const bytes = randomBytes(16);
  const ms = BigInt(Date.now());
  for (let i = 0; i < 6; i++) bytes[i] = Number((ms >> BigInt(8 * (5 - i))) & 0xffn);
  bytes[6] = (bytes[6] & 0x0f) | 0x70;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const h = bytes.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}
