/**
 * The 14 built-in domains (spec §2.9) and how an id names one. Each has one band per frequency,
 * whose meaning is its role family (bands.ts) said in the domain's own terms, so a rerank
 * compares like with like. `general` is the default and completes custom domains.
 */
import type { Domain } from './bands.ts';
import { BUILTIN_PREFIX, builtinFullId, defineBuiltin, type BandRow } from './domains.builtin.define.ts';
import { CODE_DOMAINS } from './domains.builtin.code.ts';
import { PRACTICE_DOMAINS } from './domains.builtin.practice.ts';
import { SCIENCE_DOMAINS } from './domains.builtin.science.ts';

// prettier-ignore
const GENERAL: readonly BandRow[] = [
  ['genre', 'enum', 0.6, 'What kind of text this is: pick the closest genre.',
    ['news', 'encyclopedic', 'scientific', 'technical', 'conversational', 'opinion', 'narrative', 'instructional',
      'legal', 'financial', 'medical', 'commercial', 'personal_note', 'other']],
  ['main_entity_type', 'enum', 1.4, 'The type of the main entity the text is about.',
    ['person', 'organization', 'location', 'event', 'product', 'concept', 'process', 'document', 'software',
      'creative_work', 'substance', 'other']],
  ['relation_structure', 'text', 0.8,
    "How the text's main parts relate, as one short 'A <verb> B' clause (e.g. 'company acquires startup')."],
  ['key_attributes', 'multi_value_text', 0.7,
    'The attributes or qualities the text dwells on, 1-5 short noun phrases separated by ";" (e.g. price; safety).'],
  ['setting', 'text', 0.6,
    'The setting: time period, place, population or environment the text is situated in; empty if none.'],
  ['main_content', 'text', 2.0, 'The main statement of the text in one plain, self-contained sentence.'],
  ['evidence', 'text', 0.9,
    'The evidence, data, measurement or result given in support, in one short sentence; empty if none.'],
  ['agent', 'text', 1.1, 'The acting party, input or cause: who or what does the main action, as a short noun phrase.'],
  ['affected_party', 'text', 1.1, 'The affected party, output or effect: who or what the action reaches or produces.'],
  ['relation', 'text', 0.8,
    'The named relation between agent and affected party, as a verb or property in base form (e.g. causes, owns).'],
  ['named_entities', 'multi_value_text', 1.5,
    'Proper names, ids, symbols, codes and titles mentioned, exactly as written, separated by ";".'],
  ['specifics', 'multi_value_text', 0.5, 'Numbers, quantities, dates and small concrete details, separated by ";".'],
  ['rationale', 'text', 0.6,
    'Why: the reason, mechanism or motivation the text gives, in one short sentence; empty if none.'],
  ['outcome', 'enum', 0.8, 'The overall outcome or stance the text conveys.',
    ['positive', 'negative', 'neutral', 'mixed', 'informational', 'question', 'request', 'instruction']],
];

export const GENERAL_DOMAIN = defineBuiltin({
  short: 'general',
  name: 'General',
  description: 'Any text: genre, entities, the main statement, who acts on what, evidence and outcome.',
  rows: GENERAL,
});

/** Built-ins in the order GET /v1/graph/domains lists them, `general` first. */
export const BUILTIN_DOMAINS: readonly Domain[] = [
  GENERAL_DOMAIN,
  ...CODE_DOMAINS,
  ...SCIENCE_DOMAINS,
  ...PRACTICE_DOMAINS,
];

const byShort = new Map(BUILTIN_DOMAINS.map((d) => [d.domain_id, d]));

/** The built-in short names, in listing order. */
export const BUILTIN_SHORT_NAMES: readonly string[] = BUILTIN_DOMAINS.map((d) => d.domain_id);

/** The default domain when a request names none. */
export const DEFAULT_DOMAIN_ID = 'general';

/**
 * The built-in an id names, without looking at custom domains: its short name (`scifact`), or a
 * full id `<name>:<short>:<version>` whose middle part is a built-in short name.
 */
export function builtinFor(id: string): Domain | undefined {
  const exact = byShort.get(id);
  if (exact) return exact;
  const parts = id.split(':');
  return parts.length === 3 && parts[0] && parts[2] ? byShort.get(parts[1]) : undefined;
}

/** Ids that may never be registered as custom: the built-ins' full ids (short names fail the id form). */
export function isReservedId(id: string): boolean {
  return BUILTIN_SHORT_NAMES.some((s) => s === id || builtinFullId(s) === id);
}

export type ResolvedDomainId = { kind: 'custom'; id: string } | { kind: 'builtin'; id: string } | null;

/**
 * Which domain an id names for one organization: its exact custom id first, then a built-in
 * short name, then a full id `<name>:<short>:<version>` of a built-in; null when none.
 * `customIds` holds (at least) the organization's custom ids that could match.
 */
export function resolveDomainId(id: string, customIds: { has(id: string): boolean }): ResolvedDomainId {
  if (customIds.has(id)) return { kind: 'custom', id };
  const builtin = builtinFor(id);
  return builtin ? { kind: 'builtin', id: builtin.domain_id } : null;
}

export { BUILTIN_PREFIX, builtinFullId };
