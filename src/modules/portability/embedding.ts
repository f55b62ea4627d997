/**
 * A memory's embedding as sync hands it out: float32 (a list of numbers) or int8 (integers
 * -127…127 and the scale that multiplies them back), always unit length (cosine models).
 */
export type EmbeddingFormat = 'float32' | 'int8';

export interface EmbeddingFields {
  embedding?: number[];
  embedding_int8?: number[];
  embedding_scale?: number;
  embedding_model?: string;
}

/** pgvector's text form (`[x,y,…]`), normalised to unit length, at float32 precision. */
export function parseVector(text: string): number[] {
  const v = (JSON.parse(text) as number[]).map(Number);
  const norm = Math.sqrt(v.reduce((s, x) => s + x * x, 0)) || 1;
  return v.map((x) => Math.fround(x / norm));
}

/** Symmetric int8 quantisation: q = round(x / scale), scale = max |x| / 127. */
export function quantise(v: number[]): { values: number[]; scale: number } {
  const max = v.reduce((m, x) => Math.max(m, Math.abs(x)), 0);
  const scale = max / 127 || 1;
  return { values: v.map((x) => Math.round(x / scale)), scale };
}

export function embeddingFields(vector: number[], model: string, format: EmbeddingFormat): EmbeddingFields {
  if (format === 'float32') return { embedding: vector, embedding_model: model };
  const q = quantise(vector);
  return { embedding_int8: q.values, embedding_scale: q.scale, embedding_model: model };
}
