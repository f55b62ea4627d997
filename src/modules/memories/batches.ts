/**
 * A batch's lifecycle for modules that store memories in batches of their own (documents: one
 * upload is one batch, its chunks its memories). The same events as POST /v1/memory/batch, so
 * webhooks, WebSocket pushes and GET /v1/memory/status/batch/{id} work alike.
 */
import type { Db, Queryable } from '../../platform/db/index.ts';
import type { Publish } from '../../platform/events/index.ts';
import type { WebhookRequest, Webhooks } from '../webhooks/index.ts';
import { BATCH_COMPLETED, BATCH_STORED, batchStored } from './memory-events.ts';
import { deleteBatchMemories } from './memories.store.ts';
import { purgeEmptyBatches } from './purge.store.ts';
import { batchProgress, lockBatch } from './status.store.ts';

export function createBatchPort(deps: { publish: Publish; webhooks: Pick<Webhooks, 'subscribe'> }) {
  return {
    /**
     * Every memory of the batch is stored: from now on its last finishing memory completes it
     * (or it completes now when they all finished). `hook` is subscribed first, in the same transaction.
     */
    async seal(tx: Queryable, organizationId: string, batchId: string, hook: WebhookRequest | null) {
      if (hook) await deps.webhooks.subscribe(tx, organizationId, { batchId }, hook);
      await batchStored(tx, deps.publish, organizationId, batchId);
    },

    /**
     * End the batch without its memories finishing it: `failed` (nothing could be stored) or
     * `cancelled`. Recorded once: a batch already complete keeps its outcome.
     */
    async end(
      tx: Queryable,
      organizationId: string,
      batchId: string,
      outcome: { status: 'failed' | 'cancelled'; error?: string },
      hook: WebhookRequest | null,
    ) {
      await lockBatch(tx, batchId);
      if (hook) await deps.webhooks.subscribe(tx, organizationId, { batchId }, hook);
      const {
        stored: _stored,
        last_finished_at: _at,
        ...counts
      } = await batchProgress(tx, organizationId, batchId, BATCH_STORED);
      await deps.publish(tx, { kind: BATCH_COMPLETED, organizationId, batchId, payload: { ...outcome, counts } });
    },

    /** How far the batch's memories are: stored (sealed), total, completed, failed. */
    progress: (db: Db | Queryable, organizationId: string, batchId: string) =>
      batchProgress(db, organizationId, batchId, BATCH_STORED),

    /** Delete the batch's memories with what hangs off them; the deletion receipt's counts. */
    deleteMemories: deleteBatchMemories,

    /** Delete the events and webhook deliveries of batches that are gone (a deleted upload's, its memories deleted). */
    purgeRecords: purgeEmptyBatches,
  };
}

export type BatchPort = ReturnType<typeof createBatchPort>;
