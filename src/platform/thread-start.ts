/**
 * Start one of our worker threads (models, the embedded store) from its entry module. From
 * the build (`dist/`, what `npm start` runs) the compiled .js entry starts directly; from
 * source under tsx, a .ts entry goes through thread-boot.mjs, which registers tsx first
 * (Node 20 does not hand the main thread's loader to worker threads).
 */
import { Worker } from 'node:worker_threads';

const BOOT = new URL('./thread-boot.mjs', import.meta.url);

/** `entry`'s sibling named `name` with this build's extension: `.ts` from source, `.js` from dist/. */
export function siblingEntry(name: string, importMetaUrl: string): URL {
  return new URL(`./${name}${importMetaUrl.endsWith('.ts') ? '.ts' : '.js'}`, importMetaUrl);
}

export function startThread(entry: URL, workerData: Record<string, unknown>): Worker {
  if (!entry.pathname.endsWith('.ts')) return new Worker(entry, { workerData });
  return new Worker(BOOT, { workerData: { ...workerData, entry: entry.href } });
}
