/**
 * The band-extraction port of the graph transform (docs/transform.md): read a text and say,
 * for each signal band of a domain, what the text holds at that band ("the main claim", "the
 * identifiers", "the outcome"…). Adapters beside it: `bands.local.ts` (rules, the entity
 * extractor and embedding similarity; offline, the default) and `bands.llm.ts` (any
 * OpenAI-compatible chat model, output constrained by the bands).
 *
 * The port knows nothing of domains as the API stores them: the caller hands it the bands.
 */
import { ModelError } from './model-error.ts';

/** One band to fill: the fields of a domain's SignalField the extractor needs. */
export interface BandSpec {
  name: string;
  /** The extraction instruction. */
  description: string;
  type: 'enum' | 'text' | 'numeric' | 'date' | 'boolean' | 'multi_value_text';
  allowed_values?: string[];
  /** The role family of the band's frequency (bands.ts in the transform module), e.g. 'main_content'. */
  role: string;
}

export interface BandInput {
  text: string;
  bands: BandSpec[];
  /** The domain's id and description: context for model-backed adapters. */
  domain?: { id: string; description: string };
  /** Reference date for relative dates. */
  createdAt?: Date;
}

/**
 * Band name → extracted value as text ('' when the text holds nothing for the band).
 * Enum bands hold one of their allowed values; multi-value bands join values with '; '.
 */
export type BandValues = Record<string, string>;

export interface BandExtractor {
  /** Stable id recorded with artifacts, e.g. 'bands-local-2' or 'bands-llm:<model>'. */
  readonly id: string;
  /** One result per input, in order. */
  extract(inputs: BandInput[]): Promise<BandValues[]>;
}

export type BandErrorCode = 'unavailable' | 'http_error' | 'bad_response' | 'invalid_input';

export class BandError extends ModelError<BandErrorCode> {
  override readonly name = 'BandError';
}

/** Longest value kept for a band (characters): a band is a signal, not a copy of the text. */
export const MAX_BAND_CHARS = 300;

/** Trim a value to MAX_BAND_CHARS at a word boundary. */
export function clipBand(value: string): string {
  const v = value.replace(/\s+/g, ' ').trim();
  if (v.length <= MAX_BAND_CHARS) return v;
  const cut = v.slice(0, MAX_BAND_CHARS);
  const space = cut.lastIndexOf(' ');
  return (space > MAX_BAND_CHARS / 2 ? cut.slice(0, space) : cut).trim();
}
