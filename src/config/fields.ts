/** Shared field helpers of the configuration schema (src/config.ts). */
import { z } from 'zod';

export const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');
export const int = (def: number, min = 0) => z.coerce.number().int().min(min).default(def);
