/**
 * Signal bands: the vocabulary every graph-transform domain shares (docs/transform.md).
 * A domain defines 14 bands, one at each fixed frequency; the frequency names the band's role
 * family, so a band of one domain is comparable with the band of another at the same frequency.
 */

/** The 14 fixed band frequencies in Hz, low to high (index = band position in an artifact). */
export const FREQUENCIES = [0.1, 0.5, 2, 4, 6, 10, 12, 18, 19, 24, 30, 40, 50, 70] as const;

/** The role family of each frequency, index-aligned with FREQUENCIES. */
export const ROLE_FAMILIES = [
  'domain_prior', // 0.1 Hz: what kind of text this is, its field or genre
  'entity_type', // 0.5 Hz: the entity or task type the text is about
  'relation_structure', // 2 Hz: how its main parts relate (A does B to C)
  'attribute_focus', // 4 Hz: the attributes or qualities it dwells on
  'context_frame', // 6 Hz: setting: time, place, population, environment
  'main_content', // 10 Hz: the main statement, in a sentence
  'evidence_support', // 12 Hz: evidence, measurements, results that back it
  'source_role', // 18 Hz: the acting party, input or cause
  'target_role', // 19 Hz: the affected party, output or effect
  'named_relation', // 24 Hz: the property or named relation between them
  'identifier', // 30 Hz: names, ids, symbols, function and API names
  'local_detail', // 40 Hz: numbers, quantities, small specifics
  'rationale', // 50 Hz: why: reasons, mechanisms, motivations
  'label_outcome', // 70 Hz: the label, verdict or outcome
] as const;

export type RoleFamily = (typeof ROLE_FAMILIES)[number];
export type Frequency = (typeof FREQUENCIES)[number];

export const SIGNAL_TYPES = ['enum', 'text', 'numeric', 'date', 'boolean', 'multi_value_text'] as const;
export type SignalType = (typeof SIGNAL_TYPES)[number];

/** One band of a domain: what to extract at its frequency. */
export interface SignalField {
  /** Unique within the domain; the key of `signals` and `signal_embeddings` in an artifact. */
  name: string;
  /** The extraction instruction (an LLM extractor's prompt for this band). */
  description: string;
  type: SignalType;
  /** For `enum` (and optionally `multi_value_text`): the values the band may take. */
  allowed_values?: string[];
  frequency_hz: Frequency;
  required?: boolean;
  /** Share of the band in scores and in concat_embedding (> 0; normalised over the domain). */
  weight: number;
}

export interface CatalogConfig {
  enabled: boolean;
  /** Refresh the catalog after this many new transforms (0 = only on request). */
  refresh_every_n: number;
}

/** A domain as the API returns it (contract "Domain"); `catalog` is added by the service. */
export interface Domain {
  domain_id: string;
  name: string;
  description: string;
  /** Exactly 14, one per frequency, sorted by frequency. */
  signals: SignalField[];
  builtin: boolean;
  signal_multipliers: Record<string, number>;
  catalog_config: CatalogConfig;
  routing_config: Record<string, unknown>;
  owner_user_id?: string | null;
  owner_organization_id?: string | null;
  owner_namespace_id?: string | null;
  owner_workspace_id?: string | null;
  created_at?: string;
}

/** Index of a frequency in FREQUENCIES, or -1. */
export function frequencyIndex(hz: number): number {
  return FREQUENCIES.findIndex((f) => f === hz);
}
