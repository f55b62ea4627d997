/**
 * The default extractor: no model, no network. compromise tags the words (people,
 * organisations, places, dates, nouns); rules on top find products, events and salient topics,
 * resolve relative dates and the speaker ('I'/'my'), and read relationships off each sentence.
 * Precision over recall: a wrong edge misleads graph search more than a missing one, so the
 * typed patterns are narrow and co-occurrence (MENTIONED_WITH) is the capped fallback.
 *
 * Pipeline per memory: speaker → compromise parse → spans per sentence (dates, products,
 * names, noun phrases) → nodes (deduplicated, aliases merged) → relationships per sentence.
 * This file is the entry point and the speaker step; the rules live beside it:
 * extractor.local.tokens.ts (tokens, spans), .dates.ts, .spans.ts, .nodes.ts, .relations.ts.
 */
import { nlp } from './nlp.ts';
import {
  LOCAL_EXTRACTOR_ID,
  restrictToSchema,
  type Extraction,
  type ExtractionInput,
  type Extractor,
} from './extractor.ts';
import { NodeRegistry } from './extractor.local.nodes.ts';
import { Relations, relateSentence } from './extractor.local.relations.ts';
import { findSpans, keepSalientTopics } from './extractor.local.spans.ts';
import { toTok, type RawTerm } from './extractor.local.tokens.ts';

/** Options of {@link createLocalExtractor}. */
export interface LocalExtractorOptions {
  /** Topic/Event noun phrases kept per memory, most salient first (default 5). */
  maxTopics?: number;
  /** MENTIONED_WITH edges per memory (default 12); 4 per sentence at most. */
  maxCooccurrences?: number;
}

/** Build the compromise-based extractor (id 'local-rules-1'; bump it when the output changes). */
export function createLocalExtractor(options: LocalExtractorOptions = {}): Extractor {
  return {
    id: LOCAL_EXTRACTOR_ID,
    async extract(input) {
      return restrictToSchema(extractLocal(input, options), input.schema);
    },
  };
}

/** The whole pipeline, synchronous (compromise is); without schema restriction. */
export function extractLocal(input: ExtractionInput, options: LocalExtractorOptions = {}): Extraction {
  const { speaker, text } = splitSpeaker(input);
  const doc = nlp(text);
  doc.compute('root');
  const sentences = doc.document.map((terms) => (terms as RawTerm[]).map(toTok).filter((t) => t.text || t.norm));
  const spans = sentences.map((toks) => findSpans(toks, input.createdAt));
  keepSalientTopics(spans.flat(), options.maxTopics ?? 5);
  const registry = new NodeRegistry(speaker);
  for (const s of spans.flat()) if (!s.dropped) s.key = registry.add(s);
  const rels = new Relations(options.maxCooccurrences ?? 12);
  sentences.forEach((toks, i) => relateSentence(toks, spans[i], registry.speakerKey, rels));
  return registry.finish(rels.list());
}

// ── speaker ───────────────────────────────────────────────────────────────────────────

/** "Caroline said, "…"" or "Caroline: …" at the start of a memory names who is speaking. */
const SAID_PREFIX =
  /^\s*(\p{Lu}[\p{L}'.-]*(?:\s+\p{Lu}[\p{L}'.-]*){0,2})\s+(?:said|says|wrote|writes|asked|asks|replied|replies)\s*[,:]?\s*/u;
const COLON_PREFIX = /^\s*(\p{Lu}[\p{L}'.-]*(?:\s+\p{Lu}[\p{L}'.-]*){0,2}):\s+/u;
const SELF_INTRO = /\b([Mm]y name is|[Cc]all me|I am|I'm)\s+(\p{Lu}\p{Ll}+(?:\s+\p{Lu}\p{Ll}+)?)/u;

/**
 * Who 'I' is: the explicit `speaker`, else a "Name said," / "Name:" prefix (stripped, with the
 * quotes around what was said), else a self-introduction in the content or an earlier user turn.
 */
export function splitSpeaker(input: ExtractionInput): { speaker?: string; text: string } {
  let text = input.content;
  let speaker = input.speaker?.trim() || undefined;
  // "Caroline said," names a speaker whatever the name; "Reminder:" or "TODO:" does not, so a
  // colon prefix counts only when compromise knows it as a person's name.
  const colon = COLON_PREFIX.exec(text);
  const prefix = SAID_PREFIX.exec(text) ?? (colon && nlp(colon[1]).has('#Person') ? colon : null);
  if (prefix && !/^(?:I|We|You|He|She|They|It)$/.test(prefix[1])) {
    speaker ??= prefix[1];
    // Quotes would make compromise treat the whole utterance as one odd sentence.
    const quoted = /^["“]([\s\S]*?)["”]([\s\S]*)$/.exec(text.slice(prefix[0].length));
    text = quoted ? `${quoted[1]}${quoted[2]}` : text.slice(prefix[0].length);
  }
  const turns = [
    text,
    ...(input.context ?? [])
      .filter((t) => t.role === 'user')
      .map((t) => t.content)
      .reverse(),
  ];
  for (const turn of speaker ? [] : turns) {
    const m = SELF_INTRO.exec(turn);
    // "my name is X" is explicit; "I'm X" only counts when X is a known name (not "I'm Happy").
    if (m && (/name|call/i.test(m[1]) || nlp(m[2]).has('#Person'))) return { speaker: m[2], text };
  }
  return { speaker, text };
}
