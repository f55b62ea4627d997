import type { Queryable } from '../db/index.ts';
import type { Logger } from '../log.ts';
import { extendLocks } from './jobs.store.ts';

/** Thrown where a worker would finish a job whose lease it no longer holds. */
export class LeaseLostError extends Error {
  constructor(readonly jobId: string) {
    super(`job ${jobId}: this worker no longer holds its lease; another worker may be running it`);
    this.name = 'LeaseLostError';
  }
}

/** This worker's hold on one claimed job. */
export interface Lease {
  /** Aborted (with a LeaseLostError) when a renewal finds the job is no longer ours. */
  readonly signal: AbortSignal;
  /** True once a renewal found the job no longer ours. */
  readonly lost: boolean;
  /** This worker is finishing the job: a renewal that misses it from now on is no loss. */
  finishing(): void;
}

export interface LeaseKeeper {
  /** Hold a job just claimed (its lease runs from the claim). */
  hold(jobId: string): Lease;
  /** The job is no longer in hand: stop renewing it. */
  drop(jobId: string): void;
  /** Renew every held lease now; resolves to the ids found lost (tests; the heartbeat calls it). */
  renew(): Promise<string[]>;
  start(): void;
  stop(): void;
}

export interface LeaseOptions {
  db: Queryable;
  workerId: string;
  /** How long a claim or a renewal holds the job. */
  leaseMs: number;
  /** How often held leases are renewed (well under leaseMs, so one missed renewal is survived). */
  heartbeatMs: number;
  log: Logger;
}

interface Held {
  controller: AbortController;
  lost: boolean;
  finishing: boolean;
}

/**
 * Keeps the leases of the jobs a worker has in hand: a heartbeat renews them all in one
 * statement, which returns the ids still ours. A job missing from that answer was taken from
 * us (our lease expired during a store hiccup and another worker claimed it, or a stop handed
 * it back): the worker must stop treating it as its own, so two workers never both finish
 * it. Its handler cannot be killed, but its lease signal aborts and its completion refuses to
 * commit (LeaseLostError), so only the new holder's work lands.
 */
export function createLeaseKeeper(opts: LeaseOptions): LeaseKeeper {
  const { db, workerId, leaseMs, log } = opts;
  const held = new Map<string, Held>();
  let timer: NodeJS.Timeout | null = null;
  let renewing: Promise<string[]> | null = null;

  async function renewOnce(): Promise<string[]> {
    const ids = [...held.keys()];
    if (!ids.length) return [];
    const kept = new Set(await extendLocks(db, ids, workerId, leaseMs));
    const lost: string[] = [];
    for (const id of ids) {
      const h = held.get(id);
      // Gone from hand meanwhile, or being completed by us (a completed job is not renewed).
      if (!h || h.lost || h.finishing || kept.has(id)) continue;
      h.lost = true;
      h.controller.abort(new LeaseLostError(id));
      lost.push(id);
      log.warn({ job_id: id }, 'lost the lease of a job in hand; its new holder runs it, this run will not finish it');
    }
    return lost;
  }

  const keeper: LeaseKeeper = {
    hold(jobId) {
      const h: Held = { controller: new AbortController(), lost: false, finishing: false };
      held.set(jobId, h);
      return {
        signal: h.controller.signal,
        get lost() {
          return h.lost;
        },
        finishing: () => void (h.finishing = true),
      };
    },

    drop(jobId) {
      held.delete(jobId);
    },

    renew() {
      // One renewal at a time: a slow one (store hiccup) is not stacked up behind.
      renewing ??= renewOnce().finally(() => (renewing = null));
      return renewing;
    },

    start() {
      timer ??= setInterval(() => {
        keeper.renew().catch((err) => log.warn({ err }, 'renewing job leases failed; retrying at the next heartbeat'));
      }, opts.heartbeatMs);
    },

    stop() {
      if (timer) clearInterval(timer);
      timer = null;
    },
  };
  return keeper;
}
