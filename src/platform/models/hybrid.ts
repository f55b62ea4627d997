/**
 * One vector from several embedders: the concatenation of √wᵢ·vᵢ with Σwᵢ = 1. For unit
 * vᵢ the result is unit-length and its cosine is exactly Σ wᵢ·cosᵢ, i.e. a weighted fusion
 * of the dense signals inside a single pgvector column and a single HNSW lookup. ARCHITECTURE
 * §7 measured USE lite + GloVe SIF fused with BM25 above either alone; this is the
 * one-column way to store both. Keeping two columns (see createLocalEmbedders) instead
 * allows per-signal min-max normalisation and retuning weights without re-embedding.
 */
import { EmbedderError, type Embedder } from './embedder.ts';

/** One part of a {@link concatEmbedder}. */
export interface WeightedEmbedder {
  embedder: Embedder;
  /** Share of the fused cosine; weights are rescaled to sum to 1. */
  weight: number;
}

/** Build a concatenating embedder, id 'hybrid(<id>*<w>+…)'. */
export function concatEmbedder(parts: WeightedEmbedder[]): Embedder {
  const total = parts.reduce((s, p) => s + p.weight, 0);
  if (parts.length === 0 || parts.some((p) => !(p.weight > 0)) || !Number.isFinite(total)) {
    throw new EmbedderError('invalid_input', 'concatEmbedder needs at least one part, each with a positive weight');
  }
  const shares = parts.map((p) => p.weight / total);
  const scales = shares.map(Math.sqrt);
  return {
    // A getter: a part's id can change (GloVe SIF after a corpus fit), and so must ours.
    get id() {
      return `hybrid(${parts.map((p, i) => `${p.embedder.id}*${+shares[i].toFixed(3)}`).join('+')})`;
    },
    dimensions: parts.reduce((s, p) => s + p.embedder.dimensions, 0),
    maxTokens: Math.min(...parts.map((p) => p.embedder.maxTokens)),
    async embed(texts) {
      const each = await Promise.all(parts.map((p) => p.embedder.embed(texts)));
      return texts.map((_, t) => each.flatMap((vectors, i) => vectors[t].map((x) => x * scales[i])));
    },
  };
}
