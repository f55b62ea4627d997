/**
 * The traffic of `bench/load.ts`: HTTP calls that never throw (a failure is a result to count),
 * a recorder of latencies and errors per kind of request, a ledger of every memory the run
 * wrote or deleted (what the integrity check compares the store with), the seeding of the
 * store, and the closed-loop clients of the mixed load.
 *
 * Every memory the run writes carries a reference at the end of its content, `(ref S.12)` for
 * seed item 12 and `(ref L3.40)` for the 40th memory client 3 wrote, so a row found in the
 * store can be traced to the one request that wrote it (exactly once, or a duplicate).
 */
import type { AddMemory } from './client.ts';
import { prng, syntheticMemory } from './corpus.ts';
import { mapConcurrent } from './pool.ts';

/** A finished HTTP call: its status, or why none came back, the parsed body and the full time. */
export interface Reply {
  status: number | 'network' | 'timeout';
  body: any;
  ms: number;
}

/** `call(method, path, body?)` against one server with one API key; never throws. */
export type Call = (method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown) => Promise<Reply>;

/**
 * A {@link Call} over Node's fetch, which keeps connections alive: each closed-loop client
 * reuses its connection, as a client library would. Times include reading the whole body.
 */
export function httpCall(baseUrl: string, apiKey: string, timeoutMs: number): Call {
  return async (method, path, body) => {
    const t0 = performance.now();
    try {
      const res = await fetch(`${baseUrl}${path}`, {
        method,
        headers:
          body === undefined ? { 'X-API-Key': apiKey } : { 'X-API-Key': apiKey, 'Content-Type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      });
      const text = await res.text();
      const ms = performance.now() - t0;
      let parsed: unknown = text;
      try {
        parsed = JSON.parse(text);
      } catch {
        /* not JSON: kept as text for the error report */
      }
      return { status: res.status, body: parsed, ms };
    } catch (err) {
      const status = (err as Error).name === 'TimeoutError' ? 'timeout' : 'network';
      return { status, body: String(err), ms: performance.now() - t0 };
    }
  };
}

export const KINDS = ['search', 'add', 'batch', 'get', 'delete'] as const;
export type Kind = (typeof KINDS)[number];

/** Latencies of the requests that succeeded, and the failures by kind and status. */
export function createRecorder() {
  const ok = Object.fromEntries(KINDS.map((k) => [k, [] as number[]])) as Record<Kind, number[]>;
  const errors = new Map<string, number>();
  let serverErrors = 0;
  return {
    ok,
    errors,
    serverErrors: () => serverErrors,
    /**
     * Count `reply`: a success when 2xx and `valid`, else an error under "<kind> <status>"
     * (`note` says more, e.g. that a 404 was for one of our own memories).
     */
    record(kind: Kind, reply: Reply, valid = true, note = ''): boolean {
      const is2xx = typeof reply.status === 'number' && reply.status >= 200 && reply.status < 300;
      if (is2xx && valid) {
        ok[kind].push(reply.ms);
        return true;
      }
      if (typeof reply.status === 'number' && reply.status >= 500) serverErrors++;
      const key = `${kind} ${reply.status}${is2xx ? ' (unexpected body)' : ''}${note ? ` (${note})` : ''}`;
      errors.set(key, (errors.get(key) ?? 0) + 1);
      return false;
    },
  };
}
export type Recorder = ReturnType<typeof createRecorder>;

/** One memory the run wrote and the server acknowledged. */
export interface Written {
  id: string;
  user: string;
  ref: string;
}

/** What the run wrote and deleted, as the server acknowledged it. */
export function createLedger() {
  return {
    /** Acknowledged and not deleted, by id: each must exist exactly once at the end. */
    live: new Map<string, Written>(),
    /** Deleted by us (200): each must be gone. */
    deleted: new Map<string, Written>(),
    /** A DELETE that failed: present or not, it is left out of the checks. */
    unsure: new Map<string, Written>(),
    /** ref → user of writes whose request failed: stored or not, we cannot know. */
    unacknowledged: new Map<string, string>(),
    /** Ids written during the load and not yet picked for get+delete (the seed's come after). */
    fresh: [] as string[],
    seeded: [] as string[],
    /** Batches (processing is followed per batch) and memories added one at a time. */
    batchIds: [] as string[],
    singleIds: [] as string[],
    /** The next memory to get and delete (a random one of `fresh`, else of `seeded`); removed from the pool. */
    take(rng: () => number): Written | undefined {
      const pool = this.fresh.length ? this.fresh : this.seeded;
      if (!pool.length) return undefined;
      const i = Math.floor(rng() * pool.length);
      [pool[i], pool[pool.length - 1]] = [pool[pool.length - 1], pool[i]];
      return this.live.get(pool.pop()!);
    },
  };
}
export type Ledger = ReturnType<typeof createLedger>;

/** The reference written at the end of a memory's content, or null. */
export const refOf = (content: string): string | null => /\(ref ([LS][\d.]+)\)$/.exec(content)?.[1] ?? null;

/** Memory `i` of the synthetic corpus with reference `ref` appended. */
function memoryWithRef(i: number, users: number, ref: string): AddMemory {
  const m = syntheticMemory(i, users);
  return { ...m, content: `${m.content} (ref ${ref})` };
}

/**
 * POST a batch and enter what it stored in the ledger. Items are matched to ids by index:
 * `successful` lists the stored ones in item order, `errors` names the refused ones' indexes.
 * Returns what was stored and whether that was every item.
 */
async function postBatch(
  call: Call,
  ledger: Ledger,
  items: AddMemory[],
  refs: string[],
  query = '',
  batchSize?: number,
): Promise<{ reply: Reply; stored: Written[]; allStored: boolean }> {
  const reply = await call('POST', `/v1/memory/batch${query}`, { memories: items, batch_size: batchSize });
  const b = reply.body;
  const answered = typeof reply.status === 'number' && reply.status < 300 && Array.isArray(b?.successful);
  const refused = new Set<number>(answered ? (b.errors ?? []).map((e: { index: number }) => e.index) : []);
  const ids: string[] = answered ? b.successful.map((s: any) => s.data?.[0]?.memoryId) : [];
  const stored: Written[] = [];
  let k = 0;
  items.forEach((item, i) => {
    const id = answered && !refused.has(i) ? ids[k++] : undefined;
    if (!id) return void ledger.unacknowledged.set(refs[i], item.external_user_id);
    const w = { id, user: item.external_user_id, ref: refs[i] };
    ledger.live.set(id, w);
    stored.push(w);
  });
  if (answered && b.batch_id) ledger.batchIds.push(b.batch_id);
  return { reply, stored, allStored: stored.length === items.length && ids.length === items.length };
}

/** Seed `n` corpus memories for `users` users through the batch endpoint, 100 per request, 2 in flight. */
export async function seedStore(call: Call, ledger: Ledger, n: number, users: number): Promise<void> {
  const starts = Array.from({ length: Math.ceil(n / 100) }, (_, b) => b * 100);
  await mapConcurrent(starts, 2, async (start) => {
    const refs = Array.from({ length: Math.min(100, n - start) }, (_, j) => `S.${start + j}`);
    const items = refs.map((ref, j) => memoryWithRef(start + j, users, ref));
    const { reply, allStored } = await postBatch(call, ledger, items, refs, '', items.length);
    if (!allStored) throw new Error(`seed batch at ${start} answered ${reply.status}: ${JSON.stringify(reply.body)}`);
  });
  for (const id of ledger.live.keys()) ledger.seeded.push(id);
}

/** The shape of the mixed load (bench/load.ts documents each). */
export interface LoadOptions {
  seconds: number;
  connections: number;
  users: number;
  rngSeed: number;
  /** Distinct queries, each with the user it is about; client c takes c, c + connections, … */
  queries: { user: string; query: string }[];
  /** Corpus index the load's memories start from (past the seed's). */
  firstIndex: number;
}

/** Share of each operation in the mix: search, add, batch of 10, get + delete. */
export const MIX = { search: 0.7, add: 0.2, batch: 0.05, getDelete: 0.05 };

/**
 * Run `connections` closed-loop clients for `seconds`: each sends its next request when the
 * previous one answered, drawn from {@link MIX} with its own seeded PRNG (the same sequence of
 * kinds on every run). Requests in flight at the end finish and count. Returns the wall time.
 */
export async function runLoad(call: Call, rec: Recorder, ledger: Ledger, o: LoadOptions): Promise<number> {
  const t0 = performance.now();
  const end = t0 + o.seconds * 1000;
  const isId = (b: any, id: string) => b?.data?.memories?.[0]?.id === id;

  async function client(c: number) {
    const rng = prng(Math.imul(o.rngSeed, 1_000_003) + c);
    let searches = 0;
    let written = 0;
    const next = (): [AddMemory, string] => {
      const ref = `L${c}.${written}`;
      return [memoryWithRef(o.firstIndex + c * 1_000_000 + written++, o.users, ref), ref];
    };
    const acknowledge = (id: string, m: AddMemory, ref: string) => {
      ledger.live.set(id, { id, user: m.external_user_id, ref });
      ledger.fresh.push(id);
    };

    while (performance.now() < end) {
      const r = rng();
      if (r < MIX.search) {
        const q = o.queries[(c + o.connections * searches++) % o.queries.length];
        const reply = await call('POST', '/v1/memory/search?max_memories=20', {
          query: q.query,
          external_user_id: q.user,
        });
        rec.record('search', reply, Array.isArray(reply.body?.data?.memories));
      } else if (r < MIX.search + MIX.add) {
        const [m, ref] = next();
        const reply = await call('POST', '/v1/memory', m);
        const id: string | undefined = reply.body?.data?.[0]?.memoryId;
        if (rec.record('add', reply, typeof id === 'string')) {
          acknowledge(id!, m, ref);
          ledger.singleIds.push(id!);
        } else ledger.unacknowledged.set(ref, m.external_user_id);
      } else if (r < MIX.search + MIX.add + MIX.batch) {
        const pairs = Array.from({ length: 10 }, next);
        const { reply, stored, allStored } = await postBatch(
          call,
          ledger,
          pairs.map((p) => p[0]),
          pairs.map((p) => p[1]),
        );
        rec.record('batch', reply, allStored);
        ledger.fresh.push(...stored.map((w) => w.id));
      } else {
        const w = ledger.take(rng);
        if (!w) continue;
        const got = await call('GET', `/v1/memory/${w.id}`);
        // Nobody else deletes it (it left the pool when taken): a 404 is a lost memory.
        if (!rec.record('get', got, isId(got.body, w.id), got.status === 404 ? 'our own memory: lost' : '')) continue;
        const del = await call('DELETE', `/v1/memory/${w.id}`);
        ledger.live.delete(w.id);
        if (rec.record('delete', del, del.body?.memoryId === w.id)) ledger.deleted.set(w.id, w);
        else ledger.unsure.set(w.id, w);
      }
    }
  }

  await Promise.all(Array.from({ length: o.connections }, (_, c) => client(c)));
  return performance.now() - t0;
}
