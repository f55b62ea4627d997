/**
 * Streaming extraction of the most frequent words from the wink-embeddings JSON.
 *
 * Layout: {"precision":8,…,"size":341479,"dimensions":100,"words":[…],
 * "vectors":{"the":[d0,…,d99,l2norm,wordIndex],…},"unkVector":[…]}. `words` is GloVe 6B's
 * vocabulary order, i.e. descending corpus frequency, and each vector ends with its index
 * into it. `JSON.parse` of the 307 MB file costs ~4.4 s and ~1 GB; reading it in chunks and
 * parsing only the entries we keep stops after the first ~30 % of the file (the entries are
 * stored in rank order) and never holds more than one chunk.
 */
import { open } from 'node:fs/promises';
import { EmbedderError } from './embedder.ts';

/** The top words by frequency rank and their vectors (row r = rank r). */
export interface ExtractedWords {
  words: string[];
  vectors: Float32Array;
  dimensions: number;
  /** Vocabulary size of the whole source. */
  sourceSize: number;
}

const MARKER = Buffer.from(',"vectors":{');
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const CLOSE_BRACKET = 0x5d;
const COMMA = 0x2c;

const bad = (message: string) => new EmbedderError('bad_response', `GloVe source: ${message}`);

/** Read the `maxWords` most frequent words' vectors from the wink JSON at `sourcePath`. */
export async function readTopWords(
  sourcePath: string,
  maxWords: number,
  chunkBytes = 8 << 20,
): Promise<ExtractedWords> {
  const file = await open(sourcePath, 'r');
  try {
    let buf = Buffer.alloc(0);
    let pos = 0;
    const more = async () => {
      const chunk = Buffer.allocUnsafe(chunkBytes);
      const { bytesRead } = await file.read(chunk, 0, chunkBytes, null);
      if (bytesRead === 0) throw bad('file ended before all wanted words were found');
      buf = Buffer.concat([buf.subarray(pos), chunk.subarray(0, bytesRead)]);
      pos = 0;
    };

    let at: number;
    while ((at = buf.indexOf(MARKER)) < 0) await more();
    const header = JSON.parse(`${buf.toString('utf8', 0, at)}}`) as {
      dimensions: number;
      size: number;
      words: string[];
    };
    const dims = header.dimensions;
    const n = Math.min(maxWords, header.words.length);
    const vectors = new Float32Array(n * dims);
    const filled = new Uint8Array(n);
    let remaining = n;
    pos = at + MARKER.length;

    while (remaining > 0) {
      const entry = locateEntry(buf, pos);
      if (!entry) {
        await more();
        continue;
      }
      if (buf[entry.keyStart] !== QUOTE) throw bad(`unexpected byte at entry ${n - remaining}`);
      const rank = parseNumber(buf, buf.lastIndexOf(COMMA, entry.close) + 1, entry.close);
      if (rank < n && !filled[rank]) {
        const key = JSON.parse(buf.toString('utf8', entry.keyStart, entry.keyEnd + 1)) as string;
        if (key !== header.words[rank]) throw bad(`vector "${key}" claims rank ${rank} ("${header.words[rank]}")`);
        let start = entry.open + 1;
        for (let d = 0; d < dims; d++) {
          const end = buf.indexOf(COMMA, start);
          if (end < 0 || end > entry.close) throw bad(`vector "${key}" has fewer than ${dims} values`);
          vectors[rank * dims + d] = parseNumber(buf, start, end);
          start = end + 1;
        }
        filled[rank] = 1;
        remaining--;
      }
      if (buf[entry.close + 1] !== COMMA) break; // `]}`: the last entry
      pos = entry.close + 2;
    }
    if (remaining > 0) throw bad(`${remaining} of the top ${n} words have no vector`);
    const words = header.words.slice(0, n);
    if (words.some((w) => w.includes('\n'))) throw bad('a word contains a newline');
    return { words, vectors, dimensions: dims, sourceSize: header.size };
  } finally {
    await file.close();
  }
}

/** Byte offsets of the entry `"key":[…]` starting at `pos`, or null if the chunk cuts it off. */
function locateEntry(buf: Buffer, pos: number) {
  let end = pos + 1; // the key's closing quote, honouring escapes such as "\"" and "\\"
  while (end < buf.length && buf[end] !== QUOTE) end += buf[end] === BACKSLASH ? 2 : 1;
  const open = end + 2; // past `":` onto `[`
  if (open >= buf.length) return null;
  const close = buf.indexOf(CLOSE_BRACKET, open); // numbers never contain `]`
  if (close < 0 || close + 1 >= buf.length) return null;
  return { keyStart: pos, keyEnd: end, open, close };
}

/**
 * Parse a JSON number from bytes without allocating a string: this loop runs 10 million
 * times per conversion, where toString + split + Number took most of the time.
 */
function parseNumber(buf: Buffer, start: number, end: number): number {
  if (end <= start) throw bad('empty number');
  let i = start;
  const negative = buf[i] === 0x2d;
  if (negative) i++;
  let value = 0;
  let scale = 1;
  let fraction = false;
  for (; i < end; i++) {
    const c = buf[i];
    if (c >= 0x30 && c <= 0x39) {
      value = value * 10 + (c - 0x30);
      if (fraction) scale *= 10;
    } else if (c === 0x2e) {
      fraction = true;
    } else {
      return Number(buf.toString('latin1', start, end)); // exponent or anything unusual
    }
  }
  const result = value / scale;
  return negative ? -result : result;
}
