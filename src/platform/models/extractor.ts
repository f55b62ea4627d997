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
  'WORKS_AT', 'LIVES_IN', 'FROM', 'MANAGES', 'MENTORS', 'MET', 'MARRIED_TO', 'PARTNER', 'FAMILY', 'FRIEND',
  'COLLEAGUE', 'VISITED', 'ATTENDED', 'JOINED', 'BOUGHT', 'USES', 'LAUNCHED', 'LIKES', 'MENTIONED_WITH',
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
  return words.map((w) => (/\p{Lu}/u.test(w.slice(1)) || /^\p{N}/u.test(w) ? w : w[0].toUpperCase() + w.slice(1).toLowerCase())).join(' ');
}

/** Synonyms of the default types, so a user schema saying 'Company' still receives organisations. */
const NODE_ALIASES: Record<string, string[]> = {
  person: ['people', 'contact', 'user', 'individual', 'customer', 'employee', 'member', 'human'],
  organization: ['organisation', 'company', 'org', 'employer', 'business', 'institution', 'team'],
  place: ['location', 'city', 'country', 'address', 'venue', 'region'],
  date: ['time', 'day', 'datetime', 'timestamp'],
  product: ['item', 'tool', 'software', 'device', 'app', 'application'],
  topic: ['concept', 'subject', 'interest', 'keyword', 'theme', 'skill'],
  event: ['meeting', 'activity', 'occasion', 'happening'],
};
const RELATIONSHIP_ALIASES: Record<string, string[]> = {
  WORKS_AT: ['WORKS_FOR', 'EMPLOYED_BY', 'EMPLOYED_AT'],
  LIVES_IN: ['RESIDES_IN', 'LOCATED_IN', 'BASED_IN'],
  MENTIONED_WITH: ['RELATED_TO', 'RELATES_TO', 'ASSOCIATED_WITH', 'CO_OCCURS_WITH'],
  MARRIED_TO: ['SPOUSE_OF'],
  FAMILY: ['RELATIVE_OF', 'FAMILY_OF'],
  FRIEND: ['FRIEND_OF', 'FRIENDS_WITH'],
  VISITED: ['TRAVELED_TO', 'WENT_TO'],
};

/** The schema type a default (or LLM-produced) type maps to, or undefined when the schema has none. */
function matchType(type: string, names: string[], aliases: Record<string, string[]>, norm: (s: string) => string): string | undefined {
  const wanted = norm(type);
  const exact = names.find((n) => norm(n) === wanted);
  if (exact) return exact;
  for (const [base, syns] of Object.entries(aliases)) {
    const group = [norm(base), ...syns.map(norm)];
    if (group.includes(wanted)) return names.find((n) => group.includes(norm(n)));
  }
  return undefined;
}

/** A value coerced to the declared property type, or undefined when it cannot be. */
function coerce(value: PropertyValue, prop: SchemaProperty): PropertyValue | undefined {
  let v: PropertyValue | undefined = value;
  if (prop.type === 'number' || prop.type === 'integer') {
    const n = typeof value === 'number' ? value : Number(value);
    v = Number.isFinite(n) && (prop.type === 'number' || Number.isInteger(n)) ? n : undefined;
  } else if (prop.type === 'boolean') {
    v = typeof value === 'boolean' ? value : value === 'true' ? true : value === 'false' ? false : undefined;
  } else v = String(value);
  if (v !== undefined && prop.enum && !prop.enum.includes(v)) return undefined;
  return v;
}

/**
 * Restrict an extraction to a user schema: node and relationship types are mapped to the
 * schema's (exact name, case-insensitive, or a known synonym) or dropped; node properties are
 * limited to declared ones and coerced (a `name` property is filled from the node name); nodes
 * missing a required property, and relationships outside the declared source/target types or
 * touching a dropped node, are dropped. Without a schema the extraction is returned unchanged.
 */
export function restrictToSchema(extraction: Extraction, schema: GraphSchema | undefined): Extraction {
  if (!schema) return extraction;
  const nodeNames = schema.node_types.map((t) => t.name);
  const lower = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, '');
  const nodes: ExtractedNode[] = [];
  const typeOf = new Map<string, string>();
  for (const node of extraction.nodes) {
    const type = matchType(node.type, nodeNames, NODE_ALIASES, lower);
    const decl = schema.node_types.find((t) => t.name === type);
    if (!type || !decl) continue;
    const properties: Record<string, PropertyValue> = {};
    const given: Record<string, PropertyValue> = { name: node.name, ...node.properties };
    let complete = true;
    for (const prop of decl.properties) {
      const v = given[prop.name] === undefined ? undefined : coerce(given[prop.name], prop);
      if (v !== undefined) properties[prop.name] = v;
      else if (prop.required) complete = false;
    }
    if (!complete) continue;
    nodes.push({ ...node, type, properties });
    typeOf.set(node.key, type);
  }
  const relNames = schema.relationship_types.map((t) => t.name);
  const relationships: ExtractedRelationship[] = [];
  for (const rel of extraction.relationships) {
    const type = matchType(rel.type, relNames, RELATIONSHIP_ALIASES, upperSnake);
    const decl = schema.relationship_types.find((t) => t.name === type);
    const source = typeOf.get(rel.source);
    const target = typeOf.get(rel.target);
    if (!type || !decl || !source || !target) continue;
    if (decl.source_types?.length && !decl.source_types.includes(source)) continue;
    if (decl.target_types?.length && !decl.target_types.includes(target)) continue;
    relationships.push({ ...rel, type });
  }
  return { nodes, relationships };
}
