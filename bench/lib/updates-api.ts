/**
 * HTTP calls of the fact-update benchmark that bench/lib/client.ts does not make: a batch add that
 * returns the stored ids, and a single-memory read. Shapes from src/modules/memories/memories.schemas.ts
 * (batch: successful[i].data[0].memoryId) and memory-object.ts (GET answers the search envelope).
 */
import type { AddMemory, MemoryObject } from './client.ts';

/** The supersession fields the benchmark reads; absent (undefined) on a server without supersession. */
export interface Lifecycle {
  id: string;
  superseded_by?: string | null;
  supersedes?: string[];
  valid_to?: string | null;
}

export function updatesApi(baseUrl: string, apiKey: string) {
  const headers = { 'X-API-Key': apiKey, 'Content-Type': 'application/json' };
  async function call(method: string, path: string, body?: unknown): Promise<any> {
    const res = await fetch(`${baseUrl}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${text.slice(0, 500)}`);
    return JSON.parse(text);
  }
  return {
    /** Store `items` in one batch (in order); the ids in item order. Throws unless all were stored. */
    async addBatch(items: (AddMemory & Record<string, unknown>)[]): Promise<string[]> {
      // Supersession is decided at write time, so background processing (the graph) is not needed.
      const r = await call('POST', '/v1/memory/batch?skip_background_processing=true', {
        memories: items,
        batch_size: items.length,
      });
      if (r.total_failed > 0 || r.total_successful !== items.length)
        throw new Error(`batch stored ${r.total_successful} of ${items.length}: ${JSON.stringify(r.errors?.[0])}`);
      return r.successful.map((s: any, i: number) => {
        // The generator never repeats a text for a user; a fold here would make the ground truth wrong.
        if (s.data?.[0]?.duplicate) throw new Error(`item ${i} (${items[i].content}) was folded as a duplicate`);
        return s.data[0].memoryId as string;
      });
    },
    async get(id: string): Promise<Lifecycle> {
      const r = await call('GET', `/v1/memory/${encodeURIComponent(id)}`);
      return (r.data?.memories?.[0] ?? r.data?.[0] ?? r.data) as Lifecycle;
    },
    async search(body: Record<string, unknown>): Promise<MemoryObject[]> {
      const r = await call('POST', '/v1/memory/search?max_memories=10', { max_memories: 10, ...body });
      if (!Array.isArray(r.data?.memories)) throw new Error(`search without data.memories: ${JSON.stringify(r)}`);
      return r.data.memories;
    },
  };
}
