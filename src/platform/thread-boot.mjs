// Entry of our worker threads (models, the embedded store). Node 20 does not hand the main thread's tsx loader to worker
// threads, so a TypeScript entry registers tsx here first; a compiled .js entry needs nothing.
import { workerData } from 'node:worker_threads';

if (workerData.entry.endsWith('.ts')) (await import('tsx/esm/api')).register();
await import(workerData.entry);
