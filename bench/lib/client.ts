/**
 * The slice of Engram's memory API the benchmarks use, called over HTTP exactly as an
 * outside client would (shapes from /work/shared/spec/client-contract.md). The types are
 * declared here rather than imported from src/ so a server-side refactor cannot quietly
 * change what the benchmark sends.
 */
import { mapConcurrent } from './pool.ts';

/** A memory item as the client sends it (AddMemory). */
export interface AddMemory {
  content: string;
  type: 'text';
  external_user_id: string;
  metadata: {
    role?: 'user' | 'assistant';
    category?: string;
    createdAt?: string;
    sessionId?: string;
    conversationId?: string;
    sourceType?: string;
    customMetadata?: Record<string, string | number | boolean | string[]>;
  };
}

/** The fields of a returned MemoryObject the benchmarks read. */
export interface MemoryObject {
  id: string;
  content: string;
  metadata?: { customMetadata?: Record<string, unknown> } & Record<string, unknown>;
  customMetadata?: Record<string, unknown>;
}

/** Search body: `query` and the user, plus any option under test (merged in as given). */
export type SearchBody = { query: string; external_user_id: string } & Record<string, unknown>;

/** Largest batch the benchmarks send (the batch endpoint's `batch_size` limit). */
export const BATCH_SIZE = 100;

/** A client bound to one server and API key. */
export interface MemoryApi {
  /** Store `memories` in one batch request; throws unless every item was stored. */
  addBatch(memories: AddMemory[]): Promise<void>;
  /** Store `memories` in batches of {@link BATCH_SIZE}, `inflight` requests at a time. */
  addAll(memories: AddMemory[], inflight: number): Promise<void>;
  /** With background processing on: resolves when every batch stored so far is completed. */
  waitProcessed(timeoutMs?: number): Promise<void>;
  /** The ranked memories for `body`, at most `maxMemories`. */
  search(body: SearchBody, maxMemories: number): Promise<MemoryObject[]>;
}

/** Build a {@link MemoryApi} for the server at `baseUrl` authenticated with `apiKey`. */
export function memoryApi(baseUrl: string, apiKey: string, opts: { process?: boolean } = {}): MemoryApi {
  const batchIds: string[] = [];
  async function post(pathAndQuery: string, body: unknown): Promise<any> {
    const res = await fetch(`${baseUrl}${pathAndQuery}`, {
      method: 'POST',
      headers: { 'X-API-Key': apiKey, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`POST ${pathAndQuery} answered ${res.status}: ${text.slice(0, 500)}`);
    return JSON.parse(text);
  }

  const api: MemoryApi = {
    async addBatch(memories) {
      // batch_size = the whole request, so the server embeds it in one go like the bare-embedder measurement.
      // Without `process`, memories are stored and embedded only (no graph): what search needs.
      const r = await post(`/v1/memory/batch${opts.process ? '' : '?skip_background_processing=true'}`, {
        memories,
        batch_size: memories.length,
      });
      if (r.batch_id) batchIds.push(r.batch_id);
      // A 207 is still "ok" for fetch; a benchmark over partly stored data would mislead, so fail loudly.
      if (r.total_failed > 0 || r.total_successful !== memories.length) {
        throw new Error(
          `batch stored ${r.total_successful} of ${memories.length}; first error: ${JSON.stringify(r.errors?.[0])}`,
        );
      }
    },
    async addAll(memories, inflight) {
      const batches: AddMemory[][] = [];
      for (let i = 0; i < memories.length; i += BATCH_SIZE) batches.push(memories.slice(i, i + BATCH_SIZE));
      await mapConcurrent(batches, inflight, (b) => api.addBatch(b));
    },
    async waitProcessed(timeoutMs = 3_600_000) {
      const deadline = Date.now() + timeoutMs;
      for (const id of batchIds) {
        for (;;) {
          const res = await fetch(`${baseUrl}/v1/memory/batch/status/${id}`, { headers: { 'X-API-Key': apiKey } });
          const s = await res.json();
          if (['completed', 'partial', 'failed'].includes(s.processing_status)) break;
          if (Date.now() > deadline) throw new Error(`batch ${id} still ${s.processing_status}`);
          await new Promise((r) => setTimeout(r, 200));
        }
      }
    },
    async search(body, maxMemories) {
      const r = await post(`/v1/memory/search?max_memories=${maxMemories}`, body);
      if (!Array.isArray(r.data?.memories))
        throw new Error(`search answered without data.memories: ${JSON.stringify(r).slice(0, 500)}`);
      return r.data.memories;
    },
  };
  return api;
}
