/**
 * Graph-transform artifacts (spec §2.9): the canonical form every score is computed from, and
 * the wire form the API returns and accepts. Canonical vectors are int8 (vectors.ts), so an
 * artifact read back from the store, or sent back by a client, scores exactly as it did when
 * it was made.
 */
import { AppError } from '../../shared/errors.ts';
import { FREQUENCIES, type Domain } from './bands.ts';
import { concatenate, dequantize, phaseOf, quantize, rotate, type Quantized } from './vectors.ts';

export interface Artifact {
  domainId: string;
  /** Band name → extracted text, in the domain's frequency order. */
  signals: Record<string, string>;
  /** The base embedding (the primary embedder's width). */
  base: Quantized;
  /** One vector per band, index-aligned with the domain's signals (frequency order). */
  bands: Quantized[];
  /** One phase per band (vectors.ts phaseOf). */
  phases: number[];
  /** Which embedder made the band vectors ('sbert' or 'qwen'), and their width. */
  signalEmbedder: string;
}

/** Build the canonical artifact from float vectors (quantised here, phases from the quantised bands). */
export function makeArtifact(
  domain: Domain,
  signals: Record<string, string>,
  base: ArrayLike<number>,
  bands: ArrayLike<number>[],
  signalEmbedder: string,
): Artifact {
  const qb = bands.map((b) => quantize(b));
  return {
    domainId: domain.domain_id,
    signals,
    base: quantize(base),
    bands: qb,
    phases: qb.map((b, i) => phaseOf(b.q, FREQUENCIES[i])),
    signalEmbedder,
  };
}

/** Band weights of a domain with multipliers applied (the domain's, then the request's). */
export function bandWeights(domain: Domain, multipliers: Record<string, unknown> = {}): number[] {
  return domain.signals.map((s) => {
    const m = [domain.signal_multipliers[s.name], multipliers[s.name]].filter(
      (x): x is number => typeof x === 'number' && Number.isFinite(x) && x >= 0,
    );
    return m.reduce((w, x) => w * x, s.weight);
  });
}

/** Weight of the base embedding beside the bands' in concat_embedding and the enhanced score. */
export const BASE_WEIGHT = 1;

export interface WireArtifact {
  id: string;
  domain_id: string;
  meta: Record<string, unknown>;
  embedding: number[];
  phases: number[];
  signals: Record<string, string>;
  signal_embeddings: Record<string, number[]>;
  rot_v3?: number[];
  concat_embedding?: number[];
}

/**
 * Six significant digits: an int8 value times its scale needs no more (fromWire quantises a
 * rounded vector back to the same int8 values: the relative error 5·10⁻⁷ moves q/127 by far less
 * than half a step), and the JSON is half the size (a 14-band artifact ~60 KB instead of ~124 KB).
 */
const wire = (v: ArrayLike<number>): number[] => Array.from(v, (x) => Number(x.toPrecision(6)));

export function toWire(
  a: Artifact,
  domain: Domain,
  opts: { id: string; meta: Record<string, unknown>; rot?: boolean; concat?: boolean },
): WireArtifact {
  const bands = a.bands.map(dequantize);
  const base = dequantize(a.base);
  const out: WireArtifact = {
    id: opts.id,
    domain_id: a.domainId,
    meta: opts.meta,
    embedding: wire(base),
    phases: a.phases,
    signals: a.signals,
    signal_embeddings: Object.fromEntries(domain.signals.map((s, i) => [s.name, wire(bands[i])])),
  };
  if (opts.rot) out.rot_v3 = wire(rotate(base, a.phases));
  if (opts.concat) out.concat_embedding = wire(concatenate([base, ...bands], [BASE_WEIGHT, ...bandWeights(domain)]));
  return out;
}

/** The artifact fields of a rerank QueryItem / DocumentInput (contract "Graph"). */
export interface ArtifactInput {
  text?: string;
  embedding?: number[];
  signals?: Record<string, string>;
  signal_embeddings?: Record<string, number[]>;
  phases?: number[];
}

/** Is this input a complete artifact (so nothing needs computing)? */
export function isComplete(x: ArtifactInput, domain: Domain): boolean {
  return !!x.embedding?.length && domain.signals.every((s) => x.signal_embeddings?.[s.name]?.length);
}

/**
 * A complete wire artifact back to the canonical form: widths checked against the deployment's
 * (base) and each other (bands); phases recomputed from the bands, never trusted.
 */
export function fromWire(
  x: ArtifactInput,
  domain: Domain,
  widths: { base: number; band: number; signalEmbedder: string },
  field: string,
): Artifact {
  if (x.embedding!.length !== widths.base)
    throw new AppError(
      422,
      `${field}.embedding has ${x.embedding!.length} dimensions; this deployment's base embedding has ${widths.base}`,
      {
        field: `${field}.embedding`,
        expected: widths.base,
      },
    );
  const bands = domain.signals.map((s) => {
    const v = x.signal_embeddings![s.name];
    if (v.length !== widths.band || v.some((n) => typeof n !== 'number' || !Number.isFinite(n)))
      throw new AppError(
        422,
        `${field}.signal_embeddings.${s.name} must be ${widths.band} finite numbers ` +
          `(signal_embedder ${widths.signalEmbedder})`,
        {
          field: `${field}.signal_embeddings.${s.name}`,
          expected: widths.band,
        },
      );
    return v;
  });
  const signals = Object.fromEntries(domain.signals.map((s) => [s.name, x.signals?.[s.name] ?? '']));
  return makeArtifact(domain, signals, x.embedding!, bands, widths.signalEmbedder);
}
