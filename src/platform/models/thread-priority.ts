import { setPriority } from 'node:os';

/**
 * Lower the calling thread's scheduling priority to `nice` (0 leaves it). On Linux the nice
 * value belongs to the thread (setpriority with pid 0 is the caller; NPTL), so a worker thread
 * can yield to the event loop and the query threads without touching them. With one intra-op
 * thread ONNX Runtime computes on this thread, so the model follows. Where the platform refuses
 * (a container without the right, another OS's per-process semantics), the thread stays as it is.
 */
export function lowerPriority(nice: number): void {
  if (!nice) return;
  try {
    setPriority(0, nice);
  } catch {
    // Not permitted here: scheduling stays fair, which is what it was before.
  }
}
