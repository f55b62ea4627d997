// Entry of our worker threads when running from source (thread-start.ts): Node 20 does not hand the main thread's tsx
// loader to worker threads, so this registers tsx, then loads the TypeScript entry. The build's .js entries start directly.
import { workerData } from 'node:worker_threads';

(await import('tsx/esm/api')).register();
await import(workerData.entry);
