import type { Queryable } from '../../platform/db/index.ts';
import type { Publish } from '../../platform/events/index.ts';
import { batchProgress, lockBatch } from './status.store.ts';

/** Events of the memory lifecycle (docs/webhooks.md). */
export const MEMORY_QUICK_SAVED = 'memory.quick_saved';
export const MEMORY_PROCESSING = 'memory.processing';
export const MEMORY_COMPLETED = 'memory.completed';
export const MEMORY_FAILED = 'memory.failed';
/** Every group of a batch is stored: from now on its last finishing memory completes it. */
export const BATCH_STORED = 'batch.stored';
export const BATCH_COMPLETED = 'batch.completed';

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

/** When the batch's last memory finished, record batch.completed (once). The caller holds the batch's lock. */
export async function completeBatchIfDone(
  tx: Queryable,
  publish: Publish,
  organizationId: string,
  batchId: string,
): Promise<void> {
  const { stored, last_finished_at: _at, ...counts } = await batchProgress(tx, organizationId, batchId, BATCH_STORED);
  // Before batch.stored a finished memory may only be the first group's: the batch is not done.
  if (!stored || counts.completed + counts.failed < counts.total) return;
  const status = counts.failed === 0 ? 'completed' : counts.completed === 0 ? 'failed' : 'partial';
  // Unique per batch: a second finisher (or a job run twice) records nothing.
  await publish(tx, { kind: BATCH_COMPLETED, organizationId, batchId, payload: { status, counts } });
}
