import type { Queryable } from '../../platform/db/index.ts';
import type { NewEvent, Publish } from '../../platform/events/index.ts';
import {
  completeBatchIfDone,
  MEMORY_COMPLETED,
  MEMORY_FAILED,
  MEMORY_PROCESSING,
  MEMORY_QUICK_SAVED,
} from './memory-events.ts';
import {
  failProcessing,
  finishProcessing,
  lockBatch,
  lockBatchOfMemory,
  requeueProcessing,
  startProcessing,
} from './status.store.ts';

interface Finished {
  id: string;
  batch_id: string | null;
  status: 'completed' | 'failed';
  status_error?: string | null;
  created_at?: Date;
}

type Stored = { id: string; batch_id: string | null; status: string; created_at: Date };

/** The event of a memory stored (quick_saved) or whose processing started. */
function stateChange(organizationId: string, m: { id: string; batch_id: string | null; status: string }): NewEvent {
  const kind = m.status === 'processing' ? MEMORY_PROCESSING : MEMORY_QUICK_SAVED;
  return { kind, organizationId, memoryId: m.id, batchId: m.batch_id, payload: { status: m.status } };
}

/**
 * The state machine of a stored memory: quick_saved → processing → completed | failed, and
 * back to quick_saved when what it is built from changes. Every change of a memory's status
 * goes through here, in the caller's transaction, with its event (webhooks and WebSocket
 * pushes are driven by it). The transitions that finish a memory take its batch's lock
 * themselves, before the change: so the transaction that finishes a batch's last memory sees
 * every other one committed, and exactly one reports the batch complete. No caller can forget it.
 */
export function memoryTransitions(publish: Publish) {
  /** Record finished memories; when one was the last unfinished of a stored batch, the batch completes. */
  async function finished(tx: Queryable, organizationId: string, ms: Finished[]): Promise<void> {
    await publish.all(
      tx,
      ms.map((m) => ({
        kind: m.status === 'completed' ? MEMORY_COMPLETED : MEMORY_FAILED,
        organizationId,
        memoryId: m.id,
        batchId: m.batch_id,
        // What a webhook reports besides the ids (docs/webhooks.md).
        payload: {
          status: m.status,
          error: m.status === 'failed' ? (m.status_error ?? 'processing failed') : null,
          created_at: m.created_at?.toISOString() ?? null,
        },
      })),
    );
    for (const batchId of new Set(ms.map((m) => m.batch_id).filter((b): b is string => !!b)))
      await completeBatchIfDone(tx, publish, organizationId, batchId);
  }

  return {
    /**
     * Memories just inserted by the caller: `quick_saved` (their job is enqueued beside them), or
     * `completed` at once without background processing (which may finish their batch).
     */
    async stored(tx: Queryable, organizationId: string, rows: Stored[]): Promise<void> {
      const done = rows.filter((r) => r.status === 'completed');
      for (const batchId of new Set(done.map((r) => r.batch_id).filter((b): b is string => !!b)))
        await lockBatch(tx, batchId);
      await publish.all(
        tx,
        rows.filter((r) => r.status !== 'completed').map((r) => stateChange(organizationId, r)),
      );
      if (done.length)
        await finished(
          tx,
          organizationId,
          done.map((r) => ({ id: r.id, batch_id: r.batch_id, status: 'completed' as const, created_at: r.created_at })),
        );
    },

    /** quick_saved (or a dead attempt's processing) → processing; the whole row, so the steps need not read it. */
    async start(tx: Queryable, organizationId: string, id: string) {
      const row = await startProcessing(tx, organizationId, id);
      if (row) await publish(tx, stateChange(organizationId, row));
      return row;
    },

    /**
     * processing → completed. `writes` (the processing steps' results) run after the batch
     * lock and before the change, so they commit with the completion.
     */
    async complete(
      tx: Queryable,
      organizationId: string,
      memory: { id: string; batch_id: string | null },
      writes?: (tx: Queryable) => Promise<void>,
    ): Promise<void> {
      // The batch is known from the row read at the start: no lookup on this per-memory path.
      if (memory.batch_id) await lockBatch(tx, memory.batch_id);
      await writes?.(tx);
      const row = await finishProcessing(tx, organizationId, memory.id);
      if (row) await finished(tx, organizationId, [{ ...row, status: 'completed' }]);
    },

    /** Any unfinished state → failed, with the reason (the memory stays stored and searchable). */
    async fail(tx: Queryable, organizationId: string, id: string, reason: string): Promise<void> {
      await lockBatchOfMemory(tx, organizationId, id);
      const row = await failProcessing(tx, organizationId, id, reason);
      if (row) await finished(tx, organizationId, [{ ...row, status: 'failed' }]);
    },

    /**
     * completed, failed or processing → quick_saved: what the memory is built from changed.
     * True when it moved (the caller enqueues its processing); a memory still waiting for its
     * first job stays as it is (that job reads the new row).
     */
    async requeue(tx: Queryable, organizationId: string, id: string): Promise<boolean> {
      const row = await requeueProcessing(tx, organizationId, id);
      if (row) await publish(tx, stateChange(organizationId, row));
      return !!row;
    },
  };
}
export type MemoryTransitions = ReturnType<typeof memoryTransitions>;
