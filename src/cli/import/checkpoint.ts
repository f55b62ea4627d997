/**
 * The import checkpoint: a small JSON file beside the input recording how many items the server
 * acknowledged. Written atomically (a temporary file renamed over it), so a kill at any moment
 * leaves the previous or the next state, never half of one.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export interface Checkpoint {
  version: 1;
  /** Hash of the input's bytes: a checkpoint of another file (or a changed one) is refused. */
  file_id: string;
  format: string;
  /** Items per request when the import began; a resumed run keeps it, so chunks and their markers stay the same. */
  chunk_size: number;
  total: number;
  /** Items the server has answered for (stored, refused or skipped), from the first on. */
  acknowledged: number;
  imported: number;
  refused: number;
  skipped: number;
  /** The first refusals (index and reason), for the report. */
  errors: { index: number; error: string }[];
  updated_at: string;
}

/** Where the checkpoint of `input` lives by default: `<input>.engram-import.json` beside it. */
export function defaultCheckpointPath(input: string): string {
  const abs = path.resolve(input);
  return path.join(path.dirname(abs), `${path.basename(abs)}.engram-import.json`);
}

export function readCheckpoint(file: string): Checkpoint | null {
  if (!fs.existsSync(file)) return null;
  const c = JSON.parse(fs.readFileSync(file, 'utf8')) as Checkpoint;
  if (c.version !== 1 || typeof c.acknowledged !== 'number') throw new Error(`${file} is not an import checkpoint`);
  return c;
}

export function writeCheckpoint(file: string, c: Checkpoint): void {
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify({ ...c, updated_at: new Date().toISOString() }, null, 2) + '\n');
  fs.renameSync(tmp, file);
}

/** A stable id of the input: sha256 over its bytes (a folder: over its files' names and bytes), 16 hex digits. */
export function fileIdOf(input: string): string {
  const h = createHash('sha256');
  if (fs.statSync(input).isDirectory()) {
    for (const f of (fs.readdirSync(input, { recursive: true }) as string[]).sort()) {
      const p = path.join(input, f);
      if (!fs.statSync(p).isFile()) continue;
      h.update(f).update('\0').update(fs.readFileSync(p)).update('\0');
    }
  } else h.update(fs.readFileSync(input));
  return h.digest('hex').slice(0, 16);
}
