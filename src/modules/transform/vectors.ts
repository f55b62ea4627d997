/**
 * The vector arithmetic of graph-transform artifacts (docs/transform.md, "Formulas"):
 * a seeded orthonormal projection to the `sbert` width, int8 quantisation (the precision
 * artifacts are stored and scored at, so a stored artifact scores exactly like a fresh one),
 * band phases, the phase rotation (`rot_v3`) and the weighted concatenation.
 */

/** mulberry32 seeded by an FNV-1a hash of `seed`: the same numbers on every machine. */
function rng(seed: string): () => number {
  let h = 0x811c9dc5;
  for (let i = 0; i < seed.length; i++) h = Math.imul(h ^ seed.charCodeAt(i), 0x01000193) >>> 0;
  return () => {
    h = (h + 0x6d2b79f5) >>> 0;
    let t = h;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A standard normal from two uniforms (Box–Muller). */
function gaussian(next: () => number): number {
  return Math.sqrt(-2 * Math.log(1 - next())) * Math.cos(2 * Math.PI * next());
}

/** A seeded random unit vector of `dims`. */
export function seededUnit(seed: string, dims: number): Float64Array {
  const next = rng(seed);
  const v = new Float64Array(dims);
  for (let i = 0; i < dims; i++) v[i] = gaussian(next);
  return unit(v);
}

export function unit(v: Float64Array): Float64Array {
  let s = 0;
  for (const x of v) s += x * x;
  const inv = s > 0 ? 1 / Math.sqrt(s) : 0;
  for (let i = 0; i < v.length; i++) v[i] *= inv;
  return v;
}

const projections = new Map<string, Float64Array[]>();

/**
 * Rows of a seeded random orthonormal map from `from` to `to` dimensions (Gram–Schmidt over
 * Gaussian rows, seed 'engram-transform-projection'). An orthonormal projection onto a random
 * subspace keeps cosines on average (Johnson–Lindenstrauss), so a 512-wide model serves the
 * spec's 384-wide `sbert` bands. When `to >= from` the vector is zero-padded instead.
 */
export function projection(from: number, to: number): Float64Array[] {
  const key = `${from}>${to}`;
  let rows = projections.get(key);
  if (!rows) {
    const next = rng('engram-transform-projection');
    rows = [];
    for (let r = 0; r < to; r++) {
      const v = new Float64Array(from);
      for (let i = 0; i < from; i++) v[i] = gaussian(next);
      for (const prev of rows) {
        let d = 0;
        for (let i = 0; i < from; i++) d += v[i] * prev[i];
        for (let i = 0; i < from; i++) v[i] -= d * prev[i];
      }
      rows.push(unit(v));
    }
    projections.set(key, rows);
  }
  return rows;
}

/** `v` mapped to `to` dimensions (projected down or zero-padded up), unit length. */
export function project(v: ArrayLike<number>, to: number): Float64Array {
  if (v.length === to) return unit(Float64Array.from(v));
  if (v.length < to) {
    const out = new Float64Array(to);
    out.set(Array.from(v));
    return unit(out);
  }
  const rows = projection(v.length, to);
  const out = new Float64Array(to);
  for (let r = 0; r < to; r++) {
    let s = 0;
    const row = rows[r];
    for (let i = 0; i < v.length; i++) s += row[i] * v[i];
    out[r] = s;
  }
  return unit(out);
}

/** An int8 vector and the scale that maps it back: value_i = q_i * scale. */
export interface Quantized {
  q: Int8Array;
  scale: number;
}

/**
 * Symmetric int8 quantisation: scale = max|v| / 127, q = round(v / scale). Idempotent on its
 * own output (the largest element maps back to ±127), which is why an artifact returned by the
 * API and sent back to rerank scores exactly as the stored one.
 */
export function quantize(v: ArrayLike<number>): Quantized {
  let max = 0;
  for (let i = 0; i < v.length; i++) max = Math.max(max, Math.abs(v[i]));
  const scale = max > 0 ? max / 127 : 1;
  const q = new Int8Array(v.length);
  for (let i = 0; i < v.length; i++) q[i] = Math.max(-127, Math.min(127, Math.round(v[i] / scale)));
  return { q, scale };
}

export function dequantize({ q, scale }: Quantized): number[] {
  return Array.from(q, (x) => x * scale);
}

/** Cosine of two int8 vectors (scales cancel); 0 when either is zero. */
export function cosineQ(a: Int8Array, b: Int8Array): number {
  let d = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    d += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return na && nb ? d / Math.sqrt(na * nb) : 0;
}

/**
 * Band phase: φ = atan2(b·v, b·u) with u, v seeded unit vectors of the band's frequency
 * ('engram-phase-u-<hz>', '…-v-<hz>'): where the band's meaning points in a fixed plane, so
 * texts with similar band content get nearby phases. In (−π, π].
 */
export function phaseOf(band: Int8Array, hz: number): number {
  const u = seededUnit(`engram-phase-u-${hz}`, band.length);
  const v = seededUnit(`engram-phase-v-${hz}`, band.length);
  let x = 0;
  let y = 0;
  for (let i = 0; i < band.length; i++) {
    x += band[i] * u[i];
    y += band[i] * v[i];
  }
  return x === 0 && y === 0 ? 0 : Math.atan2(y, x);
}

/**
 * rot_v3: the unit base embedding with each consecutive pair of dimensions (2j, 2j+1) rotated
 * by the phase of band j mod 14. A rotation keeps the norm; two texts' rot_v3 cosine is their
 * base cosine weighted by how well their band phases agree.
 */
export function rotate(base: ArrayLike<number>, phases: number[]): number[] {
  const e = unit(Float64Array.from(base));
  const out = Array.from(e);
  for (let j = 0; 2 * j + 1 < e.length; j++) {
    const t = phases[j % phases.length];
    const [c, s] = [Math.cos(t), Math.sin(t)];
    out[2 * j] = e[2 * j] * c - e[2 * j + 1] * s;
    out[2 * j + 1] = e[2 * j] * s + e[2 * j + 1] * c;
  }
  return out;
}

/**
 * concat_embedding: [√(w₀/W)·base, √(w₁/W)·band₁, …] with each block unit length and
 * W = Σ w: unit norm, and the cosine of two concatenations is Σ wᵢ·cosᵢ / W, the weighted
 * sum of block cosines.
 */
export function concatenate(blocks: ArrayLike<number>[], weights: number[]): number[] {
  const total = weights.reduce((a, b) => a + b, 0);
  const out: number[] = [];
  blocks.forEach((b, i) => {
    const f = Math.sqrt(weights[i] / total);
    for (const x of unit(Float64Array.from(b))) out.push(x * f);
  });
  return out;
}
