/**
 * How the built-in domains are written down: 14 rows per domain, one per frequency in
 * FREQUENCIES order, so the data files read as tables (one band per line or two).
 */
import { FREQUENCIES, ROLE_FAMILIES, type Domain, type SignalField, type SignalType } from './bands.ts';

/** One band: `[name, type, weight, extraction instruction, allowed values (enum)]`. */
export type BandRow = readonly [
  name: string,
  type: SignalType,
  weight: number,
  description: string,
  allowedValues?: readonly string[],
];

export interface BuiltinSpec {
  /** The short name (`scifact`): the id the API shows and the middle part of its full id. */
  short: string;
  name: string;
  description: string;
  /** Exactly 14 rows, index-aligned with FREQUENCIES (the band's role family follows from it). */
  rows: readonly BandRow[];
  routing_config?: Record<string, unknown>;
}

/** Every built-in is version 1: its full id is `engram:<short>:1`. */
export const BUILTIN_PREFIX = 'engram';
export const BUILTIN_VERSION = '1';
export const builtinFullId = (short: string) => `${BUILTIN_PREFIX}:${short}:${BUILTIN_VERSION}`;

/** Same rows with other weights (by band name): a variant of a domain tuned for other matching. */
export function reweighted(rows: readonly BandRow[], weights: Record<string, number>): BandRow[] {
  return rows.map(([name, type, weight, description, values]) => [
    name,
    type,
    weights[name] ?? weight,
    description,
    values,
  ]);
}

/**
 * A built-in Domain from its rows. Malformed data fails at module load (and in catalog.test /
 * domains.service.test), never at request time.
 */
export function defineBuiltin(spec: BuiltinSpec): Domain {
  if (spec.rows.length !== FREQUENCIES.length)
    throw new Error(`built-in domain ${spec.short}: ${spec.rows.length} bands, expected ${FREQUENCIES.length}`);
  const signals: SignalField[] = spec.rows.map(([name, type, weight, description, values], i) => {
    if (type === 'enum' && !values?.length)
      throw new Error(`built-in domain ${spec.short}: enum band ${name} (${ROLE_FAMILIES[i]}) has no values`);
    return {
      name,
      description,
      type,
      ...(values ? { allowed_values: [...values] } : {}),
      frequency_hz: FREQUENCIES[i],
      // The main statement is what every text has; the other bands may be empty.
      required: ROLE_FAMILIES[i] === 'main_content',
      weight,
    };
  });
  if (new Set(signals.map((s) => s.name)).size !== signals.length)
    throw new Error(`built-in domain ${spec.short}: duplicate band names`);
  return {
    domain_id: spec.short,
    name: spec.name,
    description: spec.description,
    signals,
    builtin: true,
    signal_multipliers: {},
    catalog_config: { enabled: true, refresh_every_n: 100 },
    routing_config: spec.routing_config ?? {},
    owner_user_id: null,
    owner_organization_id: null,
    owner_namespace_id: null,
    owner_workspace_id: null,
  };
}
