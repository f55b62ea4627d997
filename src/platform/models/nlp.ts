/**
 * compromise, loaded on first use from its one-file build. Its ESM entry is 436 modules and the
 * library then takes ~0.4 s to unpack its lexicon: every process paid ~1 s at start (each test
 * file, each CLI run, the server before /health) whether it ever extracted anything or not.
 * The CommonJS build is the same library in one file.
 */
import { createRequire } from 'node:module';
import type nlpType from 'compromise';

let lib: typeof nlpType | undefined;

/** `nlp(text)` of compromise: the parsed document. */
export function nlp(text: string): ReturnType<typeof nlpType> {
  lib ??= createRequire(import.meta.url)('compromise') as typeof nlpType;
  return lib(text);
}
