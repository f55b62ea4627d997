/**
 * The entity/relationship extraction port. Graph building depends on this interface only;
 * adapters live beside it: `extractor.local.ts` (compromise + rules, offline, the default)
 * and `extractor.llm.ts` (any OpenAI-compatible chat-completions endpoint).
 */

import { ModelError } from './model-error.ts';

/** One previous conversation turn, given so pronouns and the speaker can be resolved. */
export interface ContextTurn {
  role: string;
  content: string;
}

/** A property a user graph schema declares on a node type. */
export interface SchemaProperty {
  name: string;
  /** 'string' | 'number' | 'integer' | 'boolean' | 'date' | 'datetime'; anything else is treated as string. */
  type: string;
  required?: boolean;
  enum?: (string | number | boolean)[];
}

/** A user graph schema (spec §2.4 `schema_id`): when given, output uses only these types. */
export interface GraphSchema {
  node_types: { name: string; properties: SchemaProperty[] }[];
  relationship_types: { name: string; source_types?: string[]; target_types?: string[] }[];
}

/** What an extractor reads: one memory plus what helps to interpret it. */
export interface ExtractionInput {
  content: string;
  /** Previous conversation turns, oldest first. */
  context?: ContextTurn[];
  /** Reference date for relative expressions ('yesterday', 'last week'); usually the memory's createdAt. */
  createdAt?: Date;
  /** Restricts node and relationship types (and node properties) to a user schema. */
  schema?: GraphSchema;
  /**
   * Name of whoever wrote `content` (e.g. the message's author), so 'I'/'me'/'my' become a
   * Person node keyed 'speaker'. Optional: adapters also look for it in the content and context.
   */
  speaker?: string;
  /**
   * Per-property guidance from the memory's graph policy (`set: {prop: {mode: auto, prompt}}`),
   * e.g. `Task.priority: one of low, medium, high`. Model-backed adapters follow it; rule-based
   * ones may ignore it.
   */
  guidance?: string[];
}

/** A property value as stored on graph nodes and edges. */
export type PropertyValue = string | number | boolean;

/** One extracted entity. */
export interface ExtractedNode {
  /** Stable id within this extraction, referenced by relationships ('speaker' for the author). */
  key: string;
  type: string;
  /** Canonical display name: trimmed, title-cased, possessive removed. */
  name: string;
  properties: Record<string, PropertyValue>;
  /** Surface forms as they occur in the content. */
  mentions: string[];
}

/** One extracted relationship between two nodes of the same extraction. */
export interface ExtractedRelationship {
  source: string;
  target: string;
  /** UPPER_SNAKE, e.g. WORKS_AT. */
  type: string;
  properties?: Record<string, PropertyValue>;
}

/** The result of one extraction. */
export interface Extraction {
  nodes: ExtractedNode[];
  relationships: ExtractedRelationship[];
}

/** Turns one memory into graph nodes and relationships. */
export interface Extractor {
  /** Stable id recorded with extracted data, e.g. 'local-rules-1' or 'llm:<model>'. */
  readonly id: string;
  extract(input: ExtractionInput): Promise<Extraction>;
}

/**
 * The default ontology, used when no user schema is given:
 * - Person: a named human (the speaker too, when their name is known).
 * - Organization: a company, school, team, agency or other named group.
 * - Place: a city, country, region, address, venue or landmark.
 * - Date: a calendar date, week, month or year; `name` is ISO-8601 ('2023-05-07', '2023-W19', '2023-05', '2023').
 * - Product: a named product, device, app or service (iPhone 15, Microsoft Teams).
 * - Topic: a salient subject or thing, lemmatised ('support group', 'pottery').
 * - Event: something that happens at a time (a race, wedding, conference, trip).
 */
export const DEFAULT_NODE_TYPES = ['Person', 'Organization', 'Place', 'Date', 'Product', 'Topic', 'Event'] as const;

/**
 * Relationship types of the default ontology (UPPER_SNAKE). FAMILY, FRIEND, PARTNER and
 * COLLEAGUE carry `properties.relation` ('sister', 'best friend'…); relationships found in a
 * sentence with one date carry `properties.date`. MENTIONED_WITH is the co-occurrence fallback.
 */
export const DEFAULT_RELATIONSHIP_TYPES = [
  'WORKS_AT',
  'LIVES_IN',
  'FROM',
  'MANAGES',
  'MENTORS',
  'MET',
  'MARRIED_TO',
  'PARTNER',
  'FAMILY',
  'FRIEND',
  'COLLEAGUE',
  'VISITED',
  'ATTENDED',
  'JOINED',
  'BOUGHT',
  'USES',
  'LAUNCHED',
  'LIKES',
  'MENTIONED_WITH',
] as const;

/** Id of the local (compromise + rules) extractor; bump it when its output changes. */
export const LOCAL_EXTRACTOR_ID = 'local-rules-1';

/**
 * An extractor whose module is imported on first use: the local one pulls in compromise
 * (≈0.4 s to import), which a process that never extracts (an API that gets no agentic
 * searches) should not pay for at start-up.
 */
export function lazyExtractor(id: string, load: () => Promise<Extractor>): Extractor {
  let loaded: Promise<Extractor> | undefined;
  return {
    id,
    async extract(input) {
      loaded ??= load();
      return (await loaded).extract(input);
    },
  };
}

/** Why an extractor failed; `retryable` tells the job runner whether to try again later. */
export type ExtractorErrorCode =
  | 'unavailable' // timeouts, connection errors, 429 and 5xx
  | 'http_error' // a non-retryable status (bad key, unknown model)
  | 'bad_response' // the model's output stayed unusable after a repair attempt
  | 'invalid_input';

/** The one error type extractors throw, so callers can branch on `code` and `retryable`. */
export class ExtractorError extends ModelError<ExtractorErrorCode> {
  override readonly name = 'ExtractorError';
}

/** 'works at' / 'worksAt' / 'Works-At' → 'WORKS_AT'. */
export function upperSnake(type: string): string {
  return type
    .trim()
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .toUpperCase();
}

/**
 * Canonical display name: whitespace collapsed, edge punctuation and a trailing possessive
 * removed, each word title-cased unless it already carries capitals inside (iPhone, LGBTQ, McDonald).
 */
export function canonicalName(raw: string): string {
  const words = raw
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/['’]s$|(?<=s)['’]$/i, '')
    .replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}.)]+$/gu, '')
    .replace(/(\S{4,})\.$/u, '$1') // a sentence's full stop, but not the one of 'Inc.' or 'Jr.'
    .split(' ')
    .filter(Boolean);
  return words
    .map((w) => (/\p{Lu}/u.test(w.slice(1)) || /^\p{N}/u.test(w) ? w : w[0].toUpperCase() + w.slice(1).toLowerCase()))
    .join(' ');
}

export { restrictToSchema } from './extractor.schema.ts';
