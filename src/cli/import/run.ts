/**
 * Send items to the server in chunks, resumably. Each item carries two markers in its metadata:
 * `import_key` (file id and index: which item it is) and `import_chunk` (file id and chunk:
 * which request carried it). The checkpoint counts acknowledged items; the batch API has no
 * idempotency key, so the one chunk that may have been stored without being acknowledged (the
 * run was killed mid-request, or a request failed in transit) is read back by its marker before
 * it is sent again: only the missing items go, and a duplicate left by the killed request
 * finishing late is deleted. OMO objects go to POST /v1/omo/import, whose skip_duplicates does
 * the same by object id.
 */
import { EngramHttpError, engramRequest, type EngramTarget } from '../../client/http.ts';
import { isUnreachable } from '../context.ts';
import { writeCheckpoint, type Checkpoint } from './checkpoint.ts';
import type { Item } from './readers.ts';
import { dedupeChunk, settledKeys } from './verify.ts';

/** The server's body limit is 10 MiB by default: a chunk stays well under it whatever the item sizes. */
const CHUNK_BYTES = 4 * 1024 * 1024;

export interface RunOptions {
  target: EngramTarget;
  items: Item[];
  omo: boolean;
  checkpoint: Checkpoint;
  checkpointPath: string;
  /** Whether an earlier run may have left the first pending chunk half stored. */
  resumed: boolean;
  defaults: { external_user_id?: string; namespace_id?: string };
  onProgress: (acknowledged: number) => void;
}

/** Chunk boundaries: chunk_size items, fewer when their JSON passes CHUNK_BYTES; the same for the same items. */
export function chunkStarts(items: Item[], size: number): number[] {
  const starts: number[] = [];
  let bytes = 0;
  let count = 0;
  items.forEach((it, i) => {
    const b = Buffer.byteLength(JSON.stringify(it));
    if (i === 0 || count >= size || bytes + b > CHUNK_BYTES) {
      starts.push(i);
      bytes = 0;
      count = 0;
    }
    bytes += b;
    count++;
  });
  return starts;
}

interface BatchAnswer {
  errors?: { index: number; error: string }[];
  total_successful?: number;
  imported?: number;
  skipped?: number;
}

/** One request; a 422 whose body is a batch result (every item refused) is an answer, not a failure. */
async function post(target: EngramTarget, path: string, body: unknown): Promise<BatchAnswer> {
  try {
    return await engramRequest<BatchAnswer>(target, 'POST', path, { body });
  } catch (err) {
    const b = err instanceof EngramHttpError ? (err.body as BatchAnswer | null) : null;
    if (err instanceof EngramHttpError && err.status === 422 && Array.isArray(b?.errors)) return b;
    throw err;
  }
}

const transient = (err: unknown) =>
  isUnreachable(err) || (err instanceof EngramHttpError && (err.status >= 500 || err.status === 429));

export async function runImport(o: RunOptions): Promise<Checkpoint> {
  const cp = o.checkpoint;
  const starts = chunkStarts(o.items, cp.chunk_size);
  let verify = o.resumed;
  for (let c = 0; c < starts.length; c++) {
    const from = starts[c];
    const to = c + 1 < starts.length ? starts[c + 1] : o.items.length;
    if (to <= cp.acknowledged) continue;
    const marker = `${cp.file_id}:${c}`;
    const chunk = o.items
      .slice(from, to)
      .map((it, k) =>
        o.omo
          ? it
          : { ...it, metadata: { ...it.metadata, import_key: `${cp.file_id}:${from + k}`, import_chunk: marker } },
      );
    for (let attempt = 1; ; attempt++) {
      try {
        await sendChunk(o, chunk, from, marker, verify);
        break;
      } catch (err) {
        if (!transient(err) || attempt >= 4) throw err;
        verify = true; // the failed request may have stored part of the chunk
        await new Promise((r) => setTimeout(r, 500 * 2 ** attempt));
      }
    }
    verify = false;
    cp.acknowledged = to;
    writeCheckpoint(o.checkpointPath, cp);
    o.onProgress(to);
  }
  return cp;
}

async function sendChunk(o: RunOptions, chunk: Item[], from: number, marker: string, verify: boolean) {
  const cp = o.checkpoint;
  if (o.omo) {
    const r = await post(o.target, '/v1/omo/import', { memories: chunk, skip_duplicates: true });
    cp.imported += r.imported ?? 0;
    cp.skipped += r.skipped ?? 0;
    record(cp, from, r.errors ?? []);
    return;
  }
  // Read back what an earlier attempt stored of this chunk, once it stops growing.
  const stored = verify ? await settledKeys(o.target, marker) : new Set<string>();
  const pending = chunk.filter((it) => !stored.has(String(it.metadata?.import_key)));
  cp.skipped += chunk.length - pending.length;
  if (pending.length) {
    const r = await post(o.target, '/v1/memory/batch', { memories: pending, batch_size: 50, ...o.defaults });
    const errors = r.errors ?? [];
    cp.imported += pending.length - errors.length;
    // Indexes in the answer are into `pending`; the report names positions in the input.
    const indexOf = (i: number) => Number(String(pending[i]?.metadata?.import_key).split(':')[1] ?? from + i);
    record(
      cp,
      0,
      errors.map((e) => ({ ...e, index: indexOf(e.index) })),
    );
  }
  if (verify) await dedupeChunk(o.target, marker);
}

function record(cp: Checkpoint, offset: number, errors: { index: number; error: string }[]) {
  cp.refused += errors.length;
  for (const e of errors) if (cp.errors.length < 100) cp.errors.push({ index: offset + e.index, error: e.error });
}
