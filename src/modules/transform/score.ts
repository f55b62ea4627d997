/**
 * Scoring a document artifact against a query artifact (docs/transform.md, "Scores"). Bands are
 * compared by position, that is by frequency, so artifacts of two domains still compare band
 * by band within a role family.
 *
 *   base      = cos(q.base, d.base)
 *   band_k    = cos(q.band_k, d.band_k)
 *   enhanced  = (w₀·base + Σ ω_k·band_k) / (w₀ + Σ ω_k)    = cos(concat_q, concat_d)
 *   fast      = cos(rot_v3(q), rot_v3(d))                  (base cosine with phase agreement)
 *
 * with ω_k the band weight times the domain's and the request's multipliers, w₀ = BASE_WEIGHT.
 */
import { BASE_WEIGHT, type Artifact } from './artifact.ts';
import { cosineQ, dequantize, rotate } from './vectors.ts';

export interface ArtifactScore {
  base: number;
  bands: number[];
  enhanced: number;
  fast: number;
}

/** Rotated base vectors, cached per artifact: `fast` needs them for every pair. */
const rotated = new WeakMap<Artifact, number[]>();
function rot(a: Artifact): number[] {
  let r = rotated.get(a);
  if (!r) {
    r = rotate(dequantize(a.base), a.phases);
    rotated.set(a, r);
  }
  return r;
}

export function scoreArtifact(q: Artifact, d: Artifact, weights: number[]): ArtifactScore {
  const base = cosineQ(q.base.q, d.base.q);
  const bands = q.bands.map((b, k) => cosineQ(b.q, d.bands[k].q));
  let num = BASE_WEIGHT * base;
  let den = BASE_WEIGHT;
  bands.forEach((s, k) => {
    num += weights[k] * s;
    den += weights[k];
  });
  const [rq, rd] = [rot(q), rot(d)];
  let fast = 0;
  for (let i = 0; i < rq.length; i++) fast += rq[i] * rd[i];
  return { base, bands, enhanced: num / den, fast };
}
