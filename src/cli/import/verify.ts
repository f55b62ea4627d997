/**
 * Reading a chunk back by its marker (metadata.import_chunk) through the memory listing: which
 * items of it are stored, and removing a second copy of one.
 */
import { engramRequest, type EngramTarget } from '../../client/http.ts';

interface Listed {
  id: string;
  metadata?: Record<string, unknown> | null;
  customMetadata?: Record<string, unknown> | null;
}

/** import_key → ids of the memories carrying it, for one chunk marker (oldest first). */
export async function chunkMembers(target: EngramTarget, marker: string): Promise<Map<string, string[]>> {
  const found = new Map<string, string[]>();
  let cursor: string | undefined;
  do {
    const page = await engramRequest<{ data: { memories: Listed[] }; next_cursor: string | null }>(
      target,
      'GET',
      '/v1/memory',
      { query: { metadata: JSON.stringify({ import_chunk: marker }), limit: 200, cursor } },
    );
    for (const m of page.data.memories) {
      const key = String(m.metadata?.import_key ?? m.customMetadata?.import_key ?? '');
      if (key) found.set(key, [m.id, ...(found.get(key) ?? [])]); // pages are newest first
    }
    cursor = page.next_cursor ?? undefined;
  } while (cursor);
  return found;
}

/**
 * The keys stored for a chunk once the count holds still across two reads `pauseMs` apart: a
 * request of a killed run may still be writing (the server finishes what it was sent).
 */
export async function settledKeys(target: EngramTarget, marker: string, pauseMs = 1500): Promise<Set<string>> {
  let before = await chunkMembers(target, marker);
  for (let i = 0; i < 40; i++) {
    await new Promise((r) => setTimeout(r, pauseMs));
    const now = await chunkMembers(target, marker);
    if (count(now) === count(before)) return new Set(now.keys());
    before = now;
  }
  return new Set(before.keys());
}

const count = (m: Map<string, string[]>) => [...m.values()].reduce((s, ids) => s + ids.length, 0);

/** Delete every copy but the oldest of each item of the chunk; how many were deleted. */
export async function dedupeChunk(target: EngramTarget, marker: string): Promise<number> {
  let deleted = 0;
  for (const ids of (await chunkMembers(target, marker)).values()) {
    for (const id of ids.slice(1)) {
      await engramRequest(target, 'DELETE', `/v1/memory/${encodeURIComponent(id)}`);
      deleted++;
    }
  }
  return deleted;
}
