/**
 * After the load of `bench/load.ts`: wait until background processing has caught up (through
 * the status endpoints, as a client would), then compare what the server acknowledged with
 * what it holds, through the API (GET by id) and row by row in the store (SQL).
 */
import { sleep } from '../../test/wait.ts';
import { refOf, type Call, type Ledger } from './load-traffic.ts';
import { mapConcurrent } from './pool.ts';

/** What the status endpoints said while processing caught up. */
export interface Drain {
  /** Memories not yet processed (queued or processing) when the wait began. */
  backlog: number;
  /** From the start of the wait until every memory was completed or failed. */
  ms: number;
  /** Memories whose processing failed (ids). */
  failed: string[];
}

const FINAL = ['completed', 'partial', 'failed'];

/**
 * Poll every batch (`/v1/memory/batch/status/:id`) and every memory added alone
 * (`/v1/memory/status/:id`) until each is done, 4 requests at a time, every 500 ms for those
 * still running. A 404 means every memory of it was deleted (the integrity check says whether
 * by us). Throws after `timeoutMs`.
 */
export async function drain(call: Call, ledger: Ledger, timeoutMs: number): Promise<Drain> {
  const t0 = performance.now();
  let pending: { path: string; id: string }[] = [
    ...ledger.batchIds.map((id) => ({ path: `/v1/memory/batch/status/${id}`, id })),
    ...ledger.singleIds.map((id) => ({ path: `/v1/memory/status/${id}`, id })),
  ];
  const failed = new Set<string>();
  let backlog: number | undefined;
  for (;;) {
    let waiting = 0;
    const still = await mapConcurrent(pending, 4, async (p) => {
      const r = await call('GET', p.path);
      if (r.status === 404) return false;
      if (r.status !== 200) throw new Error(`GET ${p.path} answered ${r.status}: ${JSON.stringify(r.body)}`);
      const s = r.body;
      if (s.progress) {
        for (const f of s.failures ?? []) failed.add(f.memory_id);
        waiting += s.progress.total - s.progress.done;
      } else {
        if (s.processing_status === 'failed') failed.add(p.id);
        if (!FINAL.includes(s.processing_status)) waiting++;
      }
      return !FINAL.includes(s.processing_status);
    });
    backlog ??= waiting;
    pending = pending.filter((_, i) => still[i]);
    if (!pending.length) return { backlog, ms: performance.now() - t0, failed: [...failed] };
    if (performance.now() - t0 > timeoutMs)
      throw new Error(`${waiting} memories still not processed after ${(timeoutMs / 1000).toFixed(0)} s`);
    await sleep(500);
  }
}

/** Through the API: acknowledged memories that a GET does not find, deleted ones that it still does. */
export async function checkByApi(call: Call, ledger: Ledger): Promise<{ missing: string[]; resurrected: string[] }> {
  const missing: string[] = [];
  const resurrected: string[] = [];
  await mapConcurrent([...ledger.live.keys()], 4, async (id) => {
    const r = await call('GET', `/v1/memory/${id}`);
    if (r.status !== 200 || r.body?.data?.memories?.[0]?.id !== id) missing.push(`${id} (${r.status})`);
  });
  await mapConcurrent([...ledger.deleted.keys()], 4, async (id) => {
    const r = await call('GET', `/v1/memory/${id}`);
    if (r.status !== 404) resurrected.push(`${id} (${r.status})`);
  });
  return { missing, resurrected };
}

/** A memory row as the store holds it. */
export interface MemoryRowLite {
  id: string;
  external_user_id: string | null;
  content: string;
}

/** Row by row: what does not match the ledger (each list empty when the store is right). */
export interface RowCheck {
  /** Acknowledged memories with no row, or whose ref is on another id. */
  missing: string[];
  /** A ref on more than one row: one write stored twice. */
  duplicated: string[];
  /** Deleted memories that still have a row. */
  resurrected: string[];
  /** Rows no request of this run wrote (no ref, or a ref never sent). */
  unexpected: string[];
  /** Rows of writes whose request failed: stored all the same (not an integrity failure). */
  unacknowledgedStored: number;
  /** Users whose row count differs from the ledger's: "user: rows/expected". */
  userCounts: string[];
}

/** Compare the store's memory rows with what the run wrote (see {@link RowCheck}). */
export function checkRows(rows: MemoryRowLite[], ledger: Ledger): RowCheck {
  const byRef = new Map<string, MemoryRowLite[]>();
  const unexpected: string[] = [];
  for (const row of rows) {
    const ref = refOf(row.content);
    if (!ref) unexpected.push(row.id);
    else byRef.set(ref, [...(byRef.get(ref) ?? []), row]);
  }
  const expectedRefs = new Map([...ledger.live.values()].map((w) => [w.ref, w]));
  const out: RowCheck = {
    missing: [],
    duplicated: [],
    resurrected: [],
    unexpected,
    unacknowledgedStored: 0,
    userCounts: [],
  };
  for (const [ref, found] of byRef) {
    if (found.length > 1) out.duplicated.push(`${ref} ×${found.length}`);
    if (expectedRefs.has(ref) || ledger.deleted.has(found[0].id)) continue;
    if (ledger.unacknowledged.has(ref)) out.unacknowledgedStored++;
    else if (![...ledger.unsure.values()].some((w) => w.ref === ref)) unexpected.push(...found.map((r) => r.id));
  }
  for (const w of ledger.live.values()) {
    const found = byRef.get(w.ref);
    if (!found?.some((r) => r.id === w.id)) out.missing.push(`${w.ref} ${w.id}`);
  }
  const ids = new Set(rows.map((r) => r.id));
  for (const id of ledger.deleted.keys()) if (ids.has(id)) out.resurrected.push(id);
  // Per user: rows against acknowledged minus deleted (only users with nothing uncertain).
  const uncertain = new Set([...ledger.unacknowledged.values(), ...[...ledger.unsure.values()].map((w) => w.user)]);
  const want = new Map<string, number>();
  for (const w of ledger.live.values()) want.set(w.user, (want.get(w.user) ?? 0) + 1);
  const have = new Map<string, number>();
  for (const r of rows) have.set(r.external_user_id ?? '', (have.get(r.external_user_id ?? '') ?? 0) + 1);
  for (const user of new Set([...want.keys(), ...have.keys()])) {
    if (uncertain.has(user)) continue;
    if ((want.get(user) ?? 0) !== (have.get(user) ?? 0))
      out.userCounts.push(`${user}: ${have.get(user) ?? 0}/${want.get(user) ?? 0}`);
  }
  return out;
}
