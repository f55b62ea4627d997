export { enqueue, enqueueAll, type NewJob } from './queue.ts';
export { createWorker, defaultBackoff } from './worker.ts';
export type { JobContext, JobHandler, StepWrites, Worker, WorkerOptions } from './worker.types.ts';
export { LeaseLostError } from './lease.ts';
export type { JobRow } from './jobs.store.ts';
export { deleteIdleJobsOf, pruneCompletedJobs } from './jobs.store.ts';
