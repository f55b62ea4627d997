import type { FastifyInstance } from 'fastify';
import { AppError } from '../../shared/errors.ts';

/**
 * Deepest nesting of arrays and objects a JSON body may have (docs/api-conventions.md). Real
 * bodies stay far below it (the deepest documented shape, graph `when` conditions, is about 20
 * levels); it exists because every walk over a body (null stripping, validation, serialising
 * back) must be safe, and a recursive one overflowed the stack from about 2,200 levels (a 500).
 * 64 is the limit System.Text.Json applies by default.
 */
export const MAX_JSON_DEPTH = 64;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;

/**
 * The deepest nesting of `{`/`[` in JSON text, counted outside strings, or `limit + 1` as soon
 * as it goes past `limit`. One pass over the text, no recursion: it runs before JSON.parse, so
 * nothing walks a body deeper than the limit. Malformed text gives some number; JSON.parse
 * refuses it afterwards anyway.
 */
export function jsonDepth(text: string, limit = MAX_JSON_DEPTH): number {
  let depth = 0;
  let deepest = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      // Skip the string: to the next quote not escaped by an odd run of backslashes.
      for (;;) {
        const end = text.indexOf('"', i + 1);
        if (end < 0) return deepest;
        let slashes = 0;
        while (text.charCodeAt(end - 1 - slashes) === BACKSLASH) slashes++;
        i = end;
        if (slashes % 2 === 0) break;
      }
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (++depth > deepest) {
        deepest = depth;
        if (deepest > limit) return deepest;
      }
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      depth--;
    }
  }
  return deepest;
}

/**
 * Replace Fastify's JSON parser with the same parser (same errors, same prototype-poisoning
 * refusal) behind a depth check: a body nested deeper than MAX_JSON_DEPTH is a 400 before it
 * is parsed or walked.
 */
export function boundJsonDepth(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    const text = body as string;
    if (jsonDepth(text) > MAX_JSON_DEPTH) {
      done(
        new AppError(400, `Request body is nested more than ${MAX_JSON_DEPTH} levels deep`, {
          limit: MAX_JSON_DEPTH,
        }),
        undefined,
      );
      return;
    }
    void parse(req, text, done); // callback style: it returns nothing
  });
}
