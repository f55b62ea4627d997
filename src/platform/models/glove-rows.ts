/**
 * The rows of a GloVe table, read from its cache file as they are needed.
 *
 * Holding the whole 100k × 100 float32 table costs 40 MB of resident memory in every process
 * that embeds, though a text touches a few dozen rows and word frequencies are Zipfian: the
 * most frequent 8,192 words (3.3 MB, kept resident) cover most running text. The rarer rows
 * are read with positioned reads (the OS page cache keeps the file warm; a read is a few µs)
 * into a small LRU. Embeddings are unchanged: the same floats, fetched differently.
 */
import { closeSync, openSync, readSync } from 'node:fs';

/** Row access to a table of `count` vectors of `dimensions` floats, row r = word of rank r. */
export interface GloveRows {
  readonly count: number;
  /** Row `rank` (0 ≤ rank < count). Callers read it at once; it is not theirs to keep or change. */
  row(rank: number): Float32Array;
}

/** Rows of a table already in memory (conversion, tests). */
export function memoryRows(vectors: Float32Array, dimensions: number): GloveRows {
  return {
    count: vectors.length / dimensions,
    row: (rank) => vectors.subarray(rank * dimensions, (rank + 1) * dimensions),
  };
}

export interface FileRowsOptions {
  /** Most frequent rows kept resident (default 8,192). */
  residentRows?: number;
  /** Other rows remembered, least recently used dropped first (default 4,096: 1.6 MB). */
  cachedRows?: number;
}

/** The descriptor is closed when the table is collected (tests open many small tables). */
const closer = new FinalizationRegistry<number>((fd) => {
  try {
    closeSync(fd);
  } catch {
    // already closed: nothing to release
  }
});

/** Rows of the float32 little-endian file `file` (`count` rows of `dimensions`), read on demand. */
export function fileRows(file: string, count: number, dimensions: number, options: FileRowsOptions = {}): GloveRows {
  const rowBytes = dimensions * 4;
  const fd = openSync(file, 'r');
  const readRows = (from: number, rows: number): Float32Array => {
    const out = new Float32Array(rows * dimensions);
    const bytes = new Uint8Array(out.buffer);
    let done = 0;
    while (done < bytes.byteLength) {
      const n = readSync(fd, bytes, done, bytes.byteLength - done, from * rowBytes + done);
      if (n === 0) throw new Error(`GloVe table ${file} is shorter than its metadata says`);
      done += n;
    }
    return out; // the file is little-endian like every platform Node runs on
  };
  const resident = Math.min(count, options.residentRows ?? 8192);
  const hot = resident > 0 ? readRows(0, resident) : new Float32Array(0);
  const capacity = options.cachedRows ?? 4096;
  const lru = new Map<number, Float32Array>(); // insertion order = recency
  const rows: GloveRows = {
    count,
    row(rank) {
      if (rank < resident) return hot.subarray(rank * dimensions, (rank + 1) * dimensions);
      let v = lru.get(rank);
      if (v) {
        lru.delete(rank); // refresh its place
      } else {
        v = readRows(rank, 1);
        if (lru.size >= capacity) lru.delete(lru.keys().next().value!);
      }
      lru.set(rank, v);
      return v;
    },
  };
  closer.register(rows, fd);
  return rows;
}
