import { z } from 'zod';
import { memoryObject } from './memory-object.ts';

/** Where a page ended: the last memory's creation time (microseconds, UTC) and id. */
export interface ListCursor {
  createdAt: string;
  id: string;
}

/** The exact creation time a cursor carries, as PostgreSQL prints it in UTC with microseconds. */
const CURSOR_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
/** An ISO 8601 date, or date and time (seconds, fractions and offset optional; no offset means UTC). */
const ISO_INSTANT = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/** The opaque next_cursor of a page. */
export function encodeCursor(c: ListCursor): string {
  return Buffer.from(JSON.stringify([c.createdAt, c.id])).toString('base64url');
}

function decodeCursor(text: string): ListCursor | null {
  try {
    const v: unknown = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
    if (!Array.isArray(v) || v.length !== 2) return null;
    const [t, id] = v as unknown[];
    if (typeof t !== 'string' || !CURSOR_TIME.test(t) || typeof id !== 'string' || !id || id.length > 200) return null;
    return { createdAt: t, id };
  } catch {
    return null;
  }
}

/** `text` as an instant, or null; a date alone is its UTC midnight, a time without offset is UTC. */
export function parseInstant(text: string): Date | null {
  const m = ISO_INSTANT.exec(text);
  if (!m) return null;
  const [, y, mo, d, h = '00', mi = '00', s = '00', frac = '', zone = 'Z'] = m;
  // The day must exist (Date rolls 2024-02-31 over into March) in the years PostgreSQL stores (1-9999).
  const day = new Date(`${y}-${mo}-${d}T00:00:00Z`);
  if (Number(y) < 1 || Number.isNaN(day.getTime()) || day.toISOString().slice(0, 10) !== `${y}-${mo}-${d}`) return null;
  const ms = frac ? frac.slice(0, 4).padEnd(4, '0') : '.000';
  const offset = zone.length === 5 ? `${zone.slice(0, 3)}:${zone.slice(3)}` : zone;
  const date = new Date(`${y}-${mo}-${d}T${h}:${mi}:${s}${ms}${offset}`);
  const year = date.getUTCFullYear();
  return Number.isNaN(date.getTime()) || year < 1 || year > 9999 ? null : date;
}

const instant = (what: string) =>
  z
    .string()
    .max(64)
    .transform((v, ctx) => {
      const d = parseInstant(v);
      if (!d) ctx.addIssue({ code: 'custom', message: 'must be an ISO 8601 date or date-time' });
      return d ?? new Date(0);
    })
    .optional()
    .describe(`${what}: ISO 8601 date or date-time (no offset means UTC)`);

/** GET /v1/memory: filters, page size and the previous page's cursor. */
export const listMemoriesQuery = z.object({
  external_user_id: z.string().max(512).optional().describe('Only this user’s memories (your id for the user)'),
  user_id: z
    .string()
    .max(200)
    .optional()
    .describe('Only this user’s memories (internal id); wins over external_user_id'),
  namespace_id: z.string().max(200).optional().describe('Only memories in this namespace'),
  metadata: z
    .string()
    .max(4096)
    .transform((v, ctx) => {
      let parsed: unknown;
      try {
        parsed = JSON.parse(v);
      } catch {
        parsed = undefined;
      }
      if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
        ctx.addIssue({ code: 'custom', message: 'must be a JSON object, e.g. {"topics":["travel"]}' });
        return {};
      }
      return parsed as Record<string, unknown>;
    })
    .optional()
    .describe('A JSON object the memories’ metadata must contain (as search’s metadata filter)'),
  category: z.string().max(64).optional().describe('Only this metadata.category (fact and facts are one)'),
  role: z.enum(['user', 'assistant']).optional().describe('Only this metadata.role: user or assistant'),
  created_after: instant('Only memories stored after this time'),
  created_before: instant('Only memories stored before this time'),
  limit: z.coerce.number().int().min(1).max(200).default(20).describe('Memories per page, 1–200 (default 20)'),
  cursor: z
    .string()
    .max(512)
    .transform((v, ctx) => {
      const c = decodeCursor(v);
      if (!c) ctx.addIssue({ code: 'custom', message: 'is not a cursor this server gave (next_cursor of a page)' });
      return c ?? { createdAt: '', id: '' };
    })
    .optional()
    .describe('next_cursor of the previous page; absent for the first page'),
});
export type ListMemoriesQuery = z.infer<typeof listMemoriesQuery>;

export const listMemoriesResponse = z.object({
  code: z.number().int().describe('The HTTP status code'),
  status: z.string().describe('success'),
  error: z.null().describe('null'),
  data: z
    .object({ memories: z.array(memoryObject).describe('The page, newest first') })
    .describe('The memories of this page'),
  next_cursor: z.string().nullable().describe('Pass as cursor for the next page; null on the last page'),
  has_more: z.boolean().describe('Whether another page follows'),
});
