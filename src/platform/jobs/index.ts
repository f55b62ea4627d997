export { enqueue, enqueueAll } from './queue.ts';
export {
  createWorker,
  defaultBackoff,
  type JobContext,
  type JobHandler,
  type StepWrites,
  type Worker,
  type WorkerOptions,
} from './worker.ts';
export type { JobRow } from './jobs.store.ts';
export { pruneCompletedJobs } from './jobs.store.ts';
