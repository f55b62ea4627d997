import type { Embedder, Embedders } from '../../platform/models/index.ts';
import { newId } from '../../shared/ids.ts';
import { analyze } from '../../platform/text-analyzer.ts';
import { embeddingText } from '../../platform/text-code.ts';
import type { ChunkData } from './memories.store.ts';

/** The dense signals a deployment runs (defined in platform/models; re-exported while importers move). */

const SENTENCE = /[^.!?\n]+[.!?]*\s*|\n+/g;

/**
 * Split text into pieces of at most `maxWords` words, on sentence boundaries where
 * possible (a single over-long sentence is cut by words). Short text is one chunk.
 */
export function chunkText(text: string, maxWords: number): string[] {
  const words = (s: string) => s.split(/\s+/).filter(Boolean);
  if (words(text).length <= maxWords) return [text];
  const chunks: string[] = [];
  let current: string[] = [];
  const flush = () => {
    if (current.length) chunks.push(current.join(' '));
    current = [];
  };
  for (const sentence of text.match(SENTENCE) ?? [text]) {
    const w = words(sentence);
    if (current.length + w.length > maxWords) flush();
    for (let i = 0; i < w.length; i += maxWords) {
      const piece = w.slice(i, i + maxWords);
      if (piece.length === maxWords) {
        flush();
        chunks.push(piece.join(' '));
      } else current.push(...piece);
    }
  }
  flush();
  return chunks.length ? chunks : [text];
}

/** Words per chunk from the embedder's token budget (English runs ~1.3 tokens a word). */
export function wordsPerChunk(e: Embedder): number {
  return Math.max(32, Math.floor(e.maxTokens / 1.3));
}

/**
 * Chunk, analyse and embed many contents at once: one embedder call per signal for the
 * whole list (batching is what makes local models fast). Runs outside any transaction.
 */
export async function buildChunks(contents: string[], embedders: Embedders): Promise<ChunkData[][]> {
  const maxWords = wordsPerChunk(embedders.primary);
  const pieces = contents.map((c) => chunkText(c, maxWords));
  const flat = pieces.flat();
  // Code is embedded by its words (text-code.ts); BM25 reads every chunk as written.
  const read = flat.map(embeddingText);
  const [e1, e2] = await Promise.all([
    embedders.primary.embed(read),
    embedders.secondary ? embedders.secondary.embed(read) : Promise.resolve(null),
  ]);
  let k = 0;
  return pieces.map((texts) =>
    texts.map((text, index) => {
      const terms = analyze(text);
      const i = k++;
      return {
        id: newId(),
        index,
        text,
        terms: terms.join(' '),
        docLen: terms.length,
        embedding: e1[i],
        embeddingModel: embedders.primary.id,
        embedding2: e2 ? e2[i] : null,
        embedding2Model: embedders.secondary?.id ?? null,
      };
    }),
  );
}
