import type { Db } from '../../platform/db/index.ts';
import { requirePermission, type Actor } from '../../shared/actor.ts';
import { notFound } from '../../shared/errors.ts';
import { iso } from '../../shared/time.ts';
import { hasBatchEvent } from '../../platform/events/index.ts';
import type { UserDirectory } from '../users/index.ts';
import { BATCH_STORED } from './memory-events.ts';
import { endUserReader } from './reader.ts';
import {
  getBatchStatus,
  getMemoryStatus,
  MEMORY_STATES,
  type MemoryState,
  type MemoryStatusRow,
} from './status.store.ts';

const scopeOf = (actor: Actor) => ({ organizationId: actor.organizationId, namespaceId: actor.namespaceId });

/** One memory's lifecycle as the API shows it. */
export function statusView(row: MemoryStatusRow) {
  return {
    memory_id: row.id,
    processing_status: row.status,
    batch_id: row.batch_id,
    created_at: iso(row.created_at)!,
    updated_at: iso(row.updated_at)!,
    processing_started_at: iso(row.processing_started_at) ?? null,
    completed_at: iso(row.completed_at) ?? null,
    failed_at: iso(row.failed_at) ?? null,
    error: row.status === 'failed' ? (row.status_error ?? 'processing failed') : null,
  };
}

/** Overall state of a batch: still running until every memory is completed or failed. */
function overall(
  counts: Record<MemoryState, number>,
  total: number,
): 'processing' | 'completed' | 'partial' | 'failed' {
  if (counts.completed + counts.failed < total) return 'processing';
  if (counts.failed === 0) return 'completed';
  return counts.completed === 0 ? 'failed' : 'partial';
}

/**
 * Processing status of memories and batches (spec §4.12). Another tenant's ids are not found.
 * An end user's own token (session or Bearer alone) sees, like `GET /v1/memory/{id}`, only
 * memories they may read (own or ACL-shared), and a batch only when they may read every memory
 * in it: a batch records no creator, and its counts and list would tell of the others.
 * Anything else is the same 404 as an unknown id. The WebSocket streams read through here.
 */
export function createMemoryStatusService({ db, users }: { db: Db; users: Pick<UserDirectory, 'get'> }) {
  return {
    async memory(actor: Actor, id: string) {
      requirePermission(actor, 'read');
      const row = await getMemoryStatus(db, scopeOf(actor), id, await endUserReader(users, db, actor));
      if (!row) throw notFound(`Memory ${id}`);
      return statusView(row);
    },

    async batch(actor: Actor, batchId: string) {
      requirePermission(actor, 'read');
      const rows = await getBatchStatus(db, scopeOf(actor), batchId, await endUserReader(users, db, actor));
      if (!rows.length || rows.some((r) => !r.readable)) throw notFound(`Batch ${batchId}`);
      const counts = Object.fromEntries(MEMORY_STATES.map((s) => [s, 0])) as Record<MemoryState, number>;
      for (const r of rows) counts[r.status] = (counts[r.status] ?? 0) + 1;
      const done = counts.completed + counts.failed;
      const memories = rows.map(statusView);
      // While later groups are still being stored, the finished first ones do not finish the batch.
      const stored = await hasBatchEvent(db, actor.organizationId, batchId, BATCH_STORED);
      return {
        batch_id: batchId,
        processing_status: stored ? overall(counts, rows.length) : 'processing',
        progress: { total: rows.length, done, percent: Math.round((1000 * done) / rows.length) / 10 },
        counts,
        failures: memories
          .filter((m) => m.processing_status === 'failed')
          .map((m) => ({ memory_id: m.memory_id, error: m.error! })),
        memories,
        created_at: memories[0].created_at,
        updated_at: rows
          .reduce((max, r) => (r.updated_at > max ? r.updated_at : max), rows[0].updated_at)
          .toISOString(),
      };
    },
  };
}

export type MemoryStatusService = ReturnType<typeof createMemoryStatusService>;
