import { z } from 'zod';
import { MEMORY_STATES } from './status.store.ts';

const ts = z.string().describe('ISO 8601 time');

export const memoryStatusParams = z.object({ memory_id: z.string().min(1).max(200).describe('Memory id') });
export const batchStatusParams = z.object({
  batch_id: z.string().min(1).max(200).describe('batch_id returned by POST /v1/memory/batch'),
});

const memoryStatus = z.object({
  memory_id: z.string().describe('Memory id'),
  processing_status: z
    .enum(MEMORY_STATES)
    .describe('quick_saved (stored, searchable) → processing → completed | failed'),
  batch_id: z.string().nullable().describe('The batch the memory was stored in; null when stored on its own'),
  created_at: ts.describe('ISO 8601 time the memory was stored'),
  updated_at: ts.describe('ISO 8601 time of the latest change'),
  processing_started_at: ts.nullable().describe('Start of the latest processing attempt'),
  completed_at: ts.nullable().describe('ISO 8601 time processing completed; null until then'),
  failed_at: ts.nullable().describe('ISO 8601 time processing failed; null unless it did'),
  error: z.string().nullable().describe('Why processing failed (only when failed)'),
});

const code = z.number().int().describe('The HTTP status code');
const success = z.literal('success').describe('success (errors answer the error envelope)');

export const memoryStatusResponse = memoryStatus.extend({ code, status: success });

export const batchStatusResponse = z.object({
  code,
  status: success,
  batch_id: z.string().describe('Batch id'),
  processing_status: z
    .enum(['processing', 'completed', 'partial', 'failed'])
    .describe('processing until every memory is completed or failed'),
  progress: z
    .object({
      total: z.number().int().describe('Memories in the batch'),
      done: z.number().int().describe('Memories completed or failed'),
      percent: z.number().describe('done / total in percent, one decimal'),
    })
    .describe('How far processing is'),
  counts: z
    .object(
      Object.fromEntries(MEMORY_STATES.map((s) => [s, z.number().int().describe(`Memories in state ${s}`)])) as Record<
        (typeof MEMORY_STATES)[number],
        z.ZodNumber
      >,
    )
    .describe('Memories of the batch per processing state'),
  failures: z
    .array(
      z.object({
        memory_id: z.string().describe('Memory id'),
        error: z.string().describe('Why its processing failed'),
      }),
    )
    .describe('The memories whose processing failed'),
  memories: z.array(memoryStatus).describe('Status of every memory of the batch'),
  created_at: ts.describe('ISO 8601 time the first memory of the batch was stored'),
  updated_at: ts.describe('ISO 8601 time of the latest change to any memory of the batch'),
});
