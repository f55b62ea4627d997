export { enqueue, enqueueAll, JOBS_CHANNEL, type NewJob } from './queue.ts';
export {
  createWorker,
  defaultBackoff,
  type JobContext,
  type JobHandler,
  type Worker,
  type WorkerOptions,
} from './worker.ts';
export type { JobRow, JobStatus } from './jobs.store.ts';
export { pruneCompletedJobs } from './jobs.store.ts';
