import type { Queryable } from '../../platform/db/index.ts';
import type { NewEvent, Publish } from '../../platform/events/index.ts';
import { batchProgress, lockBatch } from './status.store.ts';

/** Events of the memory lifecycle (docs/webhooks.md). */
export const MEMORY_QUICK_SAVED = 'memory.quick_saved';
export const MEMORY_PROCESSING = 'memory.processing';
export const MEMORY_COMPLETED = 'memory.completed';
export const MEMORY_FAILED = 'memory.failed';
/** Every group of a batch is stored: from now on its last finishing memory completes it. */
export const BATCH_STORED = 'batch.stored';
export const BATCH_COMPLETED = 'batch.completed';

interface Finished {
  organizationId: string;
  id: string;
  batch_id: string | null;
  status: 'completed' | 'failed';
  status_error?: string | null;
  created_at?: Date;
}

type StateChange = { organizationId: string; id: string; batch_id: string | null; status: string };

/** The event of a memory stored (quick_saved) or whose processing started. */
export function stateChange(m: StateChange): NewEvent {
  const kind = m.status === 'processing' ? MEMORY_PROCESSING : MEMORY_QUICK_SAVED;
  return { kind, organizationId: m.organizationId, memoryId: m.id, batchId: m.batch_id, payload: { status: m.status } };
}

/** A memory was stored (quick_saved) or its processing started: live status pushes only. */
export async function memoryStateChanged(tx: Queryable, publish: Publish, m: StateChange): Promise<void> {
  await publish(tx, stateChange(m));
}

/**
 * Record that a memory finished, in the transaction that finished it; when it was the last
 * unfinished memory of a stored batch, the batch completes too. Callers in a batch hold
 * lockBatch from before their transition (see lockBatch).
 */
export async function memoryFinished(tx: Queryable, publish: Publish, m: Finished): Promise<void> {
  await memoriesFinished(tx, publish, m.organizationId, [m], { batchLocked: true });
}

/**
 * memoryFinished for many memories of one organization at once (a batch group stored as
 * completed); `batchLocked`: the caller holds their batch's lock already.
 */
export async function memoriesFinished(
  tx: Queryable,
  publish: Publish,
  organizationId: string,
  ms: Omit<Finished, 'organizationId'>[],
  opts: { batchLocked?: boolean } = {},
): Promise<void> {
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
  for (const batchId of new Set(ms.map((m) => m.batch_id).filter((b): b is string => !!b))) {
    if (!opts.batchLocked) await lockBatch(tx, batchId);
    await completeBatchIfDone(tx, publish, organizationId, batchId);
  }
}

/** After the last group of a batch is stored (its memories may all be finished already). */
export async function batchStored(
  tx: Queryable,
  publish: Publish,
  organizationId: string,
  batchId: string,
): Promise<void> {
  await lockBatch(tx, batchId);
  await publish(tx, { kind: BATCH_STORED, organizationId, batchId });
  await completeBatchIfDone(tx, publish, organizationId, batchId);
}

/** The caller holds the batch's lock. */
async function completeBatchIfDone(
  tx: Queryable,
  publish: Publish,
  organizationId: string,
  batchId: string,
): Promise<void> {
  const { stored, ...counts } = await batchProgress(tx, organizationId, batchId, BATCH_STORED);
  // Before batch.stored a finished memory may only be the first group's: the batch is not done.
  if (!stored || counts.completed + counts.failed < counts.total) return;
  const status = counts.failed === 0 ? 'completed' : counts.completed === 0 ? 'failed' : 'partial';
  // Unique per batch: a second finisher (or a job run twice) records nothing.
  await publish(tx, { kind: BATCH_COMPLETED, organizationId, batchId, payload: { status, counts } });
}
