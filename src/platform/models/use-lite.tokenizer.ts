/**
 * The SentencePiece tokenizer of USE lite: Viterbi segmentation over the unigram vocabulary
 * (piece scores = log probabilities). A port of the tokenizer in @energetic-ai/embeddings
 * (itself from tensorflow/tfjs-models, Apache-2.0) that gives the same ids for every input,
 * including its quirks (NFKC, '▁' for spaces, unknown runs merged into one id 0, backtracking
 * by the UTF-16 length of a piece), so the ONNX model sees exactly what the TF.js model saw.
 * What differs is cost: prefix matches walk the trie from an index instead of copying the rest
 * of the text for every position (quadratic in the text length in the original).
 */

const SEPARATOR = '\u2581';
/** Ids 0–5 are <unk>-like reserved symbols that never match text. */
const RESERVED = 6;

interface TrieNode {
  children: Map<string, TrieNode>;
  /** Set when a piece ends here: its id, score and length in code points. */
  piece?: { id: number; score: number; symbols: number };
}

export class UseLiteTokenizer {
  private readonly root: TrieNode = { children: new Map() };
  private readonly lengths: number[];

  constructor(private readonly vocabulary: [string, number][]) {
    this.lengths = vocabulary.map(([piece]) => piece.length);
    for (let id = RESERVED; id < vocabulary.length; id++) {
      const [piece, score] = vocabulary[id];
      const symbols = [...piece];
      let node = this.root;
      for (const s of symbols) {
        let next = node.children.get(s);
        if (!next) node.children.set(s, (next = { children: new Map() }));
        node = next;
      }
      node.piece = { id, score, symbols: symbols.length };
    }
  }

  encode(text: string): number[] {
    const normalized = text.normalize('NFKC');
    const input = normalized.length > 0 ? SEPARATOR + normalized.replace(/ /g, SEPARATOR) : normalized;
    const symbols = [...input];
    const n = symbols.length;
    // Candidate pieces ending at each position, in ascending start (the order the original
    // visits them in: it keys them by start in an object, and integer keys iterate ascending).
    const ending: { start: number; id: number; score: number; symbols: number }[][] = Array.from(
      { length: n + 1 },
      () => [],
    );
    for (let i = 0; i < n; i++) {
      let node = this.root.children.get(symbols[i]);
      let matched = false;
      for (let j = i; j < n && node; j++) {
        if (node.piece) {
          ending[j + 1].push({ start: i, ...node.piece });
          matched = true;
        }
        node = node.children.get(symbols[j + 1]);
      }
      // No piece starts here: the symbol alone, as unknown id 0 with score 0.
      if (!matched) ending[i + 1].push({ start: i, id: 0, score: 0, symbols: 1 });
    }
    const best = new Float64Array(n + 1);
    const words = new Int32Array(n + 1);
    for (let end = 0; end <= n; end++) {
      for (const c of ending[end]) {
        const score = c.score + best[end - c.symbols];
        if (best[end] === 0 || score >= best[end]) {
          best[end] = score;
          words[end] = c.id;
        }
      }
    }
    const ids: number[] = [];
    for (let at = n; at > 0; at -= this.lengths[words[at]]) ids.push(words[at]);
    const merged: number[] = [];
    let previousUnknown = false;
    for (const id of ids) {
      if (!(previousUnknown && id === 0)) merged.push(id);
      previousUnknown = id === 0;
    }
    return merged.reverse();
  }
}
