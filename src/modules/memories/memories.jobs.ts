import type { JobContext, JobHandler, JobRow, StepWrites } from '../../platform/jobs/index.ts';
import type { Publish } from '../../platform/events/index.ts';
import type { MemoryRow } from './memories.store.ts';
import type { MemoryStatusRow } from './status.store.ts';
import { memoryTransitions, type MemoryTransitions } from './transitions.ts';

/** Job kind enqueued with every memory that needs background processing. */
export const MEMORY_PROCESS = 'memory.process';

/**
 * One post-save step (graph extraction, transforms … arrive here). A step computes outside
 * any transaction (it may call models) and returns its writes, which run in the transaction
 * that completes the memory, so a memory is completed exactly when its steps' results are
 * stored. Steps MUST be idempotent: after a crash the whole job runs again, so a step's writes
 * replace what an earlier run wrote instead of adding to it.
 */
export interface ProcessingStep {
  name: string;
  run(memory: MemoryStatusRow & MemoryRow, ctx: JobContext): Promise<StepWrites | void>;
}

/** A step's failure, named after the step; `permanent` when another attempt would fail the same way. */
function stepError(step: ProcessingStep, err: unknown): Error {
  const message = err instanceof Error ? err.message : String(err);
  // Invalid input or an unmeetable constraint (`permanent`), or a model error its adapter
  // calls not retryable: another attempt would fail the same way.
  const e = err as { permanent?: boolean; retryable?: boolean } | null;
  const permanent = e?.permanent === true || e?.retryable === false;
  return Object.assign(new Error(`${step.name}: ${message}`, { cause: err }), { permanent });
}

/** The memory is given up: it was stored and stays searchable; its status says why processing failed. */
async function markFailed(
  job: JobRow,
  error: string,
  ctx: Pick<JobContext, 'db'>,
  transitions: MemoryTransitions,
): Promise<void> {
  const reason = error
    .split('\n')[0]
    .replace(/^Error: /, '')
    .slice(0, 1000);
  const organizationId = job.organization_id!;
  // The transition and its event commit together (webhooks are driven by the event).
  await ctx.db.transaction((tx) => transitions.fail(tx, organizationId, String(job.payload.memory_id), reason));
}

/**
 * Handlers of the memories module: `memory.process` moves a quick-saved memory through
 * processing → completed (or failed once its job is dead), each with its event. Idempotent: a memory already
 * completed, failed or deleted is left alone; a memory stuck in `processing` (its worker
 * died) is processed again.
 */
export function memoryJobs(publish: Publish, steps: ProcessingStep[] = []): Record<string, JobHandler> {
  const transitions = memoryTransitions(publish);
  return {
    [MEMORY_PROCESS]: {
      async run(job, ctx) {
        const organizationId = job.organization_id!;
        const memory = await ctx.db.transaction((tx) =>
          transitions.start(tx, organizationId, String(job.payload.memory_id)),
        );
        if (!memory) return;
        const writes: { step: ProcessingStep; w: StepWrites }[] = [];
        for (const step of steps) {
          const w = await step.run(memory, ctx).catch((err) => Promise.reject(stepError(step, err)));
          if (w) writes.push({ step, w });
        }
        await ctx.db.transaction(async (tx) => {
          await transitions.complete(tx, organizationId, memory, async () => {
            for (const { step, w } of writes) await w.write(tx).catch((err) => Promise.reject(stepError(step, err)));
          });
          await ctx.complete(tx);
        });
        for (const { step, w } of writes)
          await w
            .after?.()
            .catch((err) => ctx.log.warn({ err, step: step.name }, "a step's follow-up after completion failed"));
      },
      onDead: (job, error, ctx) => markFailed(job, error, ctx, transitions),
    },
  };
}
