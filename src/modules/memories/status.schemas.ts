import { z } from 'zod';
import { MEMORY_STATES } from './status.store.ts';

const ts = z.string().describe('ISO 8601 time');

export const memoryStatusParams = z.object({ memory_id: z.string().min(1).max(200).describe('Memory id') });
export const batchStatusParams = z.object({
  batch_id: z.string().min(1).max(200).describe('batch_id returned by POST /v1/memory/batch'),
});

const memoryStatus = z.object({
  memory_id: z.string(),
  processing_status: z
    .enum(MEMORY_STATES)
    .describe('queued → quick_saved (stored, searchable) → processing → completed | failed'),
  batch_id: z.string().nullable(),
  created_at: ts,
  updated_at: ts,
  processing_started_at: ts.nullable().describe('Start of the latest processing attempt'),
  completed_at: ts.nullable(),
  failed_at: ts.nullable(),
  error: z.string().nullable().describe('Why processing failed (only when failed)'),
});

export const memoryStatusResponse = memoryStatus.extend({
  code: z.number().int(),
  status: z.literal('success'),
});

export const batchStatusResponse = z.object({
  code: z.number().int(),
  status: z.literal('success'),
  batch_id: z.string(),
  processing_status: z
    .enum(['processing', 'completed', 'partial', 'failed'])
    .describe('processing until every memory is completed or failed'),
  progress: z.object({ total: z.number().int(), done: z.number().int(), percent: z.number() }),
  counts: z.object(
    Object.fromEntries(MEMORY_STATES.map((s) => [s, z.number().int()])) as Record<
      (typeof MEMORY_STATES)[number],
      z.ZodNumber
    >,
  ),
  failures: z.array(z.object({ memory_id: z.string(), error: z.string() })),
  memories: z.array(memoryStatus),
  created_at: ts,
  updated_at: ts,
});
